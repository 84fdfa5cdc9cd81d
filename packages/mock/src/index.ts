/**
 * `@reseller-api/mock`: a stateful reference implementation of the reseller hosting API for tests
 * and local development, as MSW handlers, an in-process `fetch` and a standalone server.
 *
 * ```ts
 * import { createMockApi } from '@reseller-api/mock'
 * const mock = createMockApi({ seed })         // demo seed when omitted
 * const api = new ResellerApi({ apiKey: 'svc_live_acme_full', baseUrl: mock.baseUrl, fetch: mock.fetch })
 * ```
 *
 * @packageDocumentation
 */
import type { HttpHandler } from 'msw'
import { createContext } from './context.js'
import {
  createControls,
  type EmitEventInput,
  type EmittedEvent,
  type MockState,
  type MockTickets,
} from './controls.js'
import { createMockFaults, type MockFaults } from './faults/api.js'
import { routes } from './handlers/index.js'
import { registerInternals } from './internal.js'
import { createMockRequests, type MockRequests } from './journal/api.js'
import { parseBaseUrl } from './routing/base-url.js'
import { createHandle } from './routing/core.js'
import { createFetch } from './routing/fetch.js'
import { createMswHandlers } from './routing/msw.js'
import type { MockHandler } from './routing/types.js'
import { demoSeed } from './seed/demo.js'
import { parseSeed, type SeedInput } from './seed/schema.js'
import type { ListenOptions, RunningServer } from './server/listen.js'
import { type Clock, createClock } from './state/clock.js'
import { attachDispatcher } from './webhooks/index.js'

/** Base URL of a mock created without `baseUrl`. */
export const DEFAULT_BASE_URL = 'https://api.reseller.test'

/** Options of {@link createMockApi}. */
export interface MockApiOptions {
  /** The state to start from and `reset()` to (contract §4 format); default: the demo seed. */
  seed?: SeedInput
  /** Where the mock answers; default `https://api.reseller.test`. The API is below `{baseUrl}/api/v1`. */
  baseUrl?: string
  /** General webhooks may target `http://` and loopback or private hosts (local receivers). */
  insecureWebhooks?: boolean
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
  /** The transport-neutral core: answers a plain request object (the standalone server calls it). */
  readonly handle: MockHandler
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
   * Emits any event of spec §6 through the real delivery path, as `POST /__mock/events`: a
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
  /** Serves the mock over HTTP: `{ url, close() }`. */
  listen(options?: ListenOptions): Promise<RunningServer>
}

/** Creates a mock of the API with its own state, loaded from `seed` (default: the demo seed). */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  const base = parseBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL)
  const seed = parseSeed(options.seed ?? demoSeed)
  const clock = createClock()
  const context = createContext({
    baseUrl: base.href,
    insecureWebhooks: options.insecureWebhooks ?? false,
    clock,
    seed,
    journalLimit: options.journalLimit,
    routes,
  })
  // Queues a delivery for every committed event; attempts run on `clock` (see webhooks/).
  const dispatcher = attachDispatcher(context)
  const handle = createHandle(routes, context)
  const controls = createControls(handle, context)
  const mock: MockApi = {
    baseUrl: base.href,
    handlers: createMswHandlers(routes, base, handle),
    fetch: createFetch(handle, base),
    clock,
    handle,
    requests: createMockRequests(context.journal),
    faults: createMockFaults(context.faults),
    reset: () => context.reset(),
    state: controls.state,
    tickets: controls.tickets,
    emit: controls.emit,
    // Loaded on first use: the server needs node:http, and the rest of the mock also runs in browsers
    // (setupWorker) and edge runtimes.
    listen: async (listenOptions) => (await import('./server/listen.js')).listen(handle, listenOptions),
  }
  registerInternals(mock, { context, dispatcher })
  return mock
}

export type {
  EmitEventInput,
  EmittedEvent,
  GeneralEmitInput,
  MockState,
  MockTickets,
  ResellerEmitInput,
  StaffReplyResult,
} from './controls.js'
export type { Fault, MockFaults } from './faults/api.js'
export { defaultFaultCode } from './faults/registry.js'
export { FaultJson, FaultMatch, FaultSpec } from './faults/schema.js'
export type { MockRequests } from './journal/api.js'
export { JournalEntry, JournalFilter } from './journal/schema.js'
export { ApiError as MockApiError, isApiError as isMockApiError } from './routing/errors.js'
export type { MockHandler, MockRequest, MockResponse } from './routing/types.js'
export { demoSeed } from './seed/demo.js'
export { parseSeed, type Seed, SeedError, type SeedInput, type SeedIssue, seedSchema } from './seed/schema.js'
export type { ListenOptions, RunningServer } from './server/listen.js'
export type { Clock, ClockState } from './state/clock.js'
