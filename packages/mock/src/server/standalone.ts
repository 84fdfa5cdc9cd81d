/**
 * The standalone mock: a mock served over `node:http`, optionally backed by a state file that every
 * acknowledged change reaches before its answer is sent. The CLI is a thin shell around this.
 */
import type { MockContext } from '../context.js'
import { assembleMock, type MockApi } from '../mock-api.js'
import type { SeedInput } from '../seed/schema.js'
import type { StoreChange } from '../state/changes.js'
import { isLoopbackBind } from './guard.js'
import { createInspector } from './inspector.js'
import { listen } from './listen.js'
import { publicFetch } from './public-fetch.js'
import {
  createStateLog,
  cutStateFile,
  type LoadedStateFile,
  readStateFile,
  removeStaleTempFiles,
  STATE_FORMAT,
  STATE_VERSION,
  StateFileError,
  type StateLog,
  type StateLogStats,
} from './state-file.js'

/** Options of {@link startStandalone}. */
export interface StandaloneOptions {
  /** Seed (contract §4 format); default: the demo seed. */
  seed?: SeedInput
  /** Default 4010; `0` takes a free port. */
  port?: number
  /** Default `127.0.0.1`. */
  host?: string
  /** Host names accepted in `Host` besides loopback ones and the bound address (`--allowed-host`). */
  allowedHosts?: readonly string[]
  /** Origins whose browser pages may call the server, with CORS (`--allowed-origin`). */
  allowedOrigins?: readonly string[]
  /** State file: loaded if it exists, written through before every answer to a mutating request. */
  statePath?: string
  /**
   * With a state file created from another seed: keep its state but record `seed` as the seed that
   * `reset` returns to. Without it, such a start is refused with a {@link StateFileError}.
   */
  adoptSeed?: boolean
  /**
   * When the state file's log is compacted into a new snapshot: once it exceeds `ratio` × the
   * snapshot's size (default 1) and `minBytes` (default 1 MiB). For tests and tuning.
   */
  compaction?: { ratio?: number; minBytes?: number }
  /** Webhooks may target loopback and private hosts, and general ones `http://`; deliveries then use the global `fetch`. */
  insecureWebhooks?: boolean
  /** API requests the journal keeps (default 1,000; `0` turns it off). */
  journalLimit?: number
  /** Request log (one line per request); none when absent. */
  log?: (line: string) => void
  /** Where problems outside any request are reported (a failed background write of the state file). */
  warn?: (line: string) => void
}

/** An API key of the running mock, as the CLI prints it. */
export interface KeyInfo {
  key: string
  mode: 'live' | 'sandbox'
  scopes: string[]
  reseller_id: number
  reseller: string
}

/** A running standalone mock. */
export interface Standalone {
  /** `http://host:port`. */
  url: string
  mock: MockApi
  /** The mock's context: its store, clock and webhook dispatcher. */
  context: MockContext
  /** `'loaded'` from an existing state file, `'created'` a new one, `'memory'` without a state file. */
  state: 'loaded' | 'created' | 'memory'
  /**
   * Where the seed came from: the `seed` option, the one recorded in the state file (started
   * without `seed`), or the built-in demo seed.
   */
  seedFrom: 'option' | 'state file' | 'demo'
  /** The state file's disk work (appended records, fsyncs, rewrites, compactions); absent without one. */
  readonly stateStats?: Readonly<StateLogStats>
  /** Every API key of the current state. */
  keys(): KeyInfo[]
  /** Stops serving, drops scheduled deliveries (they stay in the state file) and waits for the last write. */
  close(): Promise<void>
}

/** JSON with object keys sorted: two seeds are the same when their canonical forms are. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  )
}

/**
 * The seed to start from and the one to record, given the `seed` option and the state file: a
 * file's recorded seed wins when no seed is given; a different one is refused unless adopted.
 */
