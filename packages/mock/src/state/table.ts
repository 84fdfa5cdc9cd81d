/**
 * One table of the store: records validated by a storage schema, kept in a map by primary key
 * with the secondary indexes the mock's routes need.
 *
 * The mock checks and writes synchronously (so 20 parallel provisionings against 3 free slots give
 * exactly 3 accounts), and reads by key stay flat from 100 to 100,000 records. So each table keeps:
 *
 * - `rows`: primary key → record, in insertion order (the order snapshots and lists use);
 * - unique indexes (username, lower-cased domain, ticket uuid…) and group indexes (per-reseller
 *   id lists, oldest first, so "newest first" pages are a reversed slice, never a sort).
 *
 * Ad-hoc questions in tests go through `mock.db` (`state/db.ts`), which runs `@msw/data` queries
 * over these very records; there is no second copy of them to keep in sync.
 *
 * Records are mutated only through {@link Table.update}: it validates the result with the storage
 * schema, patches the object in place, moves index entries whose key changed, records an undo step
 * for the surrounding transaction and bumps the record's version, which invalidates cached wire
 * serializations.
 */
import { describeFieldErrors, fieldErrors } from '@reseller-api/sdk/schemas'
import type * as z from 'zod/mini'

/** Primary and index keys. */
export type Key = string | number

/** What a table tells its store about every write. */
export interface TableHost {
  /** Inserted rows are parsed with the storage schema (default); `false` only for already-validated data. */
  readonly validate?: boolean
  /**
   * A write happened: `undo` reverts it if the surrounding transaction fails; `commit` (optional)
   * runs once it has committed (at once outside a transaction).
   */
  wrote(undo: () => void, commit?: () => void): void
}

/** Index definitions of a table. */
export interface TableIndexes<T> {
  /** Unique secondary keys; a key function returning `undefined` leaves the row out of that index. */
  unique?: Record<string, (row: T) => Key | undefined>
  /** Ordered groups (oldest first) of rows sharing a key, e.g. the tickets of one reseller. */
  groups?: Record<string, (row: T) => Key>
}

/** Raised when a write would break the storage schema or a unique key: a bug, answered as a 500. */
export class StoreError extends Error {
  override readonly name = 'StoreError'
}

/** The operations of any table, whatever its row type: for code that handles all tables alike. */
export interface AnyTable {
  readonly name: string
  readonly schema: z.ZodMiniType
  all(): IterableIterator<object>
  readonly size: number
  insert(values: never): object
  /** Adds rows known to be valid, with no validation and no undo (a prepared seed, a checked snapshot). */
  load(rows: readonly object[]): void
  /** Throws {@link StoreError} naming the first primary or unique key that `rows` repeat. */
  checkKeys(rows: readonly object[]): void
  /** For an emptied table: its rows (known to be valid) come from `read()` on its first use. */
  defer(read: () => readonly object[]): void
  /** Reads the rows of a {@link defer}red table now (before their source closes). */
  settle(): void
  clear(): void
}

const versions = new WeakMap<object, number>()

/** Version of a stored record, bumped by every {@link Table.update}; serialization caches key on it. */
export function rowVersion(row: object): number {
  return versions.get(row) ?? 0
}

const EMPTY: readonly never[] = Object.freeze([])

export class Table<S extends z.ZodMiniType<Record<string, unknown>>, T extends z.output<S> = z.output<S>> {
  readonly #rows = new Map<Key, T>()
  readonly #unique = new Map<string, { key: (row: T) => Key | undefined; map: Map<Key, T> }>()
  readonly #groups = new Map<string, { key: (row: T) => Key; map: Map<Key, T[]> }>()
  /** Rows not read yet ({@link defer}): read and indexed by the first method that needs the table. */
  #deferred: (() => readonly T[]) | undefined

  constructor(
    readonly name: string,
    readonly schema: S,
    readonly keyOf: (row: T) => Key,
    readonly host: TableHost,
    indexes: TableIndexes<T> = {},
  ) {
    for (const [index, key] of Object.entries(indexes.unique ?? {})) {
      this.#unique.set(index, { key, map: new Map() })
    }
    for (const [index, key] of Object.entries(indexes.groups ?? {})) {
      this.#groups.set(index, { key, map: new Map() })
    }
  }

  /** Number of rows. */
  get size(): number {
    this.settle()
    return this.#rows.size
  }

