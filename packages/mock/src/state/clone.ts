/**
 * Copies and freezes of stored rows. Rows hold JSON data only (strings, numbers, booleans, null,
 * arrays and plain objects), so a copy is a walk of own fields: far cheaper than `structuredClone`
 * for the flat rows of the store, and it shares nothing mutable with the original.
 */

/** A deep copy of a JSON-data row or value. */
export function cloneRow<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map(cloneRow) as T
  const copy: Record<string, unknown> = {}
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key]
    copy[key] = typeof field === 'object' && field !== null ? cloneRow(field) : field
  }
  return copy as T
}

/** Freezes `value` and every array and object inside it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value
  for (const field of Object.values(value)) deepFreeze(field)
  return Object.freeze(value)
}
