/**
 * The state database: SQLite (`node:sqlite`) as the durable copy of one mock's store.
 *
 *     meta(name, value)      format, seed (JSON), counters (JSON), last_micros, clock_offset_ms
 *     rows(tbl, key, json)   one row per stored record, rowid order = the table's insertion order
 *
 * WAL with `synchronous=FULL` (a commit is on disk before it returns), `locking_mode=EXCLUSIVE`
 * (one process per file: the lock is held from {@link StateDatabase.lockForWriting} to close),
 * `application_id` and `user_version` to tell our files from others. An existing file is checked
 * and read on a read-only connection first (`state-schema.ts`, `checkStateDatabase`), so a file
 * refused at start is left byte for byte as it was, its `-wal` included. See
 * `docs/running-the-mock.md`, "State file", and `ARCHITECTURE.md`, "Persistence".
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite'
import type { StoreChange } from '../../state/changes.js'
import type { Key } from '../../state/table.js'
import type { StateFileKind } from './identity.js'
import { createPrivateFile, removeHolder, StateFileError, writeHolder } from './path.js'
import {
  checkStateDatabase,
  createSchema,
  type RecordedSeed,
  ROW_TRIGGERS_SQL,
  ROWS_VALID,
  readRecordedSeed,
  rowsWrittenByMock,
  SEED_DIGEST,
  STATE_FORMAT,
  seedDigest,
} from './schema.js'
import { openError, openForWriting, openReadOnly, type ReadOnlyConnection } from './sqlite.js'

/** What a state database holds, as read at start (rows parsed, not yet validated). */
export interface SavedState {
  /** The recorded seed, read from the file only when needed. */
  seed: RecordedSeed
  counters: unknown
  last_micros: number
  clock_offset_ms: number
  /** The tables that hold rows. */
  tableNames: string[]
  /**
   * Rows as this mock wrote them, each checked by its schema when it was stored (`state-schema.ts`,
   * `rowsWrittenByMock`): `of(table)` reads one table's rows, when the store first needs them.
   * Otherwise every row, parsed, for the store to check by its schema.
   */
  rows:
    | { written: true; of: (table: string) => object[] }
    | { written: false; tables: Record<string, unknown[]> }
}

/** Finds the primary key of a row of a table (the store's tables know it). */
export type KeyOf = (table: string, row: object) => Key

/**
 * One committed transaction of the store, serialized when it committed (the store's rows are live
 * objects: a change waiting for a retry must not see later writes).
 */
export interface SerializedChange {
  /** Per table: `[key, json]` of the rows written (in the order they came), the keys deleted. */
  tables: Record<string, { put: [string, string][]; del: string[] }>
  counters: Record<string, number>
  last_micros: number
  clock_offset_ms: number
}

/** Serializes a change of `store.onCommit` at once. */
export function serializeChange(change: StoreChange, keyOf: KeyOf): SerializedChange {
  const tables: SerializedChange['tables'] = {}
  for (const [name, { put, del }] of Object.entries(change.tables)) {
    tables[name] = {
      put: (put ?? []).map((row) => [String(keyOf(name, row)), JSON.stringify(row)]),
      del: (del ?? []).map(String),
    }
  }
  return {
    tables,
    counters: { ...change.counters },
    last_micros: change.last_micros,
    clock_offset_ms: change.clock_offset_ms,
  }
}

/** The whole state to write at once: a new file, a reset, an adopted seed. */
export interface WholeState {
  tables: Record<string, Iterable<object>>
  counters: Record<string, number>
  last_micros: number
  clock_offset_ms: number
}

/** The statements of a database open for writing. */
interface Writer {
  upsert: StatementSync
  delete: StatementSync
  setMeta: StatementSync
}

/**
 * A state database: read-only until {@link lockForWriting} (an existing file), or open for
 * writing with its lock from the start (a new one).
 */
export class StateDatabase {
  #db: DatabaseSync
  /** The read-only connection an existing file is checked and read on, until it is locked. */
  #inspecting: ReadOnlyConnection | undefined
  #writer: Writer | undefined
  #selectTable: StatementSync
  /** What the mock's transactions write in `meta` (all but the seed) as read: see {@link lockForWriting}. */
  #readMeta: string
  #closed = false

