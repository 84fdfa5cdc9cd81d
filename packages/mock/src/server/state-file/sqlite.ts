/**
 * The two ways the standalone mock opens a state database with `node:sqlite`:
 *
 * - to inspect it, read-only, before anything may write: no checkpoint, no lock file, no byte of
 *   the database or its `-wal` changed, whatever is found (a refused file stays as it was);
 * - to write it, with the exclusive lock held from the first transaction to `close()`.
 *
 * See `docs/running-the-mock.md`, "State file", and `ARCHITECTURE.md`, "Persistence".
 */
import { existsSync, rmSync, statSync } from 'node:fs'
import type { DatabaseSync } from 'node:sqlite'
import { pathToFileURL } from 'node:url'
import { describeHolder, StateFileError } from './path.js'

/** SQLite's primary result codes this module tells apart. */
const SQLITE_BUSY = 5
const SQLITE_READONLY = 8
const SQLITE_CORRUPT = 11
const SQLITE_CANTOPEN = 14
const SQLITE_NOTADB = 26

let sqlite: typeof import('node:sqlite') | undefined

/**
 * `node:sqlite`, loaded on first use: only a mock with a state file needs it. Node 22 still marks it
 * experimental and warns once on load; that warning is not the mock's output, so it is left out.
 */
export function loadSqlite(): typeof import('node:sqlite') {
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

/** The refusal of a database that another process holds (its lock). */
function inUse(path: string, cause: unknown): StateFileError {
  return new StateFileError(
    path,
    `is in use by ${describeHolder(path)}; stop it first, or give --state another file`,
    { cause },
  )
}

/** An SQLite error at open or at a check, as one line. */
export function openError(path: string, error: unknown): StateFileError {
  if (error instanceof StateFileError) return error
  const code = sqliteCode(error)
  const reason = (error as Error).message
  if (code === SQLITE_BUSY) return inUse(path, error)
  if (code === SQLITE_NOTADB || code === SQLITE_CORRUPT)
    return new StateFileError(path, `is damaged or not an SQLite database (${reason})`, { cause: error })
  if (code === SQLITE_CANTOPEN || code === SQLITE_READONLY)
    return new StateFileError(path, `cannot be opened for writing (${reason})`, { cause: error })
  return new StateFileError(path, `cannot be used (${reason})`, { cause: error })
}

/** A read-only connection, and how to end it without leaving anything behind. */
export interface ReadOnlyConnection {
  db: DatabaseSync
  close(): void
}

/**
 * Opens `path` read-only, to look before writing. With no changes waiting in a `-wal` file (the
 * file was closed cleanly), as `immutable`: SQLite reads the database file alone, takes no lock and
 * creates nothing. Otherwise (a process was killed, or holds it now) the `-wal` must be read too:
 * plain read-only, which never checkpoints but maps a `-shm` file; the one it creates (the mock's
 * own files have none) is removed on close. A holder's exclusive lock makes any read `SQLITE_BUSY`.
 */
export function openReadOnly(path: string): ReadOnlyConnection {
  const wal = `${path}-wal`
  const shm = `${path}-shm`
  const pending = existsSync(wal) && statSync(wal).size > 0
  const hadShm = existsSync(shm)
  const url = pathToFileURL(path)
  url.searchParams.set(pending ? 'mode' : 'immutable', pending ? 'ro' : '1')
  const cleanUp = () => {
    if (pending && !hadShm) rmSync(shm, { force: true })
  }
  let db: DatabaseSync
  try {
    db = new (loadSqlite().DatabaseSync)(url, { readOnly: true })
  } catch (error) {
    cleanUp()
    throw openError(path, error)
  }
  return {
    db,
    close() {
      try {
        db.close()
      } finally {
        cleanUp()
      }
    },
  }
}

/**
 * Opens `path` for writing and takes its exclusive lock (WAL in `locking_mode=EXCLUSIVE`: no
 * `-shm` file, nobody else reads or writes it until `close()`). Throws a one-line
 * {@link StateFileError} naming the holder when another process has it.
 */
export function openForWriting(path: string): DatabaseSync {
  let db: DatabaseSync
  try {
    db = new (loadSqlite().DatabaseSync)(path)
  } catch (error) {
    throw openError(path, error)
  }
  try {
    // Before the first access: the lock is then held from the first transaction to `close()`.
    db.exec('PRAGMA locking_mode = EXCLUSIVE')
    db.exec('PRAGMA synchronous = FULL')
    db.exec('BEGIN EXCLUSIVE')
    db.exec('COMMIT')
    return db
  } catch (error) {
    db.close()
    throw openError(path, error)
  }
}
