/**
 * `connectMock(url)`: a running mock driven from a test, with `MockApi`'s method names and
 * arguments, each resolving its result, on a server's root or on one of its namespaces. Built on
 * the control client the CLI uses (`client.ts`): one request per call, failures as its
 * {@link ControlError} (exported as `MockControlError`). Only `fetch`: it runs in Node, browsers and
 * edge runtimes alike. See docs/parallel-tests.md.
 */
import type { Ticket, TicketStatus } from '@reseller-api/sdk/schemas'
import type * as z from 'zod/mini'
import type { FaultJson, FaultSpec } from '../faults/schema.js'
import type { JournalEntry, JournalFilter } from '../journal/schema.js'
import type { ClockState } from '../state/clock.js'
import { type ControlClient, type ControlClientOptions, ControlError, createControlClient } from './client.js'
import type { DeliveryView, NamespaceCreated, NamespaceKey, NamespaceView } from './schemas.js'
import type { EmitEventInput, EmittedEvent, MockState, StaffReplyResult } from './types.js'

/** Options of {@link connectMock}. */
export interface ConnectMockOptions {
  /** Sends the requests; default: the global `fetch` (give `mock.fetch` to drive an in-process mock). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>
  /** Aborts every request of the client: a call then rejects with the signal's reason. */
  signal?: AbortSignal
}

/** A fault added through {@link RemoteMock.faults}: as `GET /__mock/faults` lists it, and its removal. */
export interface RemoteFault extends FaultJson {
  /**
   * Removes the fault (`DELETE /__mock/faults/{id}`); resolves `false` when it was already gone
   * (removed, cleared or used up), as `fault.remove()` of an in-process mock returns.
   */
  remove(): Promise<boolean>
}

/**
 * The control endpoints of one running mock (a server's root or a namespace), with the names and
 * arguments of `MockApi`'s methods: test code that awaits each call runs against both.
 */
export interface RemoteMock {
  /** The mock's base URL, without a trailing `/`: the API is below `{baseUrl}/api/v1`. */
  readonly baseUrl: string
  /** `POST /__mock/reset`: the state back to the seed, the journal and the faults emptied. */
  reset(): Promise<void>
  /** `GET /__mock/state`: every table's rows, the counters and the clock offset (keys and secrets included). */
  state(): Promise<MockState>
  /** The mock's clock. */
  readonly clock: {
    /** `GET /__mock/clock`: the mock time and its lead over real time. */
    get(): Promise<ClockState>
    /**
     * Moves the mock time forward by `ms` milliseconds (`POST /__mock/clock/advance`); resolves once
     * the webhook retries that fall due on the way have been attempted.
     */
    advance(ms: number): Promise<ClockState>
  }
  /** Faults: delays, error answers and dropped connections for matching API requests. */
  readonly faults: {
    /** Adds a fault, applied after the ones added before it (the first match wins). */
    add(spec: FaultSpec): Promise<RemoteFault>
    /** Every fault still active, in the order they apply. */
    list(): Promise<RemoteFault[]>
    /** Removes every fault. */
    clear(): Promise<void>
  }
  /** The request journal. */
  readonly requests: {
    /** The API requests the mock answered, oldest first: those whose every field `filter` gives matches. */
    list(filter?: JournalFilter): Promise<JournalEntry[]>
    /** Empties the journal; request ids keep counting. */
    clear(): Promise<void>
  }
  /** The support staff's side of tickets. */
  readonly tickets: {
    /**
     * A staff reply: a visible one moves an `open` ticket to `in_progress` and emits
     * `ticket.replied`; an internal note changes nothing the API shows.
     */
    staffReply(uuid: string, reply: { message: string; internal?: boolean }): Promise<StaffReplyResult>
    /** Staff sets any status; resolves the ticket. */
    setStatus(uuid: string, status: TicketStatus): Promise<Ticket>
  }
  /**
   * Emits any event of the API through the real delivery path (`POST /__mock/events`); resolves
   * the event as receivers get it. `mock.clock.advance(0)` waits for its deliveries.
   */
  emit<const I extends EmitEventInput>(input: I): Promise<EmittedEvent<I>>
  /** Every delivery of every reseller of this mock. */
  readonly deliveries: {
    /** Newest first, each with the URL it goes to and its signature header. */
    list(): Promise<DeliveryView[]>
    /** The same bytes again, as a new delivery attempted at once; resolves the new delivery. */
    redeliver(deliveryId: string): Promise<DeliveryView>
  }
}

