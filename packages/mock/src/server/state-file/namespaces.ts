/**
 * The namespaces' part of the state file: the same SQLite database as the root mock's state, two
 * more tables keyed by the namespace's id (docs/running-the-mock.md, "State file"):
 *
 *     namespaces(id, record, expires_at, state)   one per namespace: what it was made from (JSON), its
 *                                                 expiry (ms), its counters, last timestamp and clock
 *     namespace_rows(ns, tbl, key, json)          its stored records, as `rows` holds the root's
 *
 * A namespace's creation (its record and every row of its seed) is one transaction, each committed
 * transaction of its store is one (through a {@link StateSync} of its own), and its deletion is one.
 * Its expiry is written ahead of the real one (see {@link NamespaceFile.renewed}), so that a restart
 * never drops a namespace that had not expired. Files of earlier releases get the tables at the
 * first start that locks them.
 */
import type { StatementSync } from 'node:sqlite'
import type { Clock } from '../../state/clock.js'
import type { Store } from '../../state/store.js'
import type { KeyOf, SerializedChange, StateDatabase, WholeState } from './database.js'
import { keyOfStore, StateSync, type SyncTarget, wholeStateOf } from './sync.js'

/** What a namespace was made from, and its expiry, as the registry keeps them. */
export interface NamespaceRecord {
  id: string
  label: string | null
  ttlSeconds: number
  createdAtMs: number
  expiresAtMs: number
  randomSeed: string | number
  /** Its own seed's JSON; `null`: the server's seed. */
  seedJson: string | null
}

/** A namespace as the file keeps it: its entry and its state, rows parsed, for the store to check. */
export interface SavedNamespace {
  entry: NamespaceRecord
  counters: unknown
  last_micros: number
  clock_offset_ms: number
  tables: Record<string, unknown[]>
}

const TABLES_SQL = `
  CREATE TABLE IF NOT EXISTS namespaces (id TEXT PRIMARY KEY, record TEXT NOT NULL, expires_at INTEGER NOT NULL, state TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS namespace_rows (ns TEXT NOT NULL, tbl TEXT NOT NULL, key TEXT NOT NULL, json TEXT NOT NULL, UNIQUE (ns, tbl, key));`

/** The counters, last timestamp and clock of a namespace's store (the root's are in `meta`). */
interface StoreState {
  counters: Record<string, number>
  last_micros: number
  clock_offset_ms: number
}

interface Statements {
  upsert: StatementSync
  deleteRow: StatementSync
  deleteRows: StatementSync
  insert: StatementSync
  setState: StatementSync
  setExpiry: StatementSync
  remove: StatementSync
}

/** The namespaces of a state file: read at start, written at every change of any of them. */
export class NamespaceFile {
  readonly #db: StateDatabase
  readonly #warn: (line: string) => void
  readonly #sql: Statements
  /** Per namespace: its sync, and the expiry the file holds. */
  readonly #open = new Map<string, { sync: StateSync; savedExpiry: number }>()

