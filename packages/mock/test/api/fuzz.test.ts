/**
 * Property-based fuzzing of every route that may read a body:
 * random JSON, prototype-named keys, deep nesting, huge numbers, long strings and wrong types go
 * through `mock.fetch` with a valid live key. Whatever arrives, the mock never answers 5xx, every
 * error answer is the spec's envelope, and an answer that is not 2xx changes nothing stored.
 *
 * The routes come from the route table itself, so a new route is fuzzed without editing this file.
 * fast-check prints the seed and the counterexample path of a failure; replay it with
 * `FUZZ_SEED=<seed>` (and `FUZZ_PATH=<path>`).
 */
import { ErrorBody } from '@reseller-api/sdk/schemas'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { routes } from '../../src/handlers/index.js'
import type { MockApi } from '../../src/node.js'
import { KEYS, newMock, testSeed } from '../helpers/mock.js'

const WEBHOOK_ID = 'wh_fuzz'
const TICKET_UUID_PLACEHOLDER = ':ticket'

/** A value for each path parameter that names an existing resource, so bodies reach their checks. */
function paramValue(name: string, mock: MockApi): string {
  switch (name) {
    case 'username':
    case 'cpanel_username':
      return 'existing'
    case 'client_id':
      return '501'
    case 'name':
      return 'starter'
    case 'uuid':
    case 'ticket_uuid': {
      const ticket = mock.state().tables.tickets?.find((t) => t.reseller_id === 1)
      return String(ticket?.uuid ?? TICKET_UUID_PLACEHOLDER)
    }
    case 'id':
      return WEBHOOK_ID
    case 'delivery_id':
      return String(mock.state().tables.deliveries?.[0]?.delivery_id ?? 'dlv_none')
    default:
      // A new route with a parameter this file does not know: say so rather than fuzz a 404.
      throw new Error(`fuzz.test.ts: no value for the path parameter :${name}; add one to paramValue()`)
  }
}

function seed() {
  const s = testSeed()
  const first = s.resellers[0] as { webhooks?: unknown[] }
  first.webhooks = [{ id: WEBHOOK_ID, url: 'https://hooks.example.com/in', events: ['ticket.created'] }]
  return s
}

const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
]
/** Field names of the API's bodies: random objects built from them reach nested checks. */
const FIELD_KEYS = [
  'subject',
  'message',
  'department',
  'priority',
  'url',
  'events',
  'event',
  'data',
  'match',
  'respond',
  'status',
  'reseller_id',
  'style',
  'domain',
  'username',
  'client_id',
  'package',
  'name',
  'quota',
  'seconds',
  'times',
  'internal',
]

const hugeNumber = fc.constantFrom(
  '1e308',
  '-1e308',
  '1e400',
  '-1e400',
  '9007199254740993',
  '123456789012345678901234567890',
  '-0',
  '5e-324',
  '0.1e-400',
)
const longString = fc.integer({ min: 1_000, max: 200_000 }).map((n) => JSON.stringify('x'.repeat(n)))
/** A value as raw JSON text: JSON.parse then makes own `__proto__` keys, as a client's body would. */
const rawValue: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    hugeNumber,
    longString,
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(fc.constantFrom(...PROTO_KEYS, ...FIELD_KEYS), tie('value')), { maxLength: 5 })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value

/** Nesting far deeper than any body: arrays and objects, alone or under a known field. */
const deep = fc
  .tuple(
    fc.integer({ min: 1_000, max: 6_000 }),
    fc.constantFrom('array', 'object'),
    fc.constantFrom(...FIELD_KEYS),
  )
  .chain(([depth, kind, field]) => {
    const inner =
      kind === 'array'
        ? `${'['.repeat(depth)}${']'.repeat(depth)}`
        : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
    return fc.constantFrom(inner, `{${JSON.stringify(field)}:${inner}}`, `{"__proto__":${inner}}`)
  })

const body: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: rawValue },
  { weight: 1, arbitrary: deep },
  // Not JSON at all.
  { weight: 1, arbitrary: fc.string({ maxLength: 50 }) },
)

/** Routes whose method may carry a body, from the route table. */
const bodyRoutes = routes.filter((r) => r.method !== 'GET')

const params: fc.Parameters<[string]> = {
  numRuns: Number(process.env.FUZZ_RUNS ?? 40),
  seed: process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED),
  path: process.env.FUZZ_PATH,
  endOnFailure: true,
}

describe('fuzz: every route with a body takes hostile JSON without a 5xx or a change', () => {
  const mock = newMock(seed())

  test.each(bodyRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_, route) => {
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        mock.reset()
        const path = route.path.replace(/:([a-z_]+)/g, (_m, name: string) =>
          encodeURIComponent(paramValue(name, mock)),
        )
        const before = mock.state()
        const faultsBefore = mock.faults.list().length
        const response = await mock.fetch(`${mock.baseUrl}${path}`, {
          method: route.method,
          headers: { authorization: `Bearer ${KEYS.a}`, 'content-type': 'application/json' },
          body: text,
        })
        const answer = await response.text()
        expect(response.status, answer.slice(0, 300)).toBeLessThan(500)
        if (response.status >= 300) {
          expect(ErrorBody.safeParse(JSON.parse(answer)).success, answer.slice(0, 300)).toBe(true)
          expect(mock.state()).toEqual(before)
          expect(mock.faults.list().length).toBe(faultsBefore)
        }
        // Whatever was sent, the journal and the state can still be listed.
        const journal = await mock.fetch(`${mock.baseUrl}/__mock/requests`)
        expect(journal.status, (await journal.text()).slice(0, 300)).toBe(200)
        expect(JSON.stringify(mock.state()).length).toBeGreaterThan(0)
      }),
      params,
    )
  })

  test.each([
    [
      'POST',
      '/__mock/events',
      (deep: string) => `{"reseller_id":1,"event":"service.activated","data":{"x":${deep}}}`,
    ],
    ['POST', '/__mock/faults', (deep: string) => `{"respond":{"status":503},"match":${deep}}`],
    [
      'POST',
      '/api/v1/support/tickets',
      (deep: string) => `{"subject":"s","message":"m","department":"technical","x":${deep}}`,
    ],
  ] as const)(
    '%s %s: a body nested 65 to 400,000 levels deep is 422 naming the rule; 64 levels reach the schema',
    async (method, path, wrap) => {
      for (const depth of [65, 5_000, 400_000]) {
        mock.reset()
        const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`
        const response = await mock.fetch(`${mock.baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${KEYS.a}`, 'content-type': 'application/json' },
          body: wrap(deep),
        })
        const answer = await response.json()
        expect(response.status).toBe(422)
        expect(answer.error.fields).toEqual({
          body: ['must not nest arrays and objects more than 64 levels deep'],
        })
        expect((await mock.fetch(`${mock.baseUrl}/__mock/requests`)).status).toBe(200)
      }
      // Within the limit (the wrappers use up to 3 levels) the schema itself answers, whatever it says.
      const response = await mock.fetch(`${mock.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${KEYS.a}`, 'content-type': 'application/json' },
        body: wrap(`${'['.repeat(61)}${']'.repeat(61)}`),
      })
      expect(response.status).toBeLessThan(500)
      expect((await response.json()).error?.fields?.body).toBeUndefined()
    },
  )

  test('the fuzz covers every body route of the table, the newest included', () => {
    const reading = bodyRoutes.map((r) => `${r.method} ${r.path}`)
    expect(reading).toContain('POST /api/v1/support/tickets')
    expect(reading).toContain('POST /__mock/faults')
    expect(reading).toContain('PUT /api/v1/reseller/webhook')
  })
})
