/**
 * The state database: SQLite (`node:sqlite`) as the durable copy of one mock's store.
 *
 *     meta(name, value)      format, seed (JSON), counters (JSON), last_micros, clock_offset_ms
 *     rows(tbl, key, json)   one row per stored record, rowid order = the table's insertion order
 *
 * WAL with `synchronous=FULL` (a commit is on disk before it returns), `locking_mode=EXCLUSIVE`
 * (one process per file: the lock is taken at open and held until close), `application_id` and
 * `user_version` to tell our files from others, `quick_check` at open (`state-schema.ts`). See
 * `docs/running-the-mock.md`, "State file", and `ARCHITECTURE.md`, "Persistence".
 */
import { closeSync, openSync } from 'node:fs'
import type { DatabaseSync, StatementSync } from 'node:sqlite'
import type { StoreChange } from '../state/changes.js'
import type { Key } from '../state/table.js'
import {
  describeHolder,
  removeHolder,
  StateFileError,
  type StateFileKind,
  writeHolder,
} from './state-path.js'
import {
  checkIdentity,
  createSchema,
  type RecordedSeed,
  ROW_TRIGGERS_SQL,
  ROWS_VALID,
  readRecordedSeed,
  rowsWrittenByMock,
  SEED_DIGEST,
  STATE_FORMAT,
  seedDigest,
} from './state-schema.js'

/** SQLite's primary result codes this module tells apart. */
const SQLITE_BUSY = 5
const SQLITE_READONLY = 8
const SQLITE_CORRUPT = 11
const SQLITE_CANTOPEN = 14
const SQLITE_NOTADB = 26

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

let sqlite: typeof import('node:sqlite') | undefined

/**
 * `node:sqlite`, loaded on first use: only a mock with a state file needs it. Node 22 still marks it
 * experimental and warns once on load; that warning is not the mock's output, so it is left out.
 */
function loadSqlite(): typeof import('node:sqlite') {
  if (sqlite) return sqlite
  const emitWarning = process.emitWarning
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message
    if (!/SQLite/i.test(text)) (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest)
  }) as typeof process.emitWarning
  try {
    sqlite = process.getBuiltinModule('node:sqlite')
  } finally {
    process.emitWarning = emitWarning
  }
  return sqlite
}

function sqliteCode(error: unknown): number | undefined {
  const code = (error as { errcode?: unknown }).errcode
  return typeof code === 'number' ? code & 0xff : undefined
}

/** An open, locked state database. */
export class StateDatabase {
  readonly #db: DatabaseSync
  readonly #upsert: StatementSync
  readonly #delete: StatementSync
  readonly #setMeta: StatementSync
  readonly #selectTable: StatementSync
  #closed = false

