/**
 * The quick acceptance of answer leaves (src/core/leaf.ts): it may only accept what zod accepts,
 * and it must recognise the leaves the SDK's answers are made of (else the reader silently runs
 * zod for each of them again).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { leafAcceptor } from '../src/core/leaf.js'
import { Count, Id, TimestampMicros, Uuid } from '../src/schemas/common.js'
import { codePoint } from './helpers/code-points.js'

const uuid = '0b6a1f8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b'
const timestamp = '2026-11-22T10:15:30.123456Z'

/** Values near the edges of every leaf below: right and wrong types, formats, bounds, lengths. */
const values = fc.oneof(
  fc.constantFrom<unknown>(uuid, uuid.toUpperCase(), timestamp, '2026-02-30T10:15:30.123456Z', ''),
  fc.constantFrom<unknown>(0, -1, 1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, null, true, {}),
  fc.string({ maxLength: 12, unit: 'grapheme' }),
  fc.string({ maxLength: 12, unit: codePoint({ loneSurrogates: true }) }),
  fc.integer(),
  fc.double(),
)

const leaves: Record<string, z.ZodMiniType> = {
  Uuid,
  TimestampMicros,
  Id,
  Count,
  string: z.string(),
  number: z.number(),
  bounded: z.string().check(z.minLength(2), z.maxLength(5)),
  pattern: z.string().check(z.regex(/^[a-z]+$/)),
  ranged: z.int().check(z.minimum(-3), z.maximum(7)),
  'uuid with a length check': z.uuid().check(z.maxLength(40)),
}

describe('leafAcceptor', () => {
  it('recognises the leaves of the SDK answers and the common string and number checks', () => {
    for (const [name, schema] of Object.entries(leaves))
      expect(leafAcceptor(schema), name).toBeTypeOf('function')
  })

  it('accepts a value only when zod accepts it unchanged', () => {
    for (const [name, schema] of Object.entries(leaves)) {
      const accept = leafAcceptor(schema) as (value: unknown) => boolean
      fc.assert(
        fc.property(values, (value) => {
          if (!accept(value)) return
          const parsed = schema.safeParse(value)
          expect(parsed.success, `${name} accepted ${String(value)}`).toBe(true)
          expect(parsed.data).toBe(value)
        }),
      )
    }
  })

  it('accepts the well-formed values of the SDK leaves (the quick path is taken)', () => {
    expect(leafAcceptor(Uuid)?.(uuid)).toBe(true)
    expect(leafAcceptor(TimestampMicros)?.(timestamp)).toBe(true)
    expect(leafAcceptor(Id)?.(42)).toBe(true)
    expect(leafAcceptor(Count)?.(0)).toBe(true)
  })

  it('leaves to zod what it does not reproduce: URLs, refinements, coercion, other formats', () => {
    expect(leafAcceptor(z.url())).toBeUndefined()
    expect(leafAcceptor(z.string().check(z.refine((value) => value !== 'x')))).toBeUndefined()
    expect(leafAcceptor(z.coerce.number())).toBeUndefined()
    expect(leafAcceptor(z.int32())).toBeUndefined()
    expect(leafAcceptor(z.base64())).toBeUndefined()
  })
})
