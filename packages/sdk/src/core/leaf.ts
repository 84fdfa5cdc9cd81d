/**
 * Quick acceptance of an answer's leaves. Most leaves of an answer are strings, UUIDs, timestamps
 * and integers with a bound; running zod for each costs more than the request around it on a long
 * page. For those schemas this module derives, once, a plain predicate that is true only when zod
 * would accept the value unchanged. It never rejects on its own: the reader hands a value it does
 * not accept to zod, which decides and words the issue (docs/errors-and-retries.md, "Answers from
 * a newer service").
 *
 * It recognises a schema only when every zod class in it is listed below, so a class that changes
 * how a value is checked (a URL, a refinement, a coercion) falls back to zod.
 */
import type * as z from 'zod/mini'

/** True when zod accepts `value` as is; false means "ask zod". */
export type Accept = (value: unknown) => boolean

interface LeafDef {
  readonly type: string
  readonly coerce?: boolean
  readonly format?: string
  readonly pattern?: RegExp
  readonly check?: string
  readonly checks?: readonly z.core.$ZodCheck[]
  readonly minimum?: number
  readonly maximum?: number
  readonly value?: unknown
  readonly inclusive?: boolean
}

/** zod's classes whose check is exactly "a string matching `def.pattern`". */
const PATTERN_FORMATS = ['$ZodUUID', '$ZodGUID', '$ZodISODateTime', '$ZodISODate', '$ZodISOTime', '$ZodEmail']
/** zod's classes whose checks this module reproduces (or leaves to the ones above). */
const KNOWN = new Set([
  '$ZodType',
  '$ZodString',
  '$ZodStringFormat',
  '$ZodNumber',
  '$ZodNumberFormat',
  '$ZodCheck',
  '$ZodCheckStringFormat',
  '$ZodCheckRegex',
  '$ZodCheckNumberFormat',
  '$ZodCheckMinLength',
  '$ZodCheckMaxLength',
  '$ZodCheckGreaterThan',
  '$ZodCheckLessThan',
  ...PATTERN_FORMATS,
])

/** Every core class of `node` is known (`ZodMini…` classes only add methods). */
function isKnown(node: { _zod: object }): boolean {
  // zod records each class of an instance in `traits`; its types declare it on schemas only.
  const traits = (node._zod as { traits?: Set<string> }).traits
  if (!traits) return false
  for (const trait of traits) if (trait.startsWith('$') && !KNOWN.has(trait)) return false
  return true
}

/** The predicate of one check, or `undefined` when it is not one this module reproduces. */
function checkOf(check: z.core.$ZodCheck): Accept | undefined {
  if (!isKnown(check)) return undefined
  const def = check._zod.def as LeafDef
  const { minimum, maximum, value, inclusive } = def
  switch (def.check) {
    case 'string_format': {
      const pattern = def.pattern
      if (def.format !== 'regex' || !(pattern instanceof RegExp)) return undefined
      return (v) => {
        pattern.lastIndex = 0
        return pattern.test(v as string)
      }
    }
    // zod counts code points; a string's UTF-16 length bounds that count from both sides.
    case 'min_length':
      return typeof minimum === 'number' ? (v) => (v as string).length >= minimum * 2 : undefined
    case 'max_length':
      return typeof maximum === 'number' ? (v) => (v as string).length <= maximum : undefined
    case 'greater_than':
      if (typeof value !== 'number') return undefined
      return inclusive ? (v) => (v as number) >= value : (v) => (v as number) > value
    case 'less_than':
      if (typeof value !== 'number') return undefined
      return inclusive ? (v) => (v as number) <= value : (v) => (v as number) < value
    default:
      return undefined
  }
}

/** The base test of a string or number schema (its type and, for a format, its pattern or range). */
function baseOf(schema: z.ZodMiniType, def: LeafDef): Accept | undefined {
  const traits = schema._zod.traits
  if (def.type === 'string') {
    const pattern = def.pattern
    if (def.format === undefined) return (v) => typeof v === 'string'
    if (!PATTERN_FORMATS.some((name) => traits.has(name)) || !(pattern instanceof RegExp)) return undefined
    return (v) => {
      if (typeof v !== 'string') return false
      pattern.lastIndex = 0
      return pattern.test(v)
    }
  }
  if (def.type === 'number') {
    if (def.format === undefined) return (v) => typeof v === 'number' && Number.isFinite(v)
    if (def.format === 'safeint') return (v) => Number.isSafeInteger(v)
  }
  return undefined
}

/**
 * A predicate true only for values `schema` accepts unchanged, or `undefined` when the schema is
 * not a string or number leaf built from the classes above.
 */
export function leafAcceptor(schema: z.ZodMiniType): Accept | undefined {
  const def = schema._zod.def as LeafDef
  if (def.coerce || !isKnown(schema)) return undefined
  const base = baseOf(schema, def)
  if (!base) return undefined
  const tests: Accept[] = []
  for (const check of def.checks ?? []) {
    const test = checkOf(check)
    if (!test) return undefined
    tests.push(test)
  }
  if (tests.length === 0) return base
  return (v) => {
    if (!base(v)) return false
    for (const test of tests) if (!test(v)) return false
    return true
  }
}