  private constructor(
    readonly path: string,
    db: DatabaseSync,
    /** Created by this open (no state in it yet). */
    readonly isNew: boolean,
  ) {
    this.#db = db
    this.#upsert = db.prepare(
      'INSERT INTO rows(tbl, key, json) VALUES (?, ?, ?) ON CONFLICT(tbl, key) DO UPDATE SET json = excluded.json',
    )
    this.#delete = db.prepare('DELETE FROM rows WHERE tbl = ? AND key = ?')
    this.#selectTable = db.prepare('SELECT json FROM rows WHERE tbl = ? ORDER BY rowid')
    this.#setMeta = db.prepare(
      'INSERT INTO meta(name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value',
    )
  }

  /**
   * Opens (or creates) the database at `path` (resolved, of the `kind` {@link sniffStateFile}
   * found), takes its lock and checks it; throws a one-line {@link StateFileError} when another
   * process holds it, or when it is not a sound state database of this mock (then nothing was written).
   */
  static open(path: string, kind: StateFileKind): StateDatabase {
    if (kind === 'missing') createPrivateFile(path)
    let db: DatabaseSync
    try {
      db = new (loadSqlite().DatabaseSync)(path)
    } catch (error) {
      throw openError(path, error)
    }
    try {
      // Before the first access: the lock is then held from the first transaction to `close()`, and
      // WAL needs no shared-memory file (no other process may read it anyway).
      db.exec('PRAGMA locking_mode = EXCLUSIVE')
      try {
        db.exec('BEGIN EXCLUSIVE')
        db.exec('COMMIT')
      } catch (error) {
        if (sqliteCode(error) === SQLITE_BUSY) {
          throw new StateFileError(
            path,
            `is in use by ${describeHolder(path)}; stop it first, or give --state another file`,
            { cause: error },
          )
        }
        throw error
      }
      const isNew = checkIdentity(path, db)
      db.exec('PRAGMA journal_mode = WAL')
      db.exec('PRAGMA synchronous = FULL')
      if (isNew) createSchema(db)
      writeHolder(path)
      return new StateDatabase(path, db, isNew)
    } catch (error) {
      db.close()
      if (error instanceof StateFileError) throw error
      throw openError(path, error)
    }
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
    const seed = readRecordedSeed(this.#db) ?? fail('no recorded seed')
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
      this.#setMeta.run(ROWS_VALID, '1')
    })
  }

  /** Replaces everything stored with `state` and records `seedJson`, in one transaction. */
  writeAll(state: WholeState, seedJson: string, keyOf: KeyOf): void {
    this.#transaction(() => {
      this.#db.exec('DELETE FROM rows')
      for (const [name, rows] of Object.entries(state.tables)) {
        for (const row of rows) this.#upsert.run(name, String(keyOf(name, row)), JSON.stringify(row))
      }
      this.#setMeta.run('format', STATE_FORMAT)
      this.#writeSeed(seedJson)
      this.#writeCounters(state)
    })
  }

  /** Writes one committed transaction of the store as one SQLite transaction. */
  writeChange(change: SerializedChange): void {
    this.#transaction(() => {
      for (const [name, { put, del }] of Object.entries(change.tables)) {
        // Deletes first: a key deleted and inserted again gets a new rowid, at the end, as live.
        for (const key of del) this.#delete.run(name, key)
        for (const [key, json] of put) this.#upsert.run(name, key, json)
      }
      this.#writeCounters(change)
    })
  }

  /** Records the clock's offset (an advance that changed no row). */
  writeClock(offsetMs: number): void {
    this.#transaction(() => this.#setMeta.run('clock_offset_ms', String(offsetMs)))
  }

  /** Records the seed `reset` returns to (`--adopt-seed`). */
  writeSeed(seedJson: string): void {
    this.#transaction(() => this.#writeSeed(seedJson))
  }

  /** Checkpoints the WAL into the file, releases the lock and removes the holder file. */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    try {
      this.#db.close()
    } finally {
      removeHolder(this.path)
    }
  }

  /** The rowid of the `index`-th row of `tbl` (for a one-line refusal). */
  #rowidOf(tbl: string, index: number): string {
    const row = this.#db
      .prepare('SELECT rowid FROM rows NOT INDEXED WHERE tbl = ? ORDER BY rowid LIMIT 1 OFFSET ?')
      .get(tbl, index)
    return String(row?.rowid)
  }

  #writeSeed(seedJson: string): void {
    this.#setMeta.run('seed', seedJson)
    this.#setMeta.run(SEED_DIGEST, seedDigest(seedJson))
  }

  /** Ends every transaction that wrote rows: they come from the store, which checked each one. */
  #writeCounters(state: Pick<WholeState, 'counters' | 'last_micros' | 'clock_offset_ms'>): void {
    this.#setMeta.run(ROWS_VALID, '1')
    this.#setMeta.run('counters', JSON.stringify(state.counters))
    this.#setMeta.run('last_micros', String(state.last_micros))
    this.#setMeta.run('clock_offset_ms', String(state.clock_offset_ms))
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

/** A new state file is private: it holds every key and webhook secret. SQLite's -wal file copies its mode. */
function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return
    throw new StateFileError(path, `cannot be created (${(error as Error).message})`, {
      cause: error,
      untouched: false,
    })
  }
}

/** An SQLite error at open, as one line. */
function openError(path: string, error: unknown): StateFileError {
  const code = sqliteCode(error)
  const reason = (error as Error).message
  if (code === SQLITE_NOTADB || code === SQLITE_CORRUPT)
    return new StateFileError(path, `is damaged or not an SQLite database (${reason})`, { cause: error })
  if (code === SQLITE_CANTOPEN || code === SQLITE_READONLY)
    return new StateFileError(path, `cannot be opened for writing (${reason})`, { cause: error })
  return new StateFileError(path, `cannot be used (${reason})`, { cause: error })
}