function chooseSeed(options: StandaloneOptions, saved: LoadedStateFile | undefined, path: string) {
  const given = options.seed
  const recorded = saved?.seed
  if (given !== undefined && recorded !== undefined && canonicalJson(given) !== canonicalJson(recorded)) {
    if (!options.adoptSeed) {
      throw new StateFileError(
        path,
        `was created from ${recorded === null ? 'the built-in demo seed' : 'another seed'}, not the one given; start without --seed to use the recorded seed, or add --adopt-seed to keep the state and make reset go to the new seed`,
      )
    }
    return { seed: given, record: given as unknown, from: 'option' as const, changed: true }
  }
  if (given !== undefined)
    return { seed: given, record: given as unknown, from: 'option' as const, changed: recorded === undefined }
  if (recorded !== undefined && recorded !== null) {
    return { seed: recorded as SeedInput, record: recorded, from: 'state file' as const, changed: false }
  }
  return { seed: undefined, record: null, from: 'demo' as const, changed: recorded === undefined }
}

/** Starts a standalone mock. Rejects with a readable error on a bad seed, a bad state file or a busy port. */
export async function startStandalone(options: StandaloneOptions = {}): Promise<Standalone> {
  const warn = options.warn ?? ((line: string) => console.error(line))
  const path = options.statePath
  let saved: LoadedStateFile | undefined
  if (path !== undefined) {
    const removed = await removeStaleTempFiles(path)
    if (removed.length > 0) {
      warn(`reseller-mock: removed ${removed.length} temp file(s) of ${path} left by a killed run`)
    }
    saved = await readStateFile(path)
  }
  const chosen = chooseSeed(options, saved, path ?? '')
  let assembled: ReturnType<typeof assembleMock>
  try {
    assembled = assembleMock({
      seed: chosen.seed,
      insecureWebhooks: options.insecureWebhooks ?? false,
      journalLimit: options.journalLimit,
    })
  } catch (error) {
    // The user's --seed is reported as theirs; a recorded one belongs to the file.
    if (chosen.from !== 'state file') throw error
    throw new StateFileError(path!, `records a seed that is not valid (${(error as Error).message})`, {
      cause: error,
    })
  }
  const { mock, context } = assembled
  const { store, clock, dispatcher } = context

  let log: StateLog | undefined
  let state: Standalone['state'] = 'memory'
  /** Clock offset of the last record: an advance that changed no row is recorded on its own. */
  let loggedOffset = clock.offsetMs

  /**
   * Makes the current state durable: records a clock advance that no change recorded, then waits
   * for the group commit holding every change so far; no promise at all when it is already on disk.
   */
  const persist = (): Promise<void> | undefined => {
    if (!log) return undefined
    if (clock.offsetMs !== loggedOffset) {
      loggedOffset = clock.offsetMs
      log.append({
        tables: {},
        counters: {},
        last_micros: 0,
        clock_offset_ms: loggedOffset,
        clock_only: true,
      })
    }
    return log.durable()
  }

  dispatcher.configure({
    // No MSW runs in this process: never add its bypass mark.
    bypassMsw: false,
    // Names are judged by the address each delivery's socket connects to (see public-fetch.ts).
    fetch: options.insecureWebhooks ? undefined : publicFetch,
    // An attempt changed a delivery outside any request: its record is queued; write it now.
    onChange: () => {
      persist()?.catch((error: Error) =>
        warn(`reseller-mock: could not save the state file: ${error.message}`),
      )
    },
  })

  if (path !== undefined) {
    if (saved) {
      try {
        store.restore(saved.state)
        for (const record of saved.records) applyRecord(store, record)
      } catch (error) {
        throw new StateFileError(path, `does not hold a valid mock state (${(error as Error).message})`, {
          cause: error,
        })
      }
      if (saved.dropped) {
        warn(
          `reseller-mock: state file ${path}: ${saved.dropped}; dropped it (a write cut short by a kill) and kept every record before it`,
        )
        await cutStateFile(path, saved.snapshotBytes + saved.logBytes)
      }
      // Pending deliveries of the saved state are due again: at once if their time has passed.
      dispatcher.resume()
      state = 'loaded'
    } else {
      state = 'created'
    }
    loggedOffset = clock.offsetMs
    const seed = chosen.record
    const keep = saved?.version === 2 && !chosen.changed
    log = createStateLog(
      path,
      {
        snapshot: () =>
          `${JSON.stringify({
            format: STATE_FORMAT,
            version: STATE_VERSION,
            saved_at: clock.now().toISOString(),
            seed,
            // Serialized at once: no deep copy needed.
            state: store.snapshot({ copy: false }),
          })}\n`,
        warn,
        compactRatio: options.compaction?.ratio,
        compactMinBytes: options.compaction?.minBytes,
      },
      keep ? { snapshotBytes: saved!.snapshotBytes, logBytes: saved!.logBytes } : undefined,
    )
    const target = log
    // A reset replaces the whole state (the store reloads the seed and reports `'replaced'`): the
    // log then writes a new file instead of records.
    store.onCommit((change) => {
      if (change === 'replaced') target.replaceAll()
      else {
        loggedOffset = change.clock_offset_ms
        target.append(change)
      }
    })
  }

  /** A start that fails leaves nothing running: no scheduled delivery, no timer, no open file. */
  const abandon = async (error: unknown): Promise<never> => {
    dispatcher.stop()
    clock.stop()
    await log?.close()
    throw error
  }

  // A shared mock (docs/running-the-mock.md, "Webhooks"): reseller webhooks follow the general policy.
  if (!isLoopbackBind(options.host ?? '127.0.0.1')) context.markServedOnNetwork()
  const server = await listen(
    mock.handle,
    {
      port: options.port ?? 4010,
      host: options.host ?? '127.0.0.1',
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
      log: options.log,
      onMutation: log ? async () => persist() : undefined,
      // Reads wait for the write of a background change (a delivery attempt) they could otherwise show.
      onRead: log ? persist : undefined,
    },
    createInspector(context),
  ).catch(abandon)

  if (log) {
    try {
      await log.durable()
    } catch (error) {
      await server.close()
      await abandon(
        new StateFileError(log.path, `cannot be written (${(error as Error).message})`, { cause: error }),
      )
    }
  }

  let closing: Promise<void> | undefined
  return {
    url: server.url,
    mock,
    context,
    state,
    seedFrom: chosen.from,
    get stateStats() {
      return log?.stats
    },
    keys() {
      return Array.from(store.apiKeys.all(), (k) => ({
        key: k.key,
        mode: k.mode,
        scopes: [...k.scopes],
        reseller_id: k.reseller_id,
        reseller: store.resellers.get(k.reseller_id)?.name ?? '',
      }))
    },
    close() {
      closing ??= (async () => {
        await server.close()
        dispatcher.stop()
        clock.stop()
        await log?.close()
      })()
      return closing
    },
  }
}

/** Replays one log record: a store change, or a clock advance that changed no row. */
function applyRecord(store: MockContext['store'], record: unknown): void {
  const r = record as Partial<StoreChange> & { clock_only?: boolean }
  if (typeof r !== 'object' || r === null || typeof r.tables !== 'object' || r.tables === null) {
    throw new Error('a log record is not a change')
  }
  if (typeof r.clock_offset_ms !== 'number' || !Number.isFinite(r.clock_offset_ms)) {
    throw new Error('a log record has no clock_offset_ms')
  }
  if (r.clock_only) {
    store.clock.restoreOffset?.(r.clock_offset_ms)
    return
  }
  if (typeof r.counters !== 'object' || r.counters === null || typeof r.last_micros !== 'number') {
    throw new Error('a log record has no counters or last_micros')
  }
  store.applyChange(r as StoreChange)
}
