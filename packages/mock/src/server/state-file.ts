/**
 * The state file: a snapshot followed by an append-only log of committed changes.
 *
 * Layout (version 2), UTF-8, one item per line:
 *
 *     {"format":"reseller-mock-state","version":2,"saved_at":…,"seed":…,"state":{…snapshot…}}
 *     <byte-length> <crc32> <json change record>
 *     …
 *
 * A write appends one record per committed transaction and fsyncs (group commit: records that
 * arrive while an fsync runs share the next one), so its cost does not grow with the state. When
 * the log outgrows the snapshot, a new file (the current state as its snapshot) replaces it by
 * temp file + fsync + rename, while appends go on. Version 1 files (one JSON document, no log)
 * still load; the first write migrates them. See `docs/running-the-mock.md`, "State file".
 */
import { randomBytes } from 'node:crypto'
import { open, readdir, readFile, rename, rm, truncate } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { crc32 } from 'node:zlib'

/** Marks a JSON file as a state file of this mock. */
export const STATE_FORMAT = 'reseller-mock-state'
/** Version of the state file layout written; version 1 files are still read. */
export const STATE_VERSION = 2

/** The first line of a state file: what it is, the seed it was created from, the snapshot. */
export interface StateDocument {
  format: typeof STATE_FORMAT
  version: typeof STATE_VERSION
  /** Mock time (the clock, offset included) of the snapshot, ISO 8601; informative only. */
  saved_at: string
  /** The seed the state was created from (`reset` returns to it); `null`: the built-in demo seed. */
  seed: unknown
  /** The store snapshot; validated by the store's `restore()`. */
  state: unknown
}

/** A state file as read: the snapshot, the change records to replay over it, and what was dropped. */
export interface LoadedStateFile {
  /** 1: today's migrated-on-first-write format; 2: snapshot + log. */
  version: 1 | 2
  /** The recorded seed (`null`: the demo seed); `undefined` for a version 1 file, which records none. */
  seed: unknown
  state: unknown
  /** The log's change records, oldest first. */
  records: unknown[]
  /** Bytes of the first line (snapshot) and of the good records after it. */
  snapshotBytes: number
  logBytes: number
  /** Set when a torn or corrupt last record was dropped: why; the file should be cut to `snapshotBytes + logBytes`. */
  dropped?: string
}

/** A state file that cannot be used: unreadable, not a state file of this mock, or corrupt before its end. */
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

const NEWLINE = 0x0a

/** Encodes one change record as a log line: `<byte-length> <crc32> <json>\n`. */
export function encodeRecord(record: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(record), 'utf8')
  return Buffer.concat([Buffer.from(`${json.length} ${crc32(json)} `), json, Buffer.from('\n')])
}

/** Decodes one log line (without its newline); `ok: false` and the problem when its length, checksum or JSON is wrong. */
function decodeRecord(line: Buffer): { ok: true; value: unknown } | { ok: false; problem: string } {
  const first = line.indexOf(0x20)
  const second = first === -1 ? -1 : line.indexOf(0x20, first + 1)
  if (second === -1) return { ok: false, problem: 'no length and checksum' }
  const length = line.toString('latin1', 0, first)
  const sum = line.toString('latin1', first + 1, second)
  if (!/^\d{1,12}$/.test(length) || !/^\d{1,10}$/.test(sum))
    return { ok: false, problem: 'bad length or checksum field' }
  const json = line.subarray(second + 1)
  if (json.length !== Number(length))
    return { ok: false, problem: `length ${json.length} instead of ${length}` }
  if (crc32(json) !== Number(sum)) return { ok: false, problem: 'checksum mismatch' }
  try {
    return { ok: true, value: JSON.parse(json.toString('utf8')) }
  } catch {
    return { ok: false, problem: 'not JSON' }
  }
}