/** A key of a namespace's seed: `key`, `mode`, `scopes`, `reseller_id`, `reseller` (its name). */
export type MockNamespaceKey = z.infer<typeof NamespaceKey>

/** A namespace as the server lists it (`GET /__mock/namespaces`). */
export type MockNamespaceInfo = z.infer<typeof NamespaceView>

/** What {@link MockNamespaces.create} takes: the body of `POST /__mock/namespaces`, in camelCase. */
export interface NamespaceOptions {
  /** `^[a-z0-9][a-z0-9-]{0,62}$`; default: one the server makes (`ns-` and 12 letters or digits). */
  id?: string
  /** Its seed (the seed format of docs/running-the-mock.md); default: the server's own seed. */
  seed?: object
  /** Seed of its id generator, as `createMockApi({ randomSeed })`; default: a fresh mock's. */
  randomSeed?: string | number
  /** Deleted after this long without a request under its URL: 60 to 2,592,000 s, default 3,600. */
  ttlSeconds?: number
  /** Shown in the list and the inspector: which suite or worker made it. */
  label?: string
}

/**
 * A namespace of a server: a whole mock of its own under {@link MockNamespace.url}, driven with the
 * methods of {@link RemoteMock}.
 */
export interface MockNamespace extends RemoteMock {
  /** Its id, in its URL's last segment. */
  readonly id: string
  /** Its base URL (`http://HOST:PORT/ns/{id}`): `new ResellerApi({ baseUrl: url, apiKey })` talks to it. */
  readonly url: string
  /** Its seed's keys, as the CLI prints them; under `url` each works exactly as written in the seed. */
  readonly keys: readonly MockNamespaceKey[]
  /** The label it was made with, or `null`. */
  readonly label: string | null
  /** When it was made (ISO 8601 UTC). */
  readonly createdAt: string
  /** When it expires unless a request comes before (ISO 8601 UTC), as of its creation: each request renews it. */
  readonly expiresAt: string
  /** Deletes it (`DELETE /__mock/namespaces/{id}` at the root); resolves `false` when it was already gone. */
  delete(): Promise<boolean>
}

/** The namespaces of a server, on its root's client. */
export interface MockNamespaces {
  /** Makes a namespace; resolves its client. Rejects 409 `namespace_exists`, 429 `namespace_limit`, 422. */
  create(options?: NamespaceOptions): Promise<MockNamespace>
  /** Every namespace, oldest first. */
  list(): Promise<MockNamespaceInfo[]>
  /** One namespace; rejects 404 `namespace_not_found` for an id that does not exist (or expired). */
  get(id: string): Promise<MockNamespaceInfo>
  /** Deletes one; rejects 404 `namespace_not_found` for an id that does not exist. */
  delete(id: string): Promise<{ id: string; deleted: true }>
  /** Deletes every namespace; resolves how many went. */
  clear(): Promise<{ deleted: number }>
}

/** A client of a running mock's URL: its control endpoints and, on a server's root, its namespaces. */
export interface ConnectedMock extends RemoteMock {
  /** The server's namespaces (the root's endpoints: under a namespace's URL they answer 404). */
  readonly namespaces: MockNamespaces
}

