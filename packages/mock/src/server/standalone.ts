/**
 * The standalone mock: a mock served over `node:http`, optionally backed by a state file that every
 * acknowledged change reaches before its answer is sent. The CLI is a thin shell around this.
 */
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { isPrivateHost } from '@reseller-api/sdk'
import { internalsOf } from '../internal.js'
import { createMockApi, type MockApi } from '../mock-api.js'
import type { SeedInput } from '../seed/schema.js'
import { createInspector } from './inspector.js'
import { listen } from './listen.js'
import {
  createStateFileWriter,
  readStateFile,
  STATE_FORMAT,
  STATE_VERSION,
  StateFileError,
  type StateFileWriter,
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
  /** State file: loaded if it exists, written through before every answer to a mutating request. */
  statePath?: string
  /** General webhooks may target `http://` and loopback or private hosts. */
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
  /** `'loaded'` from an existing state file, `'created'` a new one, `'memory'` without a state file. */
  state: 'loaded' | 'created' | 'memory'
  /** Every API key of the current state. */
  keys(): KeyInfo[]
  /** Stops serving, drops scheduled deliveries (they stay in the state file) and waits for the last write. */
  close(): Promise<void>
}

/**
 * Refuses a general webhook host name that resolves to a loopback, private or link-local address.
 * Names that do not resolve pass (the attempt then fails with the DNS error). The address is looked
 * up again by the delivery itself, so a name that changes its answer in between (DNS rebinding) is
 * not caught: this is a mock for development, not a security boundary.
 */
export async function refusePrivateResolution(url: URL): Promise<string | null> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(host)) return null
  try {
    const addresses = await lookup(host, { all: true })
    const hit = addresses.find((a) => isPrivateHost(a.address))
    return hit ? `target refused: ${host} resolves to ${hit.address}, a private address` : null
  } catch {
    return null
  }
}

/** Starts a standalone mock. Rejects with a readable error on a bad seed, a bad state file or a busy port. */
export async function startStandalone(options: StandaloneOptions = {}): Promise<Standalone> {
  const warn = options.warn ?? ((line: string) => console.error(line))
  const mock = createMockApi({
    seed: options.seed,
    insecureWebhooks: options.insecureWebhooks ?? false,
    journalLimit: options.journalLimit,
  })
  const { context, dispatcher } = internalsOf(mock)
  const { store, clock } = context

  let writer: StateFileWriter | undefined
  let state: Standalone['state'] = 'memory'
  /** `store.version` and clock offset of the last snapshot written: a request that changed nothing writes nothing. */
  let written = ''
  const stamp = () => `${store.version}:${clock.offsetMs}`

  /**
   * Makes the current state durable: starts (or joins) a write when it changed since the last
   * snapshot, waits for the running write when that one already holds it, and does nothing (no
   * promise at all, for the read path) when the file already has it.
   */
  const persist = (): Promise<void> | undefined => {
    if (!writer) return undefined
    if (stamp() !== written) return writer.save()
    // `written` is taken when a write starts: the running write, if any, holds the current state.
    return writer.busy ? writer.flush() : undefined
  }

  dispatcher.configure({
    // No MSW runs in this process: never add its bypass mark.
    bypassMsw: false,
    checkTarget: options.insecureWebhooks ? undefined : refusePrivateResolution,
    // An attempt changed a delivery outside any request: write it through too.
    onChange: () => {
      persist()?.catch((error: Error) =>
        warn(`reseller-mock: could not save the state file: ${error.message}`),
      )
    },
  })

  if (options.statePath !== undefined) {
    const path = options.statePath
    const saved = await readStateFile(path)
    if (saved) {
      try {
        store.restore(saved.state)
      } catch (error) {
        throw new StateFileError(path, `does not hold a valid mock state (${(error as Error).message})`, {
          cause: error,
        })
      }
      // Pending deliveries of the saved state are due again: at once if their time has passed.
      dispatcher.resume()
      state = 'loaded'
    } else {
      state = 'created'
    }
    writer = createStateFileWriter(path, () => {
      written = stamp()
      return {
        format: STATE_FORMAT,
        version: STATE_VERSION,
        saved_at: clock.now().toISOString(),
        // Serialized by the writer as soon as this returns: no deep copy needed.
        state: store.snapshot({ copy: false }),
      }
    })
  }

  const server = await listen(
    mock.handle,
    {
      port: options.port ?? 4010,
      host: options.host ?? '127.0.0.1',
      allowedHosts: options.allowedHosts,
      log: options.log,
      onMutation: writer ? async () => persist() : undefined,
      // Reads wait for the write of a background change (a delivery attempt) they could otherwise show.
      onRead: writer ? persist : undefined,
    },
    createInspector(mock),
  )

  if (writer) {
    try {
      await writer.save()
    } catch (error) {
      await server.close()
      throw new StateFileError(writer.path, `cannot be written (${(error as Error).message})`, {
        cause: error,
      })
    }
  }

  let closing: Promise<void> | undefined
  return {
    url: server.url,
    mock,
    state,
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
        await writer?.flush()
      })()
      return closing
    },
  }
}
