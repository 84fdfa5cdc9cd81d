import { randomBytes } from 'node:crypto'
import { open, readFile, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** Marks a JSON file as a state file of this mock. */
export const STATE_FORMAT = 'reseller-mock-state'
/** Version of the state file layout; a file of another version is refused. */
export const STATE_VERSION = 1

/**
 * What a state file holds: the whole store snapshot (every table, including the delivery records
 * whose `next_attempt_at` are the pending retries, the id counters and the clock's offset).
 */
export interface StateDocument {
  format: typeof STATE_FORMAT
  version: typeof STATE_VERSION
  /** Real time of the write, ISO 8601; informative only. */
  saved_at: string
  /** The store snapshot; validated by the store's `restore()`. */
  state: unknown
}

/** A state file that cannot be used: unreadable, not JSON, or not a state file of this mock. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError'
  constructor(
    readonly path: string,
    problem: string,
    options?: ErrorOptions,
  ) {
    super(`state file ${path}: ${problem}; the file was left untouched`, options)
  }
}

/**
 * Reads a state file. Resolves `undefined` when the file does not exist (start from the seed);
 * rejects with {@link StateFileError} when it exists but cannot be used.
 */
export async function readStateFile(path: string): Promise<StateDocument | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new StateFileError(path, `cannot be read (${(error as Error).message})`, { cause: error })
  }
  if (text.trim() === '') throw new StateFileError(path, 'is empty')
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new StateFileError(path, `is not valid JSON (${(error as Error).message})`, { cause: error })
  }
  return checkStateDocument(path, parsed)
}

function checkStateDocument(path: string, value: unknown): StateDocument {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StateFileError(path, 'is not a JSON object')
  }
  const doc = value as Record<string, unknown>
  if (doc.format !== STATE_FORMAT) {
    throw new StateFileError(path, `is not a reseller-mock state file (expected "format": "${STATE_FORMAT}")`)
  }
  if (doc.version !== STATE_VERSION) {
    throw new StateFileError(
      path,
      `has version ${JSON.stringify(doc.version)}; this mock reads version ${STATE_VERSION}`,
    )
  }
  if (typeof doc.state !== 'object' || doc.state === null) {
    throw new StateFileError(path, '"state" must be an object')
  }
  return doc as unknown as StateDocument
}

/** Writes `text` to `path` atomically: a temp file in the same directory, fsync, rename, fsync of the directory. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const dir = dirname(path)
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  let renamed = false
  try {
    const handle = await open(temp, 'wx', 0o600)
    try {
      await handle.writeFile(text, 'utf8')
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, path)
    renamed = true
    await syncDirectory(dir)
  } finally {
    if (!renamed) await rm(temp, { force: true }).catch(() => {})
  }
}

/** Makes a rename durable across a power loss; some platforms (Windows) cannot open a directory, which is fine. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // Not supported here; the rename itself is still atomic.
  } finally {
    await handle?.close().catch(() => {})
  }
}

/** Writes snapshots of the mock to one state file, one write at a time. */
export interface StateFileWriter {
  readonly path: string
  /**
   * Resolves once a write that started after this call has reached the disk, so the state as it is
   * now is durable. Calls made while a write runs share the next write (the latest state covers them all).
   */
  save(): Promise<void>
  /** Whether a write is running or queued. */
  readonly busy: boolean
  /** Resolves once no write is running or queued (never rejects). */
  flush(): Promise<void>
}

/**
 * Creates a {@link StateFileWriter}. `snapshot` is called when a write starts, so a write always
 * holds the latest state; writes never interleave.
 */
export function createStateFileWriter(path: string, snapshot: () => StateDocument): StateFileWriter {
  let running: Promise<void> | undefined
  let queued: Promise<void> | undefined

  const start = (): Promise<void> => {
    const write = (async () => writeFileAtomic(path, `${JSON.stringify(snapshot())}\n`))()
    // `running` never rejects: the caller of `save()` gets the error through `write`.
    const tracked: Promise<void> = write.then(
      () => {
        if (running === tracked) running = undefined
      },
      () => {
        if (running === tracked) running = undefined
      },
    )
    running = tracked
    return write
  }

  return {
    path,
    get busy() {
      return running !== undefined || queued !== undefined
    },
    async flush() {
      while (running || queued) await (queued ?? running)?.catch(() => {})
    },
    save() {
      if (queued) return queued
      if (!running) return start()
      const next = running.then(() => {
        queued = undefined
        return start()
      })
      queued = next
      return next
    },
  }
}
