/**
 * The one place path parameters become URL segments. Every value goes through
 * `encodeURIComponent` (so `/`, `?` and `#` cannot escape their segment), and the values `''`,
 * `'.'` and `'..'` are refused: URL resolution would drop or climb a segment and send the request
 * to another endpoint.
 */
import type { FieldErrors } from '../schemas/common.js'

/** Outcome of {@link buildPath}: the path, or the failing parameters by name. */
export type PathResult = { success: true; path: string } | { success: false; fields: FieldErrors }

/**
 * One path segment from a parameter value, or the reason it is refused.
 * `encodeURIComponent` leaves `.` alone, hence the explicit check for dot segments.
 */
export function encodePathSegment(
  value: string | number,
): { success: true; segment: string } | { success: false; message: string } {
  const text = String(value)
  if (text === '') return { success: false, message: 'must not be empty' }
  if (text === '.' || text === '..') return { success: false, message: 'must not be "." or ".."' }
  return { success: true, segment: encodeURIComponent(text) }
}

/**
 * Fills `{name}` placeholders of `template` with the encoded values of `params`.
 * A placeholder without a value is a programming error and throws a `TypeError`.
 */
export function buildPath(template: string, params: Readonly<Record<string, string | number>>): PathResult {
  const fields: FieldErrors = {}
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new TypeError(`no value for path parameter {${name}} of ${template}`)
    const encoded = encodePathSegment(value)
    if (encoded.success) return encoded.segment
    fields[name] = [encoded.message]
    return ''
  })
  return Object.keys(fields).length === 0 ? { success: true, path } : { success: false, fields }
}
