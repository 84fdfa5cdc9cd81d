/**
 * The standalone mock: a mock served over `node:http`, optionally backed by a state file that every
 * acknowledged change reaches before its answer is sent. The CLI is a thin shell around this.
 */
import type { MockContext } from '../../context.js'
import { type AssembledMock, assembleMock, type MockApi } from '../../mock-api.js'
import type { SeedInput } from '../../seed/schema.js'
import type { EarlyServer } from '../http/early.js'
import { isLoopbackBind } from '../http/host-names.js'
import { listen } from '../http/listen.js'
import { type SavedState, StateDatabase } from '../state-file/database.js'
import { identifyStateFile } from '../state-file/identity.js'
import { assertWritable, removeCreated, resolveStatePath, StateFileError } from '../state-file/path.js'
import { seedDigest } from '../state-file/schema.js'
import { StateSync } from '../state-file/sync.js'
import { hostMock, type KeyInfo, keysOf } from './hosted-mock.js'
import { namespaceAnswer } from './namespace-routes.js'
import type { NamespaceRegistry } from './namespaces.js'
import { createHostRouter } from './router.js'
import { hostNamespaces } from './standalone-namespaces.js'
import { chooseSeed, type GivenSeed, givenSeedOf, restoreSaved, type SeedChoice } from './standalone-state.js'

export { StateFileError } from '../state-file/path.js'
export type { KeyInfo } from './hosted-mock.js'

/** Options of {@link startStandalone}. */
export interface StandaloneOptions {
  /** Seed (the format of docs/running-the-mock.md, "Seed format"); default: the demo seed. */
  seed?: SeedInput
  /**
   * The seed as the content of a seed file, instead of `seed`: decoded and given to `parse` (which
   * throws the caller's own error) only when the seed is needed: a new state, a state file that
   * recorded another text, a reset. A restart with the seed file that wrote the state only hashes it.
   */
  seedFile?: { bytes: Uint8Array; parse: (text: string) => SeedInput }
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
  /** Webhooks may target loopback and private hosts, and general ones `http://`; deliveries then use the global `fetch`. */
  insecureWebhooks?: boolean
  /** API requests the journal keeps (default 1,000; `0` turns it off). */
  journalLimit?: number
  /** Request log (one line per request); none when absent. */
  log?: (line: string) => void
  /** Where problems outside any request are reported (a state file write that failed outside a request). */
  warn?: (line: string) => void
  /** Most namespaces at once (`--max-namespaces`, default 1,000); `0` refuses every creation. */
  maxNamespaces?: number
  /** Real time as namespaces expire by it (default `Date.now`): tests move it instead of waiting. */
  namespaceClock?: () => number
  /**
   * A server listening already on `host:port` (`listenEarly`), served instead of binding: the CLI
   * prints its ready line before the mock is made. Closed when the start fails.
   */
  server?: EarlyServer
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
  /** The state file as opened (symbolic links resolved); absent without one. */
  statePath?: string
  /** Every API key of the current state. */
  keys(): KeyInfo[]
  /** The namespaces this server hosts beside its root mock. */
  namespaces: NamespaceRegistry
  /**
   * Stops serving, drops scheduled deliveries (they stay in the state file) and waits for the last
   * write. Tables of a state file that nothing used yet are read first, so `context.store` stays
   * whole, unless `exiting` says the process ends next (the CLI).
   */
  close(options?: { exiting?: boolean }): Promise<void>
}

/** A state file opened and read: the database, and the saved state unless the file is new. */
interface OpenedState {
  db: StateDatabase
  saved?: SavedState
  /** This start created the file: a start that fails removes it again. */
  created: boolean
}

function openState(path: string): OpenedState {
  const resolved = resolveStatePath(path)
  const kind = identifyStateFile(resolved)
  if (kind !== 'missing') assertWritable(resolved)
  const db = StateDatabase.open(resolved, kind)
  try {
    return { db, saved: db.isNew ? undefined : db.read(), created: kind === 'missing' }
  } catch (error) {
    closeFailed({ db, created: kind === 'missing' })
    throw error
  }
}

/** Closes the file of a start that failed; a file this start created goes (a failed start leaves none). */
function closeFailed(opened: Pick<OpenedState, 'db' | 'created'> | undefined): void {
  if (!opened) return
  opened.db.close()
  if (opened.created) removeCreated(opened.db.path)
}

/** Makes the mock: from the seed for a new state, else empty with the seed deferred, then restored. */
function createStandaloneMock(
  options: StandaloneOptions,
  choice: SeedChoice,
  opened?: OpenedState,
): AssembledMock {
  const common = { insecureWebhooks: options.insecureWebhooks ?? false, journalLimit: options.journalLimit }
  if (!opened?.saved) return assembleMock({ ...common, seed: choice.seed() })
  const assembled = assembleMock({ ...common, deferredSeed: choice.seed })
  restoreSaved(assembled.context.store, opened.saved, opened.db.path)
  return assembled
}