/** `RemoteMock` over one control client. */
function remoteMock(client: ControlClient): RemoteMock {
  const faultOf = (json: FaultJson): RemoteFault => ({
    ...json,
    remove: async () => {
      try {
        await client.faults.remove(json.id)
        return true
      } catch (error) {
        if (error instanceof ControlError && error.code === 'not_found') return false
        throw error
      }
    },
  })
  return {
    baseUrl: client.baseUrl,
    reset: async () => {
      await client.reset()
    },
    state: () => client.state(),
    clock: {
      get: () => client.clock.get(),
      advance: (ms) => {
        if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
          return Promise.reject(new TypeError(`clock.advance: ms must be a number of 0 or more (got ${ms})`))
        }
        return client.clock.advance({ seconds: ms / 1000 })
      },
    },
    faults: {
      add: async (spec) => faultOf(await client.faults.add(spec)),
      list: async () => (await client.faults.list()).map(faultOf),
      clear: async () => {
        await client.faults.clear()
      },
    },
    requests: {
      list: (filter) => client.requests.list(filter),
      clear: async () => {
        await client.requests.clear()
      },
    },
    tickets: {
      staffReply: (uuid, reply) => client.tickets.staffReply(uuid, reply),
      setStatus: (uuid, status) => client.tickets.setStatus(uuid, status),
    },
    emit: (input) => client.emit(input),
    deliveries: {
      list: () => client.deliveries.list(),
      redeliver: (id) => client.deliveries.redeliver(id),
    },
  }
}

/** The options of the control client behind a connection. */
function clientOptions(baseUrl: string, options: ConnectMockOptions): ControlClientOptions {
  return {
    baseUrl,
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.signal && { signal: options.signal }),
  }
}

/** Body of `POST /__mock/namespaces` from its camelCase options (fields left out stay out). */
function createBody(options: NamespaceOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  if (options.id !== undefined) body.id = options.id
  if (options.seed !== undefined) body.seed = options.seed
  if (options.randomSeed !== undefined) body.random_seed = options.randomSeed
  if (options.ttlSeconds !== undefined) body.ttl_seconds = options.ttlSeconds
  if (options.label !== undefined) body.label = options.label
  return body
}

/**
 * A client of the running mock at `url`: a standalone server's root (`http://127.0.0.1:4010`) or a
 * namespace's URL (`…/ns/{id}`). Every method resolves what the same method of `MockApi` returns;
 * failures reject with a `MockControlError` (`status`, `code`, a one-line message; status 0 and code
 * `unreachable` when no answer came).
 *
 * ```ts
 * const root = connectMock(process.env.RESELLER_MOCK_URL!)
 * const mock = await root.namespaces.create({ label: 'checkout tests' })
 * const api = new ResellerApi({ baseUrl: mock.url, apiKey: mock.keys[0].key })
 * await mock.faults.add({ respond: { status: 503 }, times: 1 })
 * await mock.delete()
 * ```
 */
export function connectMock(url: string | URL, options: ConnectMockOptions = {}): ConnectedMock {
  const client = createControlClient(clientOptions(String(url), options))
  const namespaceOf = (created: z.infer<typeof NamespaceCreated>): MockNamespace => ({
    ...remoteMock(createControlClient(clientOptions(created.url, options))),
    id: created.id,
    url: created.url.replace(/\/+$/, ''),
    keys: created.keys,
    label: created.label,
    createdAt: created.created_at,
    expiresAt: created.expires_at,
    delete: async () => {
      try {
        await namespaces.delete(created.id)
        return true
      } catch (error) {
        if (error instanceof ControlError && error.code === 'namespace_not_found') return false
        throw error
      }
    },
  })
  const namespaces: MockNamespaces = {
    create: async (createOptions = {}) =>
      namespaceOf(await client.namespaces.create(createBody(createOptions))),
    list: () => client.namespaces.list(),
    get: (id) => client.namespaces.get(id),
    delete: (id) => client.namespaces.delete(id),
    clear: () => client.namespaces.clear(),
  }
  return { ...remoteMock(client), namespaces }
}