  /** The row with this primary key. */
  get(key: Key): T | undefined {
    this.settle()
    return this.#rows.get(key)
  }

  /** The row with this key in a unique index. */
  by(index: string, key: Key): T | undefined {
    this.settle()
    return this.#uniqueIndex(index).map.get(key)
  }

  /** The rows of one group, oldest first. Do not mutate the array. */
  group(index: string, key: Key): readonly T[] {
    this.settle()
    return this.#groupIndex(index).map.get(key) ?? EMPTY
  }

  /** Every row, oldest first. */
  all(): IterableIterator<T> {
    this.settle()
    return this.#rows.values()
  }

  /** Validates `values` with the storage schema and stores them; throws {@link StoreError} on a bad row or key clash. */
  insert(values: T): T {
    this.settle()
    const row = this.host.validate === false ? values : this.#parse(values)
    const key = this.keyOf(row)
    if (this.#rows.has(key)) throw new StoreError(`${this.name}: duplicate key ${JSON.stringify(key)}`)
    for (const [index, { key: keyOf, map }] of this.#unique) {
      const k = keyOf(row)
      if (k !== undefined && map.has(k)) {
        throw new StoreError(`${this.name}: duplicate ${index} ${JSON.stringify(k)}`)
      }
    }
    this.#index(row)
    this.host.wrote(() => this.#remove(row))
    return row
  }

  /**
   * Applies `patch` to `row` in place after validating the result with the storage schema.
   * Returns the same row object.
   */
  update(row: T, patch: Partial<T>): T {
    this.settle()
    if (this.#rows.get(this.keyOf(row)) !== row)
      throw new StoreError(`${this.name}: update of a row not stored`)
    const next = this.#parse({ ...row, ...patch })
    const nextKey = this.keyOf(next)
    if (nextKey !== this.keyOf(row)) throw new StoreError(`${this.name}: the primary key cannot change`)
    for (const [index, { key: keyOf, map }] of this.#unique) {
      const k = keyOf(next)
      if (k !== undefined && k !== keyOf(row) && map.has(k)) {
        throw new StoreError(`${this.name}: duplicate ${index} ${JSON.stringify(k)}`)
      }
    }
    const previous: Partial<T> = {}
    for (const field of Object.keys(patch) as (keyof T)[]) previous[field] = row[field]
    const removedAt = this.#patch(row, next, patch)
    // The undo puts the row back where it stood in the groups it left, not at their end.
    this.host.wrote(() => this.#patch(row, { ...row, ...previous }, previous, removedAt))
    return row
  }

  /** Removes `row`. */
  delete(row: T): void {
    this.settle()
    if (this.#rows.get(this.keyOf(row)) !== row) return
    const positions = this.#remove(row)
    this.host.wrote(() => this.#restore(row, positions))
  }

  /** Removes every row (no undo: used by reset and restore only). */
  clear(): void {
    this.#deferred = undefined
    this.#rows.clear()
    for (const { map } of this.#unique.values()) map.clear()
    for (const { map } of this.#groups.values()) map.clear()
  }

  /**
   * Adds rows known to be valid (a prepared seed's copies, a snapshot already parsed and checked by
   * {@link checkKeys}): no validation, no undo, no change notification. For an emptied table.
   */
  load(rows: readonly T[]): void {
    this.settle()
    for (const row of rows) this.#index(row)
  }

  /**
   * For an emptied table: its rows, known to be valid (a state file the mock wrote), come from
   * `read()` when a method first needs the table, so a start pays nothing for a table the run
   * never touches (`server/standalone-state.ts`).
   */
  defer(read: () => readonly T[]): void {
    this.#deferred = read
  }

  /** Reads and indexes the rows of a {@link defer}red table now; nothing to do otherwise. */
  settle(): void {
    if (!this.#deferred) return
    // A read that throws (a row that is not JSON) leaves the table deferred: every use of it fails
    // the same way, and what the file holds stays as it is.
    const rows = this.#deferred()
    this.#deferred = undefined
    for (const row of rows) this.#index(row)
  }

  /** Throws {@link StoreError} naming the first primary or unique key that `rows` repeat. */
  checkKeys(rows: readonly T[]): void {
    const primary = new Set<Key>()
    const unique = [...this.#unique].map(([index, { key }]) => ({ index, key, seen: new Set<Key>() }))
    for (const row of rows) {
      const key = this.keyOf(row)
      if (primary.has(key)) throw new StoreError(`${this.name}: duplicate key ${JSON.stringify(key)}`)
      primary.add(key)
      for (const { index, key: keyOf, seen } of unique) {
        const k = keyOf(row)
        if (k === undefined) continue
        if (seen.has(k)) throw new StoreError(`${this.name}: duplicate ${index} ${JSON.stringify(k)}`)
        seen.add(k)
      }
    }
  }

  #parse(values: unknown): T {
    const result = this.schema.safeParse(values, { reportInput: true })
    if (!result.success) {
      throw new StoreError(
        `${this.name}: invalid row: ${describeFieldErrors(fieldErrors(result.error.issues))}`,
      )
    }
    return result.data as T
  }

  #uniqueIndex(index: string) {
    const found = this.#unique.get(index)
    if (!found) throw new StoreError(`${this.name}: no unique index ${index}`)
    return found
  }

  #groupIndex(index: string) {
    const found = this.#groups.get(index)
    if (!found) throw new StoreError(`${this.name}: no group index ${index}`)
    return found
  }

  #index(row: T): void {
    this.#rows.set(this.keyOf(row), row)
    for (const { key, map } of this.#unique.values()) {
      const k = key(row)
      if (k !== undefined) map.set(k, row)
    }
    for (const { key, map } of this.#groups.values()) {
      const k = key(row)
      const list = map.get(k)
      if (list) list.push(row)
      else map.set(k, [row])
    }
  }

  /** Drops the row from rows and indexes; returns its group positions for an undo. */
  #remove(row: T): Map<string, number> {
    const positions = new Map<string, number>()
    this.#rows.delete(this.keyOf(row))
    for (const { key, map } of this.#unique.values()) {
      const k = key(row)
      if (k !== undefined && map.get(k) === row) map.delete(k)
    }
    for (const [index, { key, map }] of this.#groups) {
      const k = key(row)
      const list = map.get(k)
      if (!list) continue
      // Retention drops the oldest row of a group: find it at the front without a scan.
      const at = list[0] === row ? 0 : list.lastIndexOf(row)
      if (at !== -1) {
        if (at === 0) list.shift()
        else list.splice(at, 1)
        positions.set(index, at)
      }
      if (list.length === 0) map.delete(k)
    }
    return positions
  }

  /** Puts a removed row back where it was (undo of a delete). */
  #restore(row: T, positions: Map<string, number>): void {
    this.#rows.set(this.keyOf(row), row)
    for (const { key, map } of this.#unique.values()) {
      const k = key(row)
      if (k !== undefined) map.set(k, row)
    }
    for (const [index, { key, map }] of this.#groups) {
      const k = key(row)
      const list = map.get(k) ?? []
      map.set(k, list)
      list.splice(positions.get(index) ?? list.length, 0, row)
    }
  }

  /**
   * Writes `patch` into `row` and moves it between groups whose key changed: appended to its new
   * group, or put at `at` (the undo of an earlier move). Returns where it left each group.
   */
  #patch(
    row: T,
    next: T,
    patch: Partial<T>,
    at?: ReadonlyMap<Map<Key, T[]>, number>,
  ): Map<Map<Key, T[]>, number> {
    const moved: [Map<Key, T>, Key | undefined, Key | undefined][] = []
    for (const { key, map } of this.#unique.values()) {
      const before = key(row)
      const after = key(next)
      if (before !== after) moved.push([map, before, after])
    }
    const regrouped: [Map<Key, T[]>, Key, Key][] = []
    for (const { key, map } of this.#groups.values()) {
      const before = key(row)
      const after = key(next)
      if (before !== after) regrouped.push([map, before, after])
    }
    for (const field of Object.keys(patch) as (keyof T)[]) row[field] = next[field]
    for (const [map, before, after] of moved) {
      if (before !== undefined) map.delete(before)
      if (after !== undefined) map.set(after, row)
    }
    const removedAt = new Map<Map<Key, T[]>, number>()
    for (const [map, before, after] of regrouped) {
      const from = map.get(before)
      if (from) {
        const index = from.lastIndexOf(row)
        if (index !== -1) {
          from.splice(index, 1)
          removedAt.set(map, index)
        }
        if (from.length === 0) map.delete(before)
      }
      const to = map.get(after) ?? []
      map.set(after, to)
      to.splice(at?.get(map) ?? to.length, 0, row)
    }
    versions.set(row, rowVersion(row) + 1)
    return removedAt
  }
}
