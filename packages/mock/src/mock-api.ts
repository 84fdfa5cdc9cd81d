/**
 * What `createMockApi` returns, shared by the package's two entries: the default one (browsers,
 * edge runtimes; `listen` rejects) and the `node` one (`listen` serves over node:http), and the
 * assembly of a mock. `createMockApi` itself is `create-mock-api.ts`: it brings msw and @msw/data
 * for `mock.handlers` and `mock.db`, which the standalone server, assembling its mock here, never
 * loads (their evaluation was a third of its start).
 */
import type { HttpHandler } from 'msw'
import { createContext, type MockContext } from './context.js'
import {
  createControls,
  type EmitEventInput,
  type EmittedEvent,
  type MockState,
  type MockTickets,
} from './controls.js'
import { createMockFaults, type MockFaults } from './faults/api.js'
import { routes } from './handlers/index.js'
import { createMockRequests, type MockRequests } from './journal/api.js'
import { parseBaseUrl } from './routing/base-url.js'
import { createHandle } from './routing/core.js'
import { createFetch } from './routing/fetch.js'
import type { createMswHandlers } from './routing/msw.js'
import type { CoreHandler, MockHandler } from './routing/types.js'
import { demoSeed } from './seed/demo.js'
import type { SeedInput } from './seed/schema.js'
import type { ListenOptions, RunningServer } from './server/http/options.js'
import { type Clock, createClock } from './state/clock.js'
import type { createDb, MockDb } from './state/db.js'
import { DEFAULT_RANDOM_SEED } from './state/random.js'

/** Base URL of a mock created without `baseUrl`. */
export const DEFAULT_BASE_URL = 'https://api.reseller.test'

/** Options of {@link createMockApi}. */
export interface MockApiOptions {
  /** The state to start from and `reset()` to (the format of docs/running-the-mock.md, "Seed format"); default: the demo seed. */
  seed?: SeedInput
  /** Where the mock answers; default `https://api.reseller.test`. The API is below `{baseUrl}/api/v1`. */
  baseUrl?: string
  /**
   * Webhooks may target loopback and private hosts, and general ones `http://` (local receivers).
   * Without it, only public hosts (see `docs/running-the-mock.md#webhooks`).
   */
  insecureWebhooks?: boolean
  /**
   * Seed of the mock's id generator: ticket uuids, service ids, webhook secrets and delivery ids
   * are drawn from it (never from `crypto.randomUUID`), so two runs that make the same calls get
   * the same ids. Default `'reseller-mock'`; give each mock its own value to tell their ids apart.
   */
  randomSeed?: string | number
  /**
   * How many API requests the journal keeps (the oldest go first); default 1,000. `0` turns the
   * journal off; answers still carry `X-Request-Id`.
   */
  journalLimit?: number
}

/** A running mock of the API. Two mocks share no state. */
export interface MockApi {
  /** The base URL (no trailing slash). */
  readonly baseUrl: string
  /** MSW handlers: `setupServer(...mock.handlers)` or `setupWorker(...mock.handlers)`. */
  readonly handlers: HttpHandler[]
  /** A `fetch` answered by the mock directly: no global interception, safe in parallel tests. */
  readonly fetch: typeof fetch
  /** The mock's clock: `await mock.clock.advance(ms)` runs due webhook retries before it resolves. */
  readonly clock: Clock
  /** The transport-neutral core: answers a plain request object (`mock.fetch` and the MSW handlers call it). */
  readonly handle: MockHandler
  /**
   * The mock's tables, for questions in tests, in `@msw/data`'s query language over the records the
   * mock holds now. Read-only: records come out as frozen copies.
   *
   * ```ts
   * const open = mock.db.tickets.findMany((q) => q.where({ status: 'open', reseller_id: 1 }))
   * const note = mock.db.messages.findFirst((q) => q.where({ ticket_id: open[0].id, internal: true }))
   * mock.db.accounts.count((q) => q.where({ status: 'suspended' }))
   * ```
   */
  readonly db: MockDb
  /** The request journal: `mock.requests.list({ method: 'POST' })`, oldest first. */
  readonly requests: MockRequests
  /** Faults for API requests: `mock.faults.add({ respond: { status: 429, retryAfter: 1 }, times: 1 })`. */
  readonly faults: MockFaults
  /** Returns the state to the seed, and empties the journal and the faults. */
  reset(): void
  /** The whole state, as `GET /__mock/state` answers it in `data` (API keys and secrets included). */
  state(): MockState
  /** The support staff's side: `staffReply`, `setStatus` (the ticket control endpoints, typed). */
  readonly tickets: MockTickets
  /**
   * Emits any event of the API through the real delivery path, as `POST /__mock/events`: a
   * reseller-style event goes to the reseller's webhook, a general-style one to its general webhooks
   * subscribed to it, signed, retried on failure. Resolves the event as receivers get it, once
   * queued: `await mock.clock.advance(0)` waits for the deliveries.
   *
   * ```ts
   * await mock.emit({ reseller_id: 1, event: 'vps.activated', data: { client_id: 501, … } })
   * await mock.emit({ reseller_id: 1, style: 'general', event: 'domain.registered' }) // sample data
   * ```
   *
   * `style` may be left out except for `domain.registered` (both styles); `data` defaults to
   * sample data and is checked against the event's SDK schema; `sandbox: true` gives the sandbox
   * form of a reseller-style event. Rejects with {@link MockApiError} (422 `validation_error`, its
   * `fields` naming each failing field) on a bad input: nothing is emitted then.
   */
  emit<const I extends EmitEventInput>(input: I): Promise<EmittedEvent<I>>
  /**
   * Serves the mock over HTTP (`node:http`), with the inspector at `{url}/__mock/`: `{ url, close() }`.
   * Node, Deno and Bun only (the package's `node` export condition); in a browser or edge bundle it
   * rejects with an error that says so.
   */
  listen(options?: ListenOptions): Promise<RunningServer>
}

