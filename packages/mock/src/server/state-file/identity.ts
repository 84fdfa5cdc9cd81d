/**
 * What `--state FILE` holds, told from its bytes before SQLite opens it: nothing yet, a blank
 * database (an empty file, as `touch` and `mktemp` make, or an SQLite file with no table), a state
 * database of this mock, or something else, refused. SQLite never opens another application's
 * database in place: even a read-only open may rewrite its `-shm`, and a read-write one folds its
 * `-wal` into it on close. See `docs/running-the-mock.md`, "State file".
 */
import {
  closeSync,
  copyFileSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { StateFileError } from './path.js'
import { STATE_APPLICATION_ID } from './schema.js'
import { loadSqlite } from './sqlite.js'

/** What a path holds: nothing yet, a database with nothing in it, or a state database of this mock. */
export type StateFileKind = 'missing' | 'blank' | 'state'

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = 'SQLite format 3\0'
/** Offsets in the database header (sqlite.org/fileformat.html, "The Database Header"). */
const APPLICATION_ID_AT = 68
/** Page 1's b-tree header follows the 100-byte database header: its type, and its cell count at +3. */
const PAGE_ONE_AT = 100
const LEAF_TABLE_PAGE = 0x0d
/** A `-wal` larger than this is not copied to tell what its database is (see {@link identifyStateFile}). */
const MAX_PROBED_WAL = 256 * 1024 * 1024

const otherApplication = (path: string) =>
  new StateFileError(path, 'is an SQLite database of another application, not a state file of this mock')

/** The first bytes of `path`, or what it is when it is no file to read: missing, empty, refused. */
function readHead(path: string): Buffer | 'missing' | 'empty' {
  try {
    const stats = lstatSync(path)
    if (stats.isDirectory()) throw new StateFileError(path, 'is a directory; give --state a file name')
    if (!stats.isFile()) throw new StateFileError(path, 'is not a regular file')
    if (stats.size === 0) return 'empty'
    const fd = openSync(path, 'r')
    try {
      const head = Buffer.alloc(Math.min(stats.size, 4096))
      readSync(fd, head, 0, head.length, 0)
      return head
    } finally {
      closeSync(fd)
    }
  } catch (error) {
    if (error instanceof StateFileError) throw error
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing'
    throw new StateFileError(path, `cannot be read (${(error as Error).message})`, { cause: error })
  }
}

/** Size of `path`'s `-wal` file: 0 when there is none (the database was closed cleanly). */
function walSize(path: string): number {
  try {
    return statSync(`${path}-wal`).size
  } catch {
    return 0
  }
}

/**
 * The application id and the number of schema objects of the database and its `-wal` together,
 * read from private copies of both (the originals are never opened), or `undefined` when SQLite
 * cannot read the copies.
 */
function probeCopy(path: string): { applicationId: number; objects: number } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'reseller-mock-probe-'))
  try {
    const copy = join(dir, 'probe.db')
    copyFileSync(path, copy)
    copyFileSync(`${path}-wal`, `${copy}-wal`)
    const db = new (loadSqlite().DatabaseSync)(copy)
    try {
      const applicationId = Number(db.prepare('PRAGMA application_id').get()?.application_id)
      const objects = Number(db.prepare('SELECT count(*) AS n FROM sqlite_schema').get()?.n)
      return { applicationId, objects }
    } finally {
      db.close()
    }
  } catch {
    return undefined
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Tells what `path` (resolved) holds, refusing what is no state database of this mock, without
 * changing a byte of it or of its `-wal` and `-shm` files.
 *
 * The header's `application_id` decides: this mock's id is a state file (the mock writes it in the
 * same first transaction as its tables, before the file turns to WAL); another id, or no id with
 * tables on page 1, is another application's. A file without an id whose page 1 holds no table is
 * blank, unless its `-wal` holds changes not yet in the file: then copies of the two tell.
 */
export function identifyStateFile(path: string): StateFileKind {
  const head = readHead(path)
  if (head === 'missing') return 'missing'
  if (head === 'empty') return 'blank'
  if (head.toString('latin1', 0, SQLITE_HEADER.length) !== SQLITE_HEADER) {
    const text = head.toString('utf8').trimStart()
    if (text.startsWith('{') && text.includes('"reseller-mock-state"')) {
      throw new StateFileError(
        path,
        'is a state file in the JSON-lines format of earlier releases, which this mock no longer reads; move it away to start a new SQLite state file from your seed, or keep running it with the release that wrote it',
      )
    }
    throw new StateFileError(path, 'is not an SQLite database, so not a state file of this mock')
  }
  if (head.length < PAGE_ONE_AT + 8) {
    throw new StateFileError(path, 'is damaged or not an SQLite database (the file ends inside its header)')
  }
  const applicationId = head.readUInt32BE(APPLICATION_ID_AT)
  if (applicationId === STATE_APPLICATION_ID) return 'state'
  if (applicationId !== 0) throw otherApplication(path)
  const noTable = head[PAGE_ONE_AT] === LEAF_TABLE_PAGE && head.readUInt16BE(PAGE_ONE_AT + 3) === 0
  if (!noTable) throw otherApplication(path)
  const wal = walSize(path)
  if (wal === 0) return 'blank'
  // Tables created in WAL mode and never checkpointed: only the `-wal` knows whose they are.
  if (wal > MAX_PROBED_WAL) throw otherApplication(path)
  const probed = probeCopy(path)
  if (probed?.applicationId === STATE_APPLICATION_ID) return 'state'
  if (probed?.applicationId === 0 && probed.objects === 0) return 'blank'
  throw otherApplication(path)
}
