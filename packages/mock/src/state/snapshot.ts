/**
 * The whole state of a store as plain JSON ({@link StoreSnapshot}): what `store.snapshot()` gives,
 * `store.restore()` takes, `mock.state()` shows and the state file's snapshot line holds.
 */
import { type AnyTable, StoreError } from './table.js'

/** Format marker of a {@link StoreSnapshot}. */
export const SNAPSHOT_FORMAT = 'reseller-mock-store'
/** Layout version of a {@link StoreSnapshot}. */
export const SNAPSHOT_VERSION = 1

/** The whole state as plain JSON: every table's rows (oldest first), the id counters, the clock offset. */
export interface StoreSnapshot {
  format: typeof SNAPSHOT_FORMAT
  version: typeof SNAPSHOT_VERSION
  tables: Record<string, unknown[]>
  counters: Record<string, number>
  /** The last timestamp handed out, in microseconds since the epoch: timestamps keep increasing after a restore. */
  last_micros: number
  /** How far mock time ran ahead of real time when the snapshot was taken (restored if the clock allows). */
  clock_offset_ms: number
}

/** Every table's rows, oldest first: deep copies, or the live rows with `copy: false`. */
export function tableRows(tables: Record<string, AnyTable>, copy: boolean): Record<string, unknown[]> {
  const rows: Record<string, unknown[]> = {}
  for (const [name, table] of Object.entries(tables)) {
    const all = Array.from(table.all())
    rows[name] = copy ? structuredClone(all) : all
  }
  return rows
}

/** Options of `store.restore`. */
export interface RestoreOptions {
  /**
   * The rows are not in the snapshot (its `tables` is empty): each table reads its rows from
   * `deferredRows(name)` on its first use. They are as this mock's store wrote them, each checked by
   * its schema then (a state file that says so: `server/state-schema.ts`), so they are not checked
   * again; the snapshot's counters and times are.
   */
  deferredRows?: (table: string) => readonly object[]
}

/**
 * Checks a snapshot and parses every row with its table's schema, keys included, before anything is
 * replaced: a bad snapshot throws a {@link StoreError} and changes nothing. Returns the parsed rows.
 */
export function parseSnapshot(
  tables: Record<string, AnyTable>,
  input: unknown,
  options: RestoreOptions = {},
): { snapshot: StoreSnapshot; rows: Record<string, object[]> } {
  const snapshot = checkSnapshot(input)
  if (options.deferredRows) return { snapshot, rows: {} }
  const rows: Record<string, object[]> = {}
  for (const [name, table] of Object.entries(tables)) {
    rows[name] = (snapshot.tables[name] ?? []).map((row, i) => {
      const result = table.schema.safeParse(row)
      if (!result.success) throw new StoreError(`snapshot: tables.${name}[${i}] is not a valid row`)
      return result.data as object
    })
    table.checkKeys(rows[name])
  }
  return { snapshot, rows }
}

function checkSnapshot(input: unknown): StoreSnapshot {
  const fail = (problem: string): never => {
    throw new StoreError(`not a store snapshot: ${problem}`)
  }
  if (typeof input !== 'object' || input === null) return fail('not an object')
  const s = input as Partial<StoreSnapshot>
  if (s.format !== SNAPSHOT_FORMAT) fail(`format must be "${SNAPSHOT_FORMAT}"`)
  if (s.version !== SNAPSHOT_VERSION) fail(`version must be ${SNAPSHOT_VERSION}`)
  if (typeof s.tables !== 'object' || s.tables === null) fail('tables must be an object')
  for (const [name, rows] of Object.entries(s.tables ?? {})) {
    if (!Array.isArray(rows)) fail(`tables.${name} must be an array`)
  }
  if (typeof s.counters !== 'object' || s.counters === null) fail('counters must be an object')
  for (const [name, value] of Object.entries(s.counters ?? {})) {
    if (!Number.isSafeInteger(value) || value < 0) fail(`counters.${name} must be a whole number`)
  }
  if (typeof s.last_micros !== 'number' || !Number.isFinite(s.last_micros))
    fail('last_micros must be a number')
  if (typeof s.clock_offset_ms !== 'number' || !Number.isFinite(s.clock_offset_ms)) {
    fail('clock_offset_ms must be a number')
  }
  return s as StoreSnapshot
}