/** Serves a mock over HTTP: given by the `node` entry, absent from the browser and edge build. */
export type ListenImpl = (
  answer: CoreHandler,
  context: MockContext,
  options?: ListenOptions,
) => Promise<RunningServer>

/** A mock and its context: what the servers of the `node` entry work on (store, clock, dispatcher). */
export interface AssembledMock {
  mock: MockApi
  context: MockContext
  /** The core handler, answering at once where it can (see {@link CoreHandler}). */
  answer: CoreHandler
}

/** `listen` where no server can run: rejects with what to do instead. @internal */
export const listenUnavailable: ListenImpl = () =>
  Promise.reject(
    new Error(
      'mock.listen() needs node:http, which this build of @reseller-api/mock leaves out: it was ' +
        'resolved without the "node" export condition (a browser or edge bundle). In a browser use ' +
        'setupWorker(...mock.handlers) or mock.fetch; run the standalone server under Node (reseller-mock).',
    ),
  )

/** How `mock.handlers` and `mock.db` are built (`create-mock-api.ts` gives them). @internal */
export interface MockViews {
  handlers: typeof createMswHandlers
  db: typeof createDb
}

/** Views of a mock assembled without them (the standalone server): asking for one says so. */
const VIEWS_UNAVAILABLE: MockViews = {
  handlers: () => {
    throw new Error('mock.handlers: this mock was assembled without MSW handlers (createMockApi builds them)')
  },
  db: () => {
    throw new Error('mock.db: this mock was assembled without it (createMockApi builds it)')
  },
}

/** {@link MockApiOptions} and what only the standalone server passes. @internal */
export interface AssembleOptions extends MockApiOptions {
  /**
   * Gives the seed when a reset first needs it (`undefined`: the demo seed); the store starts
   * empty, for a saved state restored at once (`server/standalone.ts`). Replaces `seed`.
   */
  deferredSeed?: () => SeedInput | undefined
}

/**
 * A mock with its context, for the code that serves it (the standalone server, tests of the
 * inside). `listen` rejects unless `listenImpl` is given, `mock.handlers` and `mock.db` throw
 * unless `views` are. @internal
 */
export function assembleMock(
  options: AssembleOptions,
  listenImpl: ListenImpl = listenUnavailable,
  views: MockViews = VIEWS_UNAVAILABLE,
): AssembledMock {
  const base = parseBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL)
  const clock = createClock()
  const context = createContext({
    baseUrl: base.href,
    insecureWebhooks: options.insecureWebhooks ?? false,
    clock,
    seed: options.deferredSeed ? () => options.deferredSeed?.() ?? demoSeed : (options.seed ?? demoSeed),
    deferSeed: options.deferredSeed !== undefined,
    randomSeed: options.randomSeed ?? DEFAULT_RANDOM_SEED,
    journalLimit: options.journalLimit,
    routes,
  })
  const answer = createHandle(routes, context)
  // The public form always returns a promise; the standalone server calls `answer` itself.
  const handle: MockHandler = async (request) => answer(request)
  const controls = createControls(handle, context)
  // Built on first use: a test that only calls `mock.fetch` never pays for MSW handlers or `db`.
  let handlers: HttpHandler[] | undefined
  let db: MockDb | undefined
  const mock: MockApi = {
    baseUrl: base.href,
    get handlers() {
      handlers ??= views.handlers(routes, base, handle)
      return handlers
    },
    get db() {
      db ??= views.db(context.store.tables)
      return db
    },
    fetch: createFetch(handle, base),
    clock,
    handle,
    requests: createMockRequests(context.journal),
    faults: createMockFaults(context.faults),
    reset: () => context.reset(),
    state: controls.state,
    tickets: controls.tickets,
    emit: controls.emit,
    // node:http only comes in through the `node` entry (src/node.ts), so that a browser or Workers
    // bundle of this module never meets it.
    listen: (listenOptions) => listenImpl(answer, context, listenOptions),
  }
  return { mock, context, answer }
}
