/**
 * Change capture for the durable state file: which rows a committed transaction touched, as a
 * record that can be replayed on load (`Store.applyChange`). Kept apart from the tables: it wraps
 * their public write methods, so the tables' internals can change freely.
 */
import type { AnyTable, Key } from './table.js'

/** What one committed transaction changed, as plain JSON (a record of the state file's log). */
export interface StoreChange {
  /** Per table: the rows inserted or updated (their whole value after the commit), the keys deleted. */
  tables: Record<string, { put?: object[]; del?: Key[] }>
  /** Every id counter after the commit. */
  counters: Record<string, number>
  /** The last timestamp handed out, in microseconds since the epoch. */
  last_micros: number
  /** The clock's offset from real time after the commit. */
  clock_offset_ms: number
}

/**
 * Receives each committed change at once, synchronously, in commit order. `'replaced'` means the
 * whole state was replaced (a reset, a restore): only a new snapshot describes it. The rows of a
 * change are the live records: serialize them before returning, keep nothing.
 *
 * A listener may refuse a change whose transaction is `refusable` (a request's: its answer has not
 * left yet) by throwing: the store then undoes the transaction, as if it had thrown itself, and
 * rethrows, so an error answer means nothing changed. It must not throw otherwise.
 */
export type CommitListener = (change: StoreChange | 'replaced', commit: CommitInfo) => void

/** How a change was committed; see {@link CommitListener}. */
export interface CommitInfo {
  /** Whether a listener may refuse it by throwing (the store then undoes it). */
  refusable: boolean
}

/** The write methods of a table that change capture needs; every {@link Table} has them. */
interface WritableTable extends AnyTable {
  keyOf(row: object): Key
  get(key: Key): object | undefined
  update(row: object, patch: object): object
  delete(row: object): void
}

/**
 * Records the keys each write touches, until the store takes them at commit (or drops them on a
 * rollback), in the order replay must insert new rows. A key deleted and inserted again in one
 * transaction is replayed as a delete then an insert, placed where the insert came, so the row
 * moves to the end as it did live.
 */
export class ChangeTracker {
  /** Per table, key → whether it was deleted before being written again in this transaction. */
  readonly #dirty = new Map<WritableTable, Map<Key, boolean>>()
  /** Off while nobody listens: writes then cost nothing extra. */
  active = false

  /**
   * Wraps the table's `insert`, `update` and `delete` so each runs inside `transact` (a write outside
   * any transaction becomes one of its own, so it is captured like the others) and marks its key.
   */
  watch(table: AnyTable, transact: <R>(fn: () => R) => R): void {
    const t = table as WritableTable
    const insert = t.insert.bind(t)
    const update = t.update.bind(t)
    const remove = t.delete.bind(t)
    // While nobody listens, the original methods run as they are.
    t.insert = ((values: never) =>
      !this.active
        ? insert(values)
        : transact(() => {
            const row = insert(values)
            this.#mark(t, t.keyOf(row), 'insert')
            return row
          })) as typeof t.insert
    t.update = (row, patch) =>
      !this.active
        ? update(row, patch)
        : transact(() => {
            const result = update(row, patch)
            this.#mark(t, t.keyOf(row), 'update')
            return result
          })
    t.delete = (row) =>
      !this.active
        ? remove(row)
        : transact(() => {
            const stored = t.get(t.keyOf(row)) === row
            remove(row)
            if (stored) this.#mark(t, t.keyOf(row), 'delete')
          })
  }

  #mark(table: WritableTable, key: Key, write: 'insert' | 'update' | 'delete'): void {
    if (!this.active) return
    let keys = this.#dirty.get(table)
    if (!keys) {
      keys = new Map()
      this.#dirty.set(table, keys)
    }
    const had = keys.get(key)
    if (write === 'insert' && had !== undefined) {
      // Inserted again after a delete in this transaction: replayed as delete + insert, and placed
      // after the rows inserted in between, as it is live.
      keys.delete(key)
      keys.set(key, true)
    } else keys.set(key, write === 'delete' || had === true)
  }

  /** The rows touched since the last call, as they are now; forgets them. */
  take(): StoreChange['tables'] {
    const tables: StoreChange['tables'] = {}
    for (const [table, keys] of this.#dirty) {
      const put: object[] = []
      const del: Key[] = []
      for (const [key, deleted] of keys) {
        const row = table.get(key)
        if (deleted || !row) del.push(key)
        if (row) put.push(row)
      }
      tables[table.name] = {
        ...(put.length > 0 ? { put } : {}),
        ...(del.length > 0 ? { del } : {}),
      }
    }
    this.#dirty.clear()
    return tables
  }

  /** Forgets the touched keys (a rolled-back transaction). */
  discard(): void {
    // Most transactions (every read) touch nothing: V8's `Map#clear` allocates a new table each time.
    if (this.#dirty.size > 0) this.#dirty.clear()
  }
}

/**
 * Applies the table part of a change: deletes first, then puts in order (an existing key is updated
 * in place, keeping its position; a new one is inserted at the end). Every row is validated by the
 * table; call it inside a transaction so that a bad record changes nothing.
 */
export function applyTableChanges(tables: Record<string, AnyTable>, change: StoreChange['tables']): void {
  for (const [name, { put, del }] of Object.entries(change)) {
    if (!Object.hasOwn(tables, name)) throw new Error(`unknown table "${name}"`)
    const table = tables[name] as WritableTable
    for (const key of del ?? []) {
      const row = table.get(key)
      if (row) table.delete(row)
    }
    for (const value of put ?? []) {
      if (typeof value !== 'object' || value === null) throw new Error(`${name}: a row must be an object`)
      const existing = table.get(table.keyOf(value))
      if (!existing) {
        table.insert(value as never)
        continue
      }
      // A field the new value lacks was removed: patch it to undefined.
      const patch: Record<string, unknown> = { ...value }
      for (const field of Object.keys(existing)) if (!Object.hasOwn(value, field)) patch[field] = undefined
      table.update(existing, patch)
    }
  }
}
