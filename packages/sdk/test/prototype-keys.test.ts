/**
 * Keys named like Object.prototype's properties are ordinary fields: in a request
 * body the SDK checks, and in an answer's `error.fields` or `error.code`.
 */
import { describe, expect, it } from 'vitest'
import { UnprocessableEntityError, ValidationError } from '../src/index.js'
import { TicketCreateBody } from '../src/schemas/tickets.js'
import { fieldErrors, validate } from '../src/schemas.js'
import { fail, json, setup } from './helpers/fake-api.js'

const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf']

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (error: unknown) => error,
  )
}

describe('a request body with a prototype-named key', () => {
  it.each(PROTO_KEYS)('%s: ValidationError naming the key, nothing sent', async (key) => {
    const { api, sent } = setup(() => json(200, {}))
    // JSON.parse makes an own `__proto__` property, as a body read from a file or a form would.
    const body = JSON.parse(
      `{"subject":"Hi","message":"Hello","department":"technical",${JSON.stringify(key)}:{"x":1}}`,
    )
    const error = await rejection(api.tickets.create(body))
    expect(error).toBeInstanceOf(ValidationError)
    expect(Object.hasOwn((error as ValidationError).fields, key)).toBe(true)
    expect((error as ValidationError).fields[key]).toEqual(['is not a known field'])
    expect((error as ValidationError).message).toContain(`${key}: is not a known field`)
    expect(sent).toHaveLength(0)
  })

  it('a body that is nothing but `__proto__` is refused too (never sent without its body)', async () => {
    const { api, sent } = setup(() => json(200, {}))
    const error = await rejection(api.tickets.create(JSON.parse('{"__proto__":{"subject":"x"}}')))
    expect(error).toBeInstanceOf(ValidationError)
    expect(Object.keys((error as ValidationError).fields).sort()).toEqual(
      ['__proto__', 'department', 'message', 'subject'].sort(),
    )
    expect(sent).toHaveLength(0)
  })

  it('fieldErrors keeps the prototype intact and every key its own', () => {
    const result = validate(TicketCreateBody, JSON.parse('{"__proto__":[],"constructor":1,"toString":2}'))
    expect(result.success).toBe(false)
    if (result.success) return
    expect(Object.getPrototypeOf(result.fields)).toBe(Object.prototype)
    expect(Object.keys(result.fields)).toEqual(
      expect.arrayContaining(['__proto__', 'constructor', 'toString', 'subject']),
    )
    expect(JSON.parse(JSON.stringify(result.fields)).constructor).toEqual(['is not a known field'])
    expect(fieldErrors([])).toEqual({})
  })
})

describe('an answer with prototype-named names', () => {
  it('error.fields.__proto__ of a 422 reaches ValidationError.fields', async () => {
    const { api } = setup(
      () =>
        new Response(
          '{"success":false,"error":{"code":"validation_error","message":"bad","fields":{"__proto__":["is not a known field"],"subject":["is required"]}}}',
          { status: 422, headers: { 'content-type': 'application/json' } },
        ),
      { maxRetries: 0 },
    )
    const error = (await rejection(api.whm.usage())) as ValidationError
    expect(error).toBeInstanceOf(ValidationError)
    expect(Object.hasOwn(error.fields, '__proto__')).toBe(true)
    expect(error.fields.subject).toEqual(['is required'])
    expect(Object.getPrototypeOf(error.fields)).toBe(Object.prototype)
  })

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'a 422 with error.code %s is an UnprocessableEntityError',
    async (code) => {
      const { api } = setup(() => fail(422, code), { maxRetries: 0 })
      const error = await rejection(api.whm.usage())
      expect(error).toBeInstanceOf(UnprocessableEntityError)
      expect((error as UnprocessableEntityError).code).toBe(code)
    },
  )
})
