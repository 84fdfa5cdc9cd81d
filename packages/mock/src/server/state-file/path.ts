/**
 * What `--state FILE` names, before SQLite opens it: symbolic links resolved (the database and its
 * `-wal` file live beside the target, which keeps receiving every change), the file of a new state,
 * and the holder file that names the process holding the lock (`state-identity.ts` tells what an
 * existing file holds).
 * See `docs/running-the-mock.md`, "State file".
 */
import {
  accessSync,
  closeSync,
  constants,
  lstatSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { hostname } from 'node:os'
import { dirname } from 'node:path'

/** A state file that cannot be used: the message is one line that names the file and what to do. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError'
  constructor(
    readonly path: string,
    problem: string,
    options?: ErrorOptions & {
      /** The file stays as it was (the default); `false` when the problem is that it cannot be written. */
      untouched?: boolean
    },
  ) {
    // One line, whatever the cause says (SQLite's integrity check answers in several).
    const line = problem.replace(/\s*\n\s*/g, '; ')
    super(
      `state file ${path}: ${line}${options?.untouched === false ? '' : '; the file was left untouched'}`,
      options,
    )
  }
}

/**
 * Resolves `path` to the file that will hold the state: a symbolic link is followed to its target
 * (written through; a link to nothing is refused, so the state never lands beside the link).
 */
export function resolveStatePath(path: string): string {
  let link: ReturnType<typeof lstatSync> | undefined
  try {
    link = lstatSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return path
    throw new StateFileError(path, `cannot be read (${(error as Error).message})`, { cause: error })
  }
  if (!link.isSymbolicLink()) return path
  try {
    return realpathSync(path)
  } catch (error) {
    throw new StateFileError(
      path,
      `is a symbolic link to a file that cannot be reached (${(error as NodeJS.ErrnoException).code}); point it at an existing file or directory, or give --state the real path`,
      { cause: error },
    )
  }
}

/** Creates the file of a new state: private, since it will hold every key and webhook secret (SQLite's `-wal` copies its mode). */
export function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return
    throw new StateFileError(path, `cannot be created (${refusal(error)})`, {
      cause: error,
      untouched: false,
    })
  }
}

/** Why a write was refused, in words: `read-only file system`, `permission denied`. */
function refusal(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException
  if (code === 'EROFS') return 'read-only file system'
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  return message
}

/**
 * Refuses an existing state file this process may not write, or whose directory it may not write
 * (SQLite keeps its `-wal` file beside it), in words: SQLite itself only says `disk I/O error`.
 */
export function assertWritable(path: string): void {
  for (const [target, what] of [
    [path, 'cannot be written'],
    [
      dirname(path),
      `cannot be written: its directory ${dirname(path)} (where SQLite keeps the -wal file) is not writable`,
    ],
  ] as const) {
    try {
      accessSync(target, constants.W_OK)
    } catch (error) {
      throw new StateFileError(
        path,
        `${what} (${refusal(error)}); give --state a file this process may write`,
        { cause: error },
      )
    }
  }
}

/** Removes a state file this process created, with the files SQLite and the lock put beside it. */
export function removeCreated(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`, holderPath(path)]) rmSync(file, { force: true })
}

/** Who holds a state file: written beside it (`<file>-lock`) once the database lock is taken. */
export interface StateHolder {
  pid: number
  host: string
  /** When it took the lock, ISO 8601 (real time). */
  since: string
}

/** The holder file of the database at `path`. */
export function holderPath(path: string): string {
  return `${path}-lock`
}

/** Records this process as the holder of `path` (called once the lock is ours). */
export function writeHolder(path: string): void {
  const holder: StateHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() }
  writeFileSync(holderPath(path), `${JSON.stringify(holder)}\n`, { mode: 0o600 })
}

/** Removes the holder file if it still names this process (a clean stop). */
export function removeHolder(path: string): void {
  const holder = readHolder(path)
  if (holder?.pid === process.pid && holder.host === hostname()) rmSync(holderPath(path), { force: true })
}

/** Describes the process holding `path`, for the refusal of a second one. */
export function describeHolder(path: string): string {
  const holder = readHolder(path)
  if (!holder) return 'another process (it left no holder file)'
  const where = holder.host === hostname() ? '' : ` on host ${holder.host}`
  return `process ${holder.pid}${where} (since ${holder.since})`
}

function readHolder(path: string): StateHolder | undefined {
  try {
    const value = JSON.parse(readFileSync(holderPath(path), 'utf8')) as Partial<StateHolder>
    if (typeof value.pid !== 'number' || typeof value.host !== 'string') return undefined
    return { pid: value.pid, host: value.host, since: String(value.since ?? 'unknown') }
  } catch {
    return undefined
  }
}