  /** Takes the namespaces' tables of a locked state database (made here for a file without them). */
  constructor(db: StateDatabase, warn: (line: string) => void) {
    this.#db = db
    this.#warn = warn
    const connection = db.connection
    if (!hasTables(db)) db.transaction(() => connection.exec(TABLES_SQL))
    const prepare = (sql: string) => connection.prepare(sql)
    this.#sql = {
      upsert: prepare(
        'INSERT INTO namespace_rows(ns, tbl, key, json) VALUES (?, ?, ?, ?) ON CONFLICT(ns, tbl, key) DO UPDATE SET json = excluded.json',
      ),
      deleteRow: prepare('DELETE FROM namespace_rows WHERE ns = ? AND tbl = ? AND key = ?'),
      deleteRows: prepare('DELETE FROM namespace_rows WHERE ns = ?'),
      insert: prepare('INSERT INTO namespaces(id, record, expires_at, state) VALUES (?, ?, ?, ?)'),
      setState: prepare('UPDATE namespaces SET state = ? WHERE id = ?'),
      setExpiry: prepare('UPDATE namespaces SET expires_at = ? WHERE id = ?'),
      remove: prepare('DELETE FROM namespaces WHERE id = ?'),
    }
  }

  /** Every namespace the file keeps, oldest first, rows parsed (not yet checked). Throws on one that is not JSON. */
  read(): SavedNamespace[] {
    const connection = this.#db.connection
    const rows = connection.prepare('SELECT tbl, json FROM namespace_rows WHERE ns = ? ORDER BY rowid')
    const out: SavedNamespace[] = []
    for (const row of connection
      .prepare('SELECT id, record, expires_at, state FROM namespaces ORDER BY rowid')
      .all()) {
      const id = String(row.id)
      const record = JSON.parse(String(row.record)) as Omit<NamespaceRecord, 'id' | 'expiresAtMs'>
      const state = JSON.parse(String(row.state)) as StoreState
      const tables: Record<string, unknown[]> = {}
      for (const { tbl, json } of rows.iterate(id)) {
        const name = String(tbl)
        tables[name] ??= []
        tables[name].push(JSON.parse(String(json)))
      }
      out.push({ entry: { ...record, id, expiresAtMs: Number(row.expires_at) }, ...state, tables })
    }
    return out
  }

  /**
   * Writes a new namespace, its record and its whole state, as one transaction; then follows its
   * store's commits. Throws (and keeps nothing) when the write fails.
   */
  created(entry: NamespaceRecord, store: Store, clock: Clock): void {
    const target = new NamespaceTarget(this.#db, this.#sql, entry.id)
    const savedExpiry = entry.expiresAtMs + entry.ttlSeconds * 1000
    this.#db.transaction(() => {
      const { id, expiresAtMs: _, ...record } = entry
      this.#sql.insert.run(id, JSON.stringify(record), savedExpiry, '{}')
      target.writeRows(wholeStateOf(store), keyOfStore(store))
    })
    this.#follow(entry.id, target, store, clock, savedExpiry)
  }

  /** Follows the commits of a namespace read back at start (nothing is written). */
  restored(saved: SavedNamespace, store: Store, clock: Clock): void {
    const { entry } = saved
    const target = new NamespaceTarget(this.#db, this.#sql, entry.id, saved as StoreState)
    this.#follow(entry.id, target, store, clock, entry.expiresAtMs)
  }

  #follow(id: string, target: NamespaceTarget, store: Store, clock: Clock, savedExpiry: number): void {
    this.#open.set(id, { sync: new StateSync(target, store, clock, () => 'null'), savedExpiry })
  }

  /** Makes the namespace's changes durable (`context.durable` of its mock). */
  durable(id: string): Promise<void> | undefined {
    return this.#open.get(id)?.sync.durable()
  }

  /**
   * A request renewed the namespace: once its expiry passes the one the file holds, the file gets
   * one a whole ttl further, so a namespace in use costs one write per ttl. A failed write is
   * tried again at the next request (the file's expiry still leads the one it had).
   */
  renewed(entry: NamespaceRecord): void {
    const open = this.#open.get(entry.id)
    if (!open || entry.expiresAtMs <= open.savedExpiry) return
    const ahead = entry.expiresAtMs + entry.ttlSeconds * 1000
    try {
      this.#db.transaction(() => this.#sql.setExpiry.run(ahead, entry.id))
      open.savedExpiry = ahead
    } catch (error) {
      this.#warn(
        `reseller-mock: could not save the expiry of namespace ${entry.id}: ${(error as Error).message}`,
      )
    }
  }

  /** Removes a namespace's record and rows in one transaction. Throws when the write fails. */
  deleted(id: string): void {
    this.#db.transaction(() => {
      this.#sql.deleteRows.run(id)
      this.#sql.remove.run(id)
    })
    const open = this.#open.get(id)
    this.#open.delete(id)
    open?.sync.close(this.#warn, { settle: false })
  }

  /** Stops following every namespace (the server stops); their last writes are tried once more. */
  close(): void {
    for (const { sync } of this.#open.values()) sync.close(this.#warn, { settle: false })
    this.#open.clear()
  }
}

/** Whether the file has the namespaces' tables (a file of an earlier release has not). */
function hasTables(db: StateDatabase): boolean {
  return (
    db.connection
      .prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name = 'namespaces'")
      .get()?.n === 1
  )
}

/** One namespace's part of the file, written as {@link StateSync} writes the root's. */
class NamespaceTarget implements SyncTarget {
  readonly path: string
  /** What the file holds of the store's counters, last timestamp and clock. */
  #state: StoreState

  constructor(
    readonly db: StateDatabase,
    readonly sql: Statements,
    readonly id: string,
    saved: StoreState = { counters: {}, last_micros: 0, clock_offset_ms: 0 },
  ) {
    this.path = db.path
    this.#state = {
      counters: saved.counters,
      last_micros: saved.last_micros,
      clock_offset_ms: saved.clock_offset_ms,
    }
  }

  /** Inside a transaction: every row replaced by `state`'s, and the counters. */
  writeRows(state: WholeState, keyOf: KeyOf): void {
    this.sql.deleteRows.run(this.id)
    for (const [name, rows] of Object.entries(state.tables))
      for (const row of rows)
        this.sql.upsert.run(this.id, name, String(keyOf(name, row)), JSON.stringify(row))
    this.#setState(state)
  }

  writeChange(change: SerializedChange): void {
    this.db.transaction(() => {
      for (const [name, { put, del }] of Object.entries(change.tables)) {
        // Deletes first: a key deleted and inserted again gets a new rowid, at the end, as live.
        for (const key of del) this.sql.deleteRow.run(this.id, name, key)
        for (const [key, json] of put) this.sql.upsert.run(this.id, name, key, json)
      }
      this.#setState(change)
    })
  }

  writeAll(state: WholeState, _seedJson: string, keyOf: KeyOf): void {
    this.db.transaction(() => this.writeRows(state, keyOf))
  }

  writeClock(offsetMs: number): void {
    this.db.transaction(() => this.#setState({ ...this.#state, clock_offset_ms: offsetMs }))
  }

  /** The database is the root's: it closes with the server. */
  close(): void {}

  #setState(state: StoreState): void {
    this.#state = {
      counters: state.counters,
      last_micros: state.last_micros,
      clock_offset_ms: state.clock_offset_ms,
    }
    this.sql.setState.run(JSON.stringify(this.#state), this.id)
  }
}