/**
 * Reads a state file. Resolves `undefined` when the file does not exist (start from the seed);
 * rejects with {@link StateFileError} when it exists but cannot be used. A torn or corrupt last
 * record is reported in `dropped`, never returned as data; a bad record before the end is an error.
 */
export async function readStateFile(path: string): Promise<LoadedStateFile | undefined> {
  let bytes: Buffer
  try {
    bytes = await readFile(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new StateFileError(path, `cannot be read (${(error as Error).message})`, { cause: error })
  }
  const end = bytes.indexOf(NEWLINE)
  const headText = bytes.toString('utf8', 0, end === -1 ? bytes.length : end)
  // Only a blank first line can start a blank file: no need to decode the whole file to tell.
  if (headText.trim() === '' && bytes.toString('utf8').trim() === '')
    throw new StateFileError(path, 'is empty')
  let head: unknown
  try {
    head = JSON.parse(headText)
  } catch (error) {
    // A version 1 file may have been pretty-printed by hand: one JSON document over several lines.
    try {
      head = JSON.parse(bytes.toString('utf8'))
    } catch {
      throw new StateFileError(path, `is not valid JSON (${(error as Error).message})`, { cause: error })
    }
    return fromDocument(path, head, bytes.length, 0, [])
  }
  const snapshotBytes = end === -1 ? bytes.length : end + 1
  // The first line says what the file is: a file of another kind is named as such, not as corrupt records.
  const loaded = fromDocument(path, head, snapshotBytes, 0, [])
  if (loaded.version === 1) {
    if (bytes.subarray(snapshotBytes).toString('utf8').trim() !== '') {
      throw new StateFileError(path, 'is a version 1 file with data after its document')
    }
    return loaded
  }
  const { records } = loaded
  let at = snapshotBytes
  let dropped: string | undefined
  while (at < bytes.length) {
    const next = bytes.indexOf(NEWLINE, at)
    if (next === -1) {
      dropped = `its last record is cut short (${bytes.length - at} bytes without an end)`
      break
    }
    const decoded = decodeRecord(bytes.subarray(at, next))
    if (!decoded.ok) {
      if (next + 1 === bytes.length) {
        dropped = `its last record is damaged (${decoded.problem})`
        break
      }
      throw new StateFileError(
        path,
        `record at byte ${at} is damaged (${decoded.problem}) and is not the last one: the file is corrupt`,
      )
    }
    records.push(decoded.value)
    at = next + 1
  }
  loaded.logBytes = at - snapshotBytes
  if (dropped) loaded.dropped = dropped
  return loaded
}

function fromDocument(
  path: string,
  value: unknown,
  snapshotBytes: number,
  logBytes: number,
  records: unknown[],
): LoadedStateFile {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StateFileError(path, 'is not a JSON object')
  }
  const doc = value as Record<string, unknown>
  if (doc.format !== STATE_FORMAT) {
    throw new StateFileError(path, `is not a reseller-mock state file (expected "format": "${STATE_FORMAT}")`)
  }
  if (doc.version !== 1 && doc.version !== 2) {
    throw new StateFileError(
      path,
      `has version ${JSON.stringify(doc.version)}; this mock reads versions 1 and ${STATE_VERSION}`,
    )
  }
  if (typeof doc.state !== 'object' || doc.state === null) {
    throw new StateFileError(path, '"state" must be an object')
  }
  if (doc.version === 2 && (!('seed' in doc) || typeof doc.seed !== 'object')) {
    throw new StateFileError(path, '"seed" must be an object or null')
  }
  return {
    version: doc.version,
    seed: doc.version === 2 ? doc.seed : undefined,
    state: doc.state,
    records,
    snapshotBytes,
    logBytes,
  }
}