  private constructor(
    readonly path: string,
    connection: { db: DatabaseSync; inspecting?: ReadOnlyConnection },
    /** Holds no state yet: a new file, or one whose first start stopped before its first write. */
    readonly isNew: boolean,
  ) {
    this.#db = connection.db
    this.#inspecting = connection.inspecting
    this.#selectTable = this.#db.prepare('SELECT json FROM rows WHERE tbl = ? ORDER BY rowid')
    this.#readMeta = this.#metaWritten()
    if (!this.#inspecting) this.#writer = this.#prepareWriter()
  }

  /**
   * Opens the database at `path` (resolved, of the `kind` {@link identifyStateFile} found). A new
   * or blank file is created as a state database and locked at once. An existing one is opened
   * read-only and checked: read it, then {@link lockForWriting}. Throws a one-line
   * {@link StateFileError} when another process holds it, or when it is not a sound state database
   * of this mock; nothing was written then, not even a `-wal` checkpoint.
   */
  static open(path: string, kind: StateFileKind): StateDatabase {
    if (kind === 'state') {
      const inspecting = openReadOnly(path)
      try {
        const { empty } = checkStateDatabase(path, inspecting.db)
        return new StateDatabase(path, { db: inspecting.db, inspecting }, empty)
      } catch (error) {
        inspecting.close()
        throw openError(path, error)
      }
    }
    if (kind === 'missing') createPrivateFile(path)
    const db = openForWriting(path)
    try {
      // The tables and the application id in the file's first transaction, before it turns to WAL:
      // the header of the file itself then says whose it is, even after a kill (state-identity.ts).
      createSchema(db)
      db.exec('PRAGMA journal_mode = WAL')
      writeHolder(path)
      return new StateDatabase(path, { db }, true)
    } catch (error) {
      db.close()
      throw openError(path, error)
    }
  }

  /**
   * Takes the file for writing: closes the read-only connection, opens it for writing with the
   * lock, and checks that nothing the mock writes changed since it was read (another process
   * between the two). Throws a one-line {@link StateFileError} when the file is held or changed.
   * Nothing to do for a file opened for writing already.
   */
  lockForWriting(): void {
    const inspecting = this.#inspecting
    if (!inspecting) return
    inspecting.close()
    this.#inspecting = undefined
    // Until the lock is ours there is nothing left to close.
    this.#closed = true
    const db = openForWriting(this.path)
    try {
      this.#db = db
      if (this.#metaWritten() !== this.#readMeta) {
        throw new StateFileError(
          this.path,
          'was changed by another process while this one started; start again',
        )
      }
      db.exec('PRAGMA journal_mode = WAL')
      this.#selectTable = db.prepare('SELECT json FROM rows WHERE tbl = ? ORDER BY rowid')
      this.#writer = this.#prepareWriter()
      writeHolder(this.path)
      this.#closed = false
    } catch (error) {
      db.close()
      throw openError(this.path, error)
    }
  }

  #prepareWriter(): Writer {
    return {
      upsert: this.#db.prepare(
        'INSERT INTO rows(tbl, key, json) VALUES (?, ?, ?) ON CONFLICT(tbl, key) DO UPDATE SET json = excluded.json',
      ),
      delete: this.#db.prepare('DELETE FROM rows WHERE tbl = ? AND key = ?'),
      setMeta: this.#db.prepare(
        'INSERT INTO meta(name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value',
      ),
    }
  }

  /** Every `meta` value but the seed's text, as one string (a transaction of the mock changes one). */
  #metaWritten(): string {
    return JSON.stringify(
      this.#db.prepare("SELECT name, value FROM meta WHERE name <> 'seed' ORDER BY name").all(),
    )
  }

  /** Reads the whole saved state (rows parsed as JSON; the store checks them unless {@link SavedState.rowsWritten}). */
  read(): SavedState {
    const meta = new Map<string, string>()
    for (const { name, value } of this.#db.prepare("SELECT name, value FROM meta WHERE name <> 'seed'").all())
      meta.set(name as string, value as string)
    const fail = (problem: string): never => {
      throw new StateFileError(this.path, `does not hold a valid mock state (${problem})`)
    }
    if (meta.get('format') !== STATE_FORMAT) fail(`meta.format is not "${STATE_FORMAT}"`)
    const number = (name: string) => {
      const value = Number(meta.get(name))
      if (meta.get(name) === undefined || !Number.isFinite(value)) fail(`meta.${name} is not a number`)
      return value
    }
    const seed = readRecordedSeed(() => this.#db) ?? fail('no recorded seed')
    let counters: unknown
    try {
      counters = JSON.parse(meta.get('counters') ?? fail('no counters'))
    } catch {
      fail('meta.counters is not JSON')
    }
    const tableNames = this.#db
      .prepare('SELECT DISTINCT tbl FROM rows')
      .all()
      .map(({ tbl }) => String(tbl))
    return {
      seed,
      counters,
      last_micros: number('last_micros'),
      clock_offset_ms: number('clock_offset_ms'),
      tableNames,
      rows: rowsWrittenByMock(this.#db, meta)
        ? { written: true, of: (table) => this.#readTable(table, (problem) => this.#failAtUse(problem)) }
        : { written: false, tables: this.#readAll(fail) },
    }
  }

  /** Every row, parsed, by table, in rowid order (each table's order): for the store to check. */
  #readAll(fail: (problem: string) => never): Record<string, unknown[]> {
    const tables: Record<string, unknown[]> = {}
    for (const { tbl, json } of this.#db.prepare('SELECT tbl, json FROM rows ORDER BY rowid').iterate()) {
      let rows = tables[tbl as string]
      if (!rows) {
        rows = []
        tables[tbl as string] = rows
      }
      try {
        rows.push(JSON.parse(json as string))
      } catch {
        fail(`the row ${String(tbl)} at rowid ${this.#rowidOf(tbl as string, rows.length)} is not JSON`)
      }
    }
    return tables
  }

  /** One table's rows, parsed, in rowid order: read when the store first needs that table. */
  #readTable(table: string, fail: (problem: string) => never): object[] {
    const rows: object[] = []
    for (const { json } of this.#selectTable.iterate(table)) {
      try {
        rows.push(JSON.parse(json as string))
      } catch {
        fail(`the row ${table} at rowid ${this.#rowidOf(table, rows.length)} is not JSON`)
      }
    }
    return rows
  }

  /** A row found broken when its table is first used (the mock runs; nothing is written). */
  #failAtUse(problem: string): never {
    throw new StateFileError(this.path, `does not hold a valid mock state (${problem})`)
  }

  /**
   * Records that every row is valid (the start checked each one by its schema), with the triggers
   * that clear the mark again when another program changes a row: the next start is a fast one.
   */
  markRowsValid(): void {
    this.#transaction(() => {
      this.#db.exec(ROW_TRIGGERS_SQL)
      this.#write.setMeta.run(ROWS_VALID, '1')
    })
  }

  /** Replaces everything stored with `state` and records `seedJson`, in one transaction. */
  writeAll(state: WholeState, seedJson: string, keyOf: KeyOf): void {
    this.#transaction(() => {
      this.#db.exec('DELETE FROM rows')
      for (const [name, rows] of Object.entries(state.tables)) {
        for (const row of rows) this.#write.upsert.run(name, String(keyOf(name, row)), JSON.stringify(row))
      }
      this.#write.setMeta.run('format', STATE_FORMAT)
      this.#writeSeed(seedJson)
      this.#writeCounters(state)
    })
  }

  /** Writes one committed transaction of the store as one SQLite transaction. */
  writeChange(change: SerializedChange): void {
    this.#transaction(() => {
      for (const [name, { put, del }] of Object.entries(change.tables)) {
        // Deletes first: a key deleted and inserted again gets a new rowid, at the end, as live.
        for (const key of del) this.#write.delete.run(name, key)
        for (const [key, json] of put) this.#write.upsert.run(name, key, json)
      }
      this.#writeCounters(change)
    })
  }

  /** Records the clock's offset (an advance that changed no row). */
  writeClock(offsetMs: number): void {
    this.#transaction(() => this.#write.setMeta.run('clock_offset_ms', String(offsetMs)))
  }

  /** Records the seed `reset` returns to (`--adopt-seed`). */
  writeSeed(seedJson: string): void {
    this.#transaction(() => this.#writeSeed(seedJson))
  }

  /**
   * Checkpoints the WAL into the file, releases the lock and removes the holder file; a file still
   * read-only (refused before it was locked) is closed as it was found.
   */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    if (this.#inspecting) {
      this.#inspecting.close()
      return
    }
    try {
      this.#db.close()
    } finally {
      removeHolder(this.path)
    }
  }

  /** The statements that write, once the file is locked. */
  get #write(): Writer {
    if (!this.#writer) throw new Error(`the state file ${this.path} is not locked for writing`)
    return this.#writer
  }

  /** The rowid of the `index`-th row of `tbl` (for a one-line refusal). */
  #rowidOf(tbl: string, index: number): string {
    const row = this.#db
      .prepare('SELECT rowid FROM rows NOT INDEXED WHERE tbl = ? ORDER BY rowid LIMIT 1 OFFSET ?')
      .get(tbl, index)
    return String(row?.rowid)
  }

  #writeSeed(seedJson: string): void {
    this.#write.setMeta.run('seed', seedJson)
    this.#write.setMeta.run(SEED_DIGEST, seedDigest(seedJson))
  }

  /** Ends every transaction that wrote rows: they come from the store, which checked each one. */
  #writeCounters(state: Pick<WholeState, 'counters' | 'last_micros' | 'clock_offset_ms'>): void {
    this.#write.setMeta.run(ROWS_VALID, '1')
    this.#write.setMeta.run('counters', JSON.stringify(state.counters))
    this.#write.setMeta.run('last_micros', String(state.last_micros))
    this.#write.setMeta.run('clock_offset_ms', String(state.clock_offset_ms))
  }

  #transaction(write: () => void): void {
    if (this.#closed) throw new Error(`the state file ${this.path} is closed`)
    this.#db.exec('BEGIN')
    try {
      write()
      this.#db.exec('COMMIT')
    } catch (error) {
      // A failed COMMIT (a full disk) may have rolled back already.
      try {
        this.#db.exec('ROLLBACK')
      } catch {
        // Nothing left to roll back.
      }
      throw error
    }
  }
}