/** Subscribes the state file to the store; writes the whole state to a new file, or an adopted seed. */
function startSync(opened: OpenedState, context: MockContext, choice: SeedChoice): StateSync {
  const { store, clock } = context
  const sync = new StateSync(opened.db, store, clock, choice.recordJson)
  try {
    if (!opened.saved) sync.writeWhole()
    else if (choice.adopted) opened.db.writeSeed(choice.recordJson())
    // Each row was just checked by its schema: the next start need not check them again.
    if (opened.saved && !opened.saved.rows.written) opened.db.markRowsValid()
  } catch (error) {
    throw new StateFileError(opened.db.path, `cannot be written (${(error as Error).message})`, {
      cause: error,
      untouched: false,
    })
  }
  return sync
}

/** The seed of the options, if any: a text is parsed once, on first use. */
function givenSeed(options: StandaloneOptions): GivenSeed | undefined {
  if (options.seedFile) {
    const { bytes, parse } = options.seedFile
    let text: string | undefined
    let parsed: SeedInput | undefined
    // As `readFile(path, 'utf8')` decodes: a byte order mark is kept (and refused by JSON.parse).
    const json = () =>
      (text ??= Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'))
    return { digest: seedDigest(bytes), json, value: () => (parsed ??= parse(json())) }
  }
  return options.seed === undefined ? undefined : givenSeedOf(options.seed)
}

/** The mock, its seed and its state file's sync; closes the file when any of them fails. */
function prepareMock(options: StandaloneOptions, opened: OpenedState | undefined) {
  try {
    const path = opened?.db.path ?? ''
    const choice = chooseSeed(givenSeed(options), opened?.saved?.seed, options.adoptSeed ?? false, path)
    const { mock, context, answer } = createStandaloneMock(options, choice, opened)
    // Everything that can refuse the file is behind: only now is it opened for writing.
    opened?.db.lockForWriting()
    const sync = opened ? startSync(opened, context, choice) : undefined
    return { mock, context, answer, choice, sync }
  } catch (error) {
    closeFailed(opened)
    throw error
  }
}

/** Starts a standalone mock. Rejects with a readable error on a bad seed, a bad state file or a busy port. */
export async function startStandalone(options: StandaloneOptions = {}): Promise<Standalone> {
  try {
    return await start(options)
  } catch (error) {
    // A start that fails serves nothing: a server bound for it closes too.
    await options.server?.close()
    throw error
  }
}

async function start(options: StandaloneOptions): Promise<Standalone> {
  const warn = options.warn ?? ((line: string) => console.error(line))
  const opened = options.statePath === undefined ? undefined : openState(options.statePath)
  const { mock, context, answer, choice, sync } = prepareMock(options, opened)
  const { store, dispatcher } = context
  const persist = sync ? () => sync.durable() : undefined
  // No answer (a read included) leaves before its change is on disk; a failed write is the 500.
  context.durable = persist

  const host = options.host ?? '127.0.0.1'
  const insecureWebhooks = options.insecureWebhooks ?? false
  // A shared mock (docs/running-the-mock.md, "Webhooks"): reseller webhooks follow the general policy.
  const servedOnNetwork = !isLoopbackBind(host)
  const hostSettings = { insecureWebhooks, servedOnNetwork, log: options.log, warn }
  const root = hostMock(
    { mock, context, answer },
    { ...hostSettings, basePath: '', logPrefix: '', lazyInspector: false, persist },
  )
  // Pending deliveries of the saved state are due again: at once if their time has passed.
  if (opened?.saved) dispatcher.resume()

  /** A start that fails leaves nothing running and no file it created (docs/running-the-mock.md). */
  const abandon = (error: unknown, hostedSoFar?: { close(): void }): never => {
    hostedSoFar?.close()
    root.close()
    sync?.close(warn, { settle: false })
    if (opened?.created) removeCreated(opened.db.path)
    throw error
  }

  let hosted: ReturnType<typeof hostNamespaces>
  try {
    // Restoring the file's namespaces may refuse a row: the root made above must not outlive it.
    hosted = hostNamespaces({
      ...hostSettings,
      journalLimit: options.journalLimit,
      serverSeed: choice.seed,
      maxNamespaces: options.maxNamespaces,
      namespaceClock: options.namespaceClock,
      db: opened?.db,
    })
  } catch (error) {
    return abandon(error)
  }
  const namespaces = hosted.registry

  const stop = (exiting = false) => {
    hosted.close()
    root.close()
    sync?.close(warn, { settle: !exiting })
  }

  let serverUrl = ''
  const server = await listen(
    namespaceAnswer(root, namespaces, () => serverUrl),
    {
      port: options.port ?? 4010,
      host,
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
      log: options.log,
    },
    // Closing the server ends the namespaces' streams too, so that it does not wait for them.
    {
      ...root.extension,
      close() {
        root.extension.close()
        hosted.endStreams()
      },
    },
    createHostRouter(namespaces),
    options.server,
  ).catch((error: unknown) =>
    // No scheduled delivery, no timer, no open file (and nobody gets the store, so its unread
    // tables stay unread).
    abandon(error, hosted),
  )
  serverUrl = server.url

  let closing: Promise<void> | undefined
  return {
    url: server.url,
    mock,
    context,
    state: !opened ? 'memory' : opened.saved ? 'loaded' : 'created',
    seedFrom: choice.from,
    statePath: opened?.db.path,
    keys: () => keysOf(store),
    namespaces,
    close(options) {
      closing ??= (async () => {
        await server.close()
        stop(options?.exiting)
      })()
      return closing
    },
  }
}
