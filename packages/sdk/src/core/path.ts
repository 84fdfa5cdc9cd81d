/**
 * The one place path parameters become URL segments. Every value goes through
 * `encodeURIComponent` (so `/`, `?` and `#` cannot escape their segment), and the values `''`,
 * `'.'` and `'..'` are refused: URL resolution would drop or climb a segment and send the request
 * to another endpoint. So is a value holding a lone surrogate, which has no UTF-8 form
 * (`encodeURIComponent` throws a `URIError` for it). A value of unreserved characters only (an id,
 * a UUID) is the same encoded: it is checked with a loop rather than passed through
 * `encodeURIComponent`, a runtime call.
 */
import type { FieldErrors } from '../schemas/common.js'

/** Outcome of {@link buildPath}: the path, or the failing parameters by name. */
export type PathResult = { success: true; path: string } | { success: false; fields: FieldErrors }

/** Why a value cannot be a path segment. */
interface Refusal {
  readonly message: string
}

// The refusals are constants, and a segment is a bare string: filling a path allocates nothing
// beyond the path itself (it runs on every call of the client).
const EMPTY: Refusal = { message: 'must not be empty' }
const DOT_SEGMENT: Refusal = { message: 'must not be "." or ".."' }
const LONE_SURROGATE: Refusal = { message: 'must be well-formed Unicode: it holds a lone surrogate' }

/**
 * One path segment from a parameter value, or the reason it is refused.
 * `encodeURIComponent` leaves `.` alone, hence the explicit check for dot segments.
 */
export function encodePathSegment(
  value: string | number,
): { success: true; segment: string } | { success: false; message: string } {
  const segment = segmentOf(String(value))
  return typeof segment === 'string'
    ? { success: true, segment }
    : { success: false, message: segment.message }
}

function segmentOf(text: string): string | Refusal {
  if (text === '') return EMPTY
  if (text === '.' || text === '..') return DOT_SEGMENT
  if (unreserved(text)) return text
  try {
    return encodeURIComponent(text)
  } catch {
    // A URIError: half of a UTF-16 pair has no UTF-8 form.
    return LONE_SURROGATE
  }
}

/**
 * Whether `text` holds only URI unreserved characters (RFC 3986 §2.3: letters, digits, `-._~`),
 * which `encodeURIComponent` leaves as they are: ids and UUIDs, the usual parameters, skip the call.
 */
function unreserved(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const letter = (code | 32) >= 97 && (code | 32) <= 122
    const digit = code >= 48 && code <= 57
    if (!letter && !digit && code !== 45 && code !== 46 && code !== 95 && code !== 126) return false
  }
  return true
}

/** Fills the placeholders of one path template; see {@link compilePath}. */
export type PathFiller = (params: Readonly<Record<string, string | number>>) => PathResult

/**
 * Splits `template` at its `{name}` placeholders once, and returns the function that fills them
 * with the encoded values of `params`. A placeholder without a value is a programming error and
 * throws a `TypeError`.
 */
export function compilePath(template: string): PathFiller {
  // ['/webhooks/', 'id', '/test']: text at even indexes, placeholder names at odd ones.
  const parts = template.split(/\{(\w+)\}/)
  return (params) => {
    let path = parts[0] as string
    let fields: FieldErrors | undefined
    for (let i = 1; i < parts.length; i += 2) {
      const name = parts[i] as string
      const value = params[name]
      if (value === undefined) throw new TypeError(`no value for path parameter {${name}} of ${template}`)
      const segment = segmentOf(String(value))
      if (typeof segment === 'string') path += segment
      else fields = { ...fields, [name]: [segment.message] }
      path += parts[i + 1] as string
    }
    return fields === undefined ? { success: true, path } : { success: false, fields }
  }
}

/** Fills `{name}` placeholders of `template` with the encoded values of `params`; see {@link compilePath}. */
export function buildPath(template: string, params: Readonly<Record<string, string | number>>): PathResult {
  return compilePath(template)(params)
}
