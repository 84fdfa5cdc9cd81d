/**
 * Copies and freezes of stored rows. Rows hold JSON data only (strings, numbers, booleans, null,
 * arrays and plain objects), so a copy is a walk of own fields: far cheaper than `structuredClone`
 * for the flat rows of the store, and it shares nothing mutable with the original.
 */

/** A deep copy of a JSON-data row or value. */
export function cloneRow<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map(cloneRow) as T
  // Spread copies the row's shape in one step (compact, fast); nested values are copied after.
  const copy = { ...value } as Record<string, unknown>
  for (const key in copy) {
    const field = copy[key]
    if (typeof field === 'object' && field !== null) copy[key] = cloneRow(field)
  }
  return copy as T
}

/** Freezes `value` and every array and object inside it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value
  for (const field of Object.values(value)) deepFreeze(field)
  return Object.freeze(value)
}