/** Cuts a state file to its good part (after a dropped last record): the next append starts clean. */
export async function cutStateFile(path: string, length: number): Promise<void> {
  await truncate(path, length)
  const handle = await open(path, 'r+')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Name of a temp file of `path`: hidden, same directory, this process's pid in it (see {@link removeStaleTempFiles}). */
function tempName(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
}

/**
 * Removes temp files of `path` left by runs that were killed mid-write: `.<name>.<pid>.<hex>.tmp`
 * in the same directory whose pid is no running process. Files of a live process (this one
 * included: another mock in this process may be writing) are kept. Resolves the removed names.
 */
export async function removeStaleTempFiles(path: string): Promise<string[]> {
  const dir = dirname(path)
  const prefix = `.${basename(path)}.`
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    if (!name.startsWith(prefix)) continue
    const match = /^(\d+)\.[0-9a-f]+\.tmp$/.exec(name.slice(prefix.length))
    if (!match) continue
    const pid = Number(match[1])
    if (pid === process.pid || isAlive(pid)) continue
    await rm(join(dir, name), { force: true })
    removed.push(name)
  }
  return removed
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: a process of another user holds that pid.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

type Handle = Awaited<ReturnType<typeof open>>

/** Writes `text` to `path` atomically: a temp file in the same directory, fsync, rename, fsync of the directory. */
export async function writeFileAtomic(path: string, text: string | Buffer): Promise<void> {
  const temp = tempName(path)
  let renamed = false
  try {
    const handle = await open(temp, 'wx', 0o600)
    try {
      await handle.writeFile(text)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, path)
    renamed = true
    await syncDirectory(dirname(path))
  } finally {
    if (!renamed) await rm(temp, { force: true }).catch(() => {})
  }
}

/** Makes a rename durable across a power loss; some platforms (Windows) cannot open a directory, which is fine. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: Handle | undefined
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // Not supported here; the rename itself is still atomic.
  } finally {
    await handle?.close().catch(() => {})
  }
}

/** Counters of a {@link StateLog}'s disk work (tests and benchmarks read them). */
export interface StateLogStats {
  /** Records appended. */
  records: number
  /** fsyncs of appended records (one per group commit). */
  syncs: number
  /** Whole-file writes: the first one, migrations, resets, recoveries after a failed write. */
  rewrites: number
  /** Background compactions completed. */
  compactions: number
}

/** Options of {@link createStateLog}. */
export interface StateLogOptions {
  /** The first line of a new file (the header with the current snapshot), taken synchronously when a rewrite starts. */
  snapshot: () => string
  /** Compact when the log part exceeds `compactRatio` × the snapshot's bytes (default 1)… */
  compactRatio?: number
  /** …and `compactMinBytes` (default 1 MiB). */
  compactMinBytes?: number
  /** Where a failed background compaction is reported. */
  warn?: (line: string) => void
}

/** An open state file: appends change records, makes them durable in groups, compacts itself. */
export interface StateLog {
  readonly path: string
  readonly stats: StateLogStats
  /** Queues a change record; it is written by the next group commit. Ignored once closed. */
  append(record: unknown): void
  /** The state was replaced as a whole: the next commit writes a new file instead of records. Ignored once closed. */
  replaceAll(): void
  /**
   * Resolves once everything appended (or replaced) so far is on disk; `undefined` when it already
   * is (no promise for the read path). Rejects when that write failed; until a write succeeds, each
   * call tries again by rewriting the whole file (the state it shows is not on disk).
   */
  durable(): Promise<void> | undefined
  /**
   * Waits for every queued write (a failed one is tried once more, its error passed to `warn`) and
   * a running compaction, never rejecting, then closes the file.
   */
  close(): Promise<void>
}

interface Waiter {
  upTo: number
  resolve: () => void
  reject: (error: Error) => void
}

interface Compaction {
  /** Records already written to the old file after the new snapshot was taken: copied over at the swap. */
  tail: Buffer[]
  /** Records queued before the snapshot was taken: it holds them already, the tail must not. */
  covered: Set<Buffer>
  temp: string
  handle?: Handle
  ready: boolean
  aborted: boolean
}

/**
 * Opens the state file at `path` for appending. `existing` describes a version 2 file just read
 * (its records are kept and appended to); without it, the first commit writes a new file (a new
 * state, a version 1 file to migrate, a changed header). Call {@link StateLog.durable} to make it so.
 */
export function createStateLog(
  path: string,
  options: StateLogOptions,
  existing?: { snapshotBytes: number; logBytes: number },
): StateLog {
  const ratio = options.compactRatio ?? 1
  const minBytes = options.compactMinBytes ?? 1024 * 1024
  const stats: StateLogStats = { records: 0, syncs: 0, rewrites: 0, compactions: 0 }
  let handle: Handle | undefined
  let snapshotBytes = existing?.snapshotBytes ?? 0
  let logBytes = existing?.logBytes ?? 0
  let needsRewrite = existing === undefined
  let buffer: Buffer[] = []
  /** Sequence number of the last append or replace; `done` the last one on disk. */
  let requested = needsRewrite ? 1 : 0
  let done = 0
  const waiters: Waiter[] = []
  let loop: Promise<void> | undefined
  let compaction: Compaction | undefined
  let compactionRun: Promise<void> | undefined
  let closed = false
  /** The batch being written now (a compaction's snapshot covers it). */
  let writing: Buffer[] = []
  /** A compaction about to start (on the next turn of the event loop). */
  let compactionDue: ReturnType<typeof setImmediate> | undefined
  /** Bytes of the snapshot line of a compaction waiting for its swap. */
  let snapshotPending = 0

  const settle = (upTo: number, error?: Error) => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i]!
      if (waiter.upTo > upTo) continue
      waiters.splice(i, 1)
      if (error) waiter.reject(error)
      else waiter.resolve()
    }
  }

  const kick = () => {
    loop ??= Promise.resolve()
      .then(run)
      .finally(() => {
        loop = undefined
        if (requested > done && !closed) kick()
      })
  }

  /** The group commit loop: one batch (or one rewrite) at a time, until nothing is queued. */
  async function run(): Promise<void> {
    while (requested > done) {
      const upTo = requested
      try {
        if (needsRewrite) await rewrite()
        else {
          if (compaction?.ready) await swap(compaction)
          const batch = buffer
          buffer = []
          writing = batch
          try {
            await appendBatch(batch)
          } finally {
            writing = []
          }
        }
        done = upTo
        settle(upTo)
      } catch (error) {
        // The file may now end in a torn record: rewrite it whole before appending again.
        needsRewrite = true
        done = upTo
        settle(upTo, error as Error)
      }
      maybeCompact()
    }
  }

  async function openHandle(): Promise<Handle> {
    handle ??= await open(path, 'a', 0o600)
    return handle
  }

  async function appendBatch(batch: Buffer[]): Promise<void> {
    if (batch.length === 0) return
    const data = batch.length === 1 ? batch[0]! : Buffer.concat(batch)
    const file = await openHandle()
    await file.write(data)
    await file.datasync()
    stats.syncs++
    logBytes += data.length
    if (compaction) for (const line of batch) if (!compaction.covered.has(line)) compaction.tail.push(line)
  }

  /** A whole new file with the current state, in place of the old one (waiters wait for it). */
  async function rewrite(): Promise<void> {
    await abortCompaction()
    const text = Buffer.from(options.snapshot(), 'utf8')
    // The snapshot covers every record queued so far.
    buffer = []
    needsRewrite = false
    try {
      await handle?.close()
    } finally {
      handle = undefined
    }
    try {
      await writeFileAtomic(path, text)
    } catch (error) {
      needsRewrite = true
      throw error
    }
    stats.rewrites++
    snapshotBytes = text.length
    logBytes = 0
  }

  function maybeCompact(): void {
    if (closed || compaction || compactionDue || needsRewrite) return
    if (logBytes <= Math.max(minBytes, snapshotBytes * ratio)) return
    // After the answers just settled have gone out: taking the snapshot blocks for a moment.
    compactionDue = setImmediate(startCompaction)
  }

  function startCompaction(): void {
    compactionDue = undefined
    if (closed || compaction || needsRewrite) return
    const current: Compaction = {
      tail: [],
      covered: new Set([...writing, ...buffer]),
      temp: tempName(path),
      ready: false,
      aborted: false,
    }
    compaction = current
    // Taken now, synchronously: it covers every record written so far; later ones go to `tail`.
    const text = Buffer.from(options.snapshot(), 'utf8')
    compactionRun = (async () => {
      try {
        current.handle = await open(current.temp, 'wx', 0o600)
        await current.handle.writeFile(text)
        await current.handle.sync()
        if (current.aborted) return
        current.ready = true
        snapshotPending = text.length
        // Let the loop swap the files between two batches.
        requested++
        kick()
      } catch (error) {
        if (!current.aborted)
          options.warn?.(`reseller-mock: compaction of ${path} failed: ${(error as Error).message}`)
        await dropCompaction(current)
      }
    })()
  }

  /** Inside the loop: appends the tail to the new file, then renames it over the old one. */
  async function swap(current: Compaction): Promise<void> {
    try {
      const tail = Buffer.concat(current.tail)
      if (tail.length > 0) {
        await current.handle!.write(tail)
        await current.handle!.sync()
      }
      await current.handle!.close()
      current.handle = undefined
      // No append runs during the swap: close the old file first (Windows renames no open file);
      // the next batch reopens whichever file is in place.
      const old = handle
      handle = undefined
      await old?.close().catch(() => {})
      await rename(current.temp, path)
    } catch (error) {
      options.warn?.(`reseller-mock: compaction of ${path} failed: ${(error as Error).message}`)
      await dropCompaction(current)
      return
    }
    compaction = undefined
    // Records queued before the snapshot was taken and not written yet: the snapshot holds them.
    buffer = buffer.filter((line) => !current.covered.has(line))
    await syncDirectory(dirname(path))
    snapshotBytes = snapshotPending
    logBytes = current.tail.reduce((n, b) => n + b.length, 0)
    stats.compactions++
  }

  async function dropCompaction(current: Compaction): Promise<void> {
    if (compaction === current) compaction = undefined
    await current.handle?.close().catch(() => {})
    current.handle = undefined
    await rm(current.temp, { force: true }).catch(() => {})
  }

  async function abortCompaction(): Promise<void> {
    const current = compaction
    if (!current) return
    current.aborted = true
    compaction = undefined
    await compactionRun?.catch(() => {})
    await dropCompaction(current)
  }

  const log: StateLog = {
    path,
    stats,
    append(record) {
      if (closed) return
      let line: Buffer
      try {
        line = encodeRecord(record)
      } catch (error) {
        options.warn?.(
          `reseller-mock: a change could not be encoded (${(error as Error).message}); rewriting ${path}`,
        )
        needsRewrite = true
        requested++
        kick()
        return
      }
      buffer.push(line)
      stats.records++
      requested++
      kick()
    },
    replaceAll() {
      if (closed) return
      needsRewrite = true
      requested++
      kick()
    },
    durable() {
      if (closed) return undefined
      // A write failed and nothing since has written the file: it is behind the state, write it whole.
      if (needsRewrite && done >= requested) requested++
      if (done >= requested) return undefined
      return new Promise<void>((resolve, reject) => {
        waiters.push({ upTo: requested, resolve, reject })
        kick()
      })
    },
    async close() {
      await log
        .durable()
        ?.catch((error: Error) =>
          options.warn?.(`reseller-mock: could not save the state file ${path}: ${error.message}`),
        )
      while (loop || done < requested) {
        kick()
        await loop
      }
      closed = true
      if (compactionDue) clearImmediate(compactionDue)
      compactionDue = undefined
      await abortCompaction()
      await handle?.close().catch(() => {})
      handle = undefined
    },
  }
  return log
}
