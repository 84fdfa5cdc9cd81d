/**
 * The control client: a running mock driven over HTTP, one typed method per control endpoint,
 * each built on the endpoint's declaration (`operations.ts`): the path, the body and the schema its
 * answer is read with come from there. For the CLI commands that drive a mock by its URL, and for
 * tests (give it `mock.fetch` to drive an in-process mock the same way).
 *
 * ```ts
 * const mock = createControlClient({ baseUrl: 'http://127.0.0.1:4010' })
 * await mock.clock.advance({ seconds: 3600 })
 * const [latest] = await mock.deliveries.list()
 * ```
 *
 * Every failure rejects with a {@link ControlError}: the mock's error answer (its status, code,
 * message and field errors), no answer at all (`unreachable`), or an answer that is not the mock's
 * (`unexpected_answer`). Its message is one line, fit to print as it is.
 */

import type { FieldErrors, Ticket, TicketStatus } from '@reseller-api/sdk/schemas'
import type * as z from 'zod/mini'
import type { FaultJson, FaultSpec } from '../faults/schema.js'
import type { JournalEntry, JournalFilter } from '../journal/schema.js'
import { type ControlEndpoint, controlPath, type RawControlEndpoint } from './endpoint.js'
import { control } from './operations.js'
import type {
  ClockState,
  DeliveryView,
  NamespaceCreateBody,
  NamespaceCreated,
  NamespaceDeleted,
  NamespacesDeleted,
  NamespaceView,
  ResetDone,
} from './schemas.js'
import type { EmitEventInput, EmittedEvent, MockState, StaffReplyResult } from './types.js'

/** A `fetch`: the platform's, or `mock.fetch` of an in-process mock. */
export type ControlFetch = (input: string, init: RequestInit) => Promise<Response>

/** Options of {@link createControlClient}. */
export interface ControlClientOptions {
  /**
   * The mock's base URL, as it was started (`http://127.0.0.1:4010`, or an in-process mock's
   * `mock.baseUrl`): the control endpoints are below it at `/__mock/`.
   */
  baseUrl: string | URL
  /** Sends the requests; default: the global `fetch`. */
  fetch?: ControlFetch
  /** Aborts every request of the client: a request then rejects with the signal's reason, as `fetch` does. */
  signal?: AbortSignal
  /**
   * Called with each answer the mock gives, before the client reads it, for what a method's result
   * leaves out: its status and headers (`X-Mock-Deliveries` of `emit` and of a staff reply). It
   * gets a copy of the answer (its body may be read) and the request it answers; the call waits for
   * it, and rejects with what it throws. Not called when there was no answer (`unreachable`).
   *
   * ```ts
   * const mock = createControlClient({
   *   baseUrl,
   *   onResponse: (response) => console.log(response.status, response.headers.get('x-mock-deliveries')),
   * })
   * ```
   */
  onResponse?: (response: Response, request: ControlRequestSent) => void | Promise<void>
}

/** A request the control client sent, as {@link ControlClientOptions.onResponse} gets it. */
export interface ControlRequestSent {
  /** `POST`. */
  method: string
  /** The whole URL: the base URL, the path with its parameters, the query. */
  url: string
}

/** How a control request failed besides the mock's own error codes. */
export type ControlFailure =
  /** No answer: the mock is not running there, or the connection was lost. */
  | 'unreachable'
  /** An answer that is not the mock's: another server, or a mock of another version. */
  | 'unexpected_answer'

/** A control request that failed: the mock's error answer, no answer, or an answer that is not the mock's. */
export class ControlError extends Error {
  override readonly name = 'MockControlError'
  constructor(
    /** HTTP status of the answer; `0` when there was none. */
    readonly status: number,
    /** The answer's `error.code` (`not_found`, `validation_error`, …), or a {@link ControlFailure}. */
    readonly code: string,
    /** One line that says what failed, fit to print as it is. */
    message: string,
    /** The request: `POST /__mock/faults`. */
    readonly request: string,
    /** For `validation_error`: each failing field and the rules it broke. */
    readonly fields?: FieldErrors,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** The success `data` a declaration answers. */
type DataOf<E> = E extends ControlEndpoint<infer D, infer _B, infer _Q, infer _P> ? z.output<D> : never
/** The body a declaration reads (what is sent: its input side). */
type BodyOf<E> =
  E extends ControlEndpoint<infer _D, infer B, infer _Q, infer _P>
    ? B extends z.ZodMiniType
      ? z.input<B>
      : undefined
    : undefined

/** One request of a declaration: its path parameters, query and body. */
export interface ControlRequest<E extends ControlEndpoint> {
  /** Path parameters by their name in the declaration's path. */
  params?: Readonly<Record<string, string>>
  query?: URLSearchParams
  body?: BodyOf<E>
}

/** A running mock's control endpoints, one method each. */
export interface ControlClient {
  /** The base URL the client was made with, without a trailing `/`. */
  readonly baseUrl: string
  /** `POST /__mock/reset`: every table back to the seed, the journal and the faults emptied. */
  reset(): Promise<z.output<typeof ResetDone>>
  /** `GET /__mock/state`: every table's rows, the counters and the clock offset (keys and secrets included). */
  state(): Promise<MockState>
  /** The mock's clock. */
  readonly clock: {
    /** `GET /__mock/clock`: the mock time and its lead over real time. */
    get(): Promise<z.output<typeof ClockState>>
    /**
     * `POST /__mock/clock/advance`: moves the mock time forward by `seconds`; the webhook retries
     * that fall due on the way are attempted before it resolves.
     */
    advance(body: { seconds: number }): Promise<z.output<typeof ClockState>>
  }
  /** The support staff's side of tickets. */
  readonly tickets: {
    /**
     * `POST /__mock/tickets/{uuid}/replies`: a visible reply moves an `open` ticket to
     * `in_progress` and emits `ticket.replied`; an internal note changes nothing the API shows.
     */
    staffReply(uuid: string, reply: { message: string; internal?: boolean }): Promise<StaffReplyResult>
    /** `PATCH /__mock/tickets/{uuid}`: staff sets any status. */
    setStatus(uuid: string, status: TicketStatus): Promise<Ticket>
  }
  /** The request journal. */
  readonly requests: {
    /** `GET /__mock/requests`: the API requests the mock answered, oldest first, those `filter` matches. */
    list(filter?: JournalFilter): Promise<JournalEntry[]>
    /** `DELETE /__mock/requests`: empties the journal; resolves how many entries went. */
    clear(): Promise<{ cleared: number }>
  }
  /** Faults: delays, error answers and dropped connections for matching API requests. */
  readonly faults: {
    /** `POST /__mock/faults`: adds a fault; resolves it with its id. */
    add(spec: FaultSpec): Promise<FaultJson>
    /** `GET /__mock/faults`: the faults, in the order they apply. */
    list(): Promise<FaultJson[]>
    /** `DELETE /__mock/faults/{id}`: removes one fault (`not_found` for an unknown id); resolves it. */
    remove(id: string): Promise<FaultJson>
    /** `DELETE /__mock/faults`: removes every fault; resolves how many went. */
    clear(): Promise<{ cleared: number }>
  }
  /**
   * `POST /__mock/events`: emits any event of the API through the real delivery path, to the
   * reseller's webhooks subscribed to it; resolves the event as receivers get it.
   */
  emit<const I extends EmitEventInput>(input: I): Promise<EmittedEvent<I>>
  /** Every delivery of every reseller. */
  readonly deliveries: {
    /** `GET /__mock/deliveries`: newest first, each with its URL and signature header. */
    list(): Promise<DeliveryView[]>
    /**
     * `POST /__mock/deliveries/{delivery_id}/redeliver`: the same bytes again, as a new delivery
     * attempted at once (`not_found` for an unknown id); resolves the new delivery.
     */
    redeliver(deliveryId: string): Promise<DeliveryView>
  }
  /** `GET /__mock/openapi.json`: the OpenAPI document this mock serves, control endpoints included. */
  openapi(): Promise<Record<string, unknown>>
  /**
   * The namespaces of a standalone server (its root's endpoints): whole mocks at `{url}/ns/{id}`,
   * each reached with a client of its own `url`.
   */
  readonly namespaces: {
    /** `POST /__mock/namespaces`: a new namespace (every field optional); resolves its `url` and `keys`. */
    create(body?: z.input<typeof NamespaceCreateBody>): Promise<z.output<typeof NamespaceCreated>>
    /** `GET /__mock/namespaces`: every namespace, oldest first. */
    list(): Promise<z.output<typeof NamespaceView>[]>
    /** `GET /__mock/namespaces/{id}`: one (`namespace_not_found` when it does not exist). */
    get(id: string): Promise<z.output<typeof NamespaceView>>
    /** `DELETE /__mock/namespaces/{id}`: deletes one and everything in it. */
    delete(id: string): Promise<z.output<typeof NamespaceDeleted>>
    /** `DELETE /__mock/namespaces`: deletes every namespace; resolves how many went. */
    clear(): Promise<z.output<typeof NamespacesDeleted>>
  }
  /**
   * Sends the request of any control declaration and resolves its answer's `data`, read with the
   * declaration's schema: for an endpoint this client has no method for yet.
   */
  call<E extends ControlEndpoint>(declaration: E, request?: ControlRequest<E>): Promise<DataOf<E>>
}

/** The journal filter as query parameters (`status: null` → `status=null`). */
function journalQuery(filter: JournalFilter = {}): URLSearchParams {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(filter)) {
    if (value !== undefined) query.set(name, value === null ? 'null' : String(value))
  }
  return query
}

/** The first rule `issues` name, for a one-line message. */
function firstIssue(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const issue = issues[0]
  if (!issue) return 'it does not match'
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message
}

/** Why a request got no answer, from what `fetch` rejected with (`ECONNREFUSED`, …). */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause
  if (typeof cause?.code === 'string') return cause.code
  if (typeof cause?.message === 'string') return cause.message
  return error instanceof Error ? error.message : String(error)
}

/** A client of the control endpoints of the mock at `options.baseUrl`. */
export function createControlClient(options: ControlClientOptions): ControlClient {
  const baseUrl = String(options.baseUrl).replace(/\/+$/, '')
  if (!/^https?:\/\//i.test(baseUrl)) {
    throw new TypeError(`baseUrl must be an http:// or https:// URL (got ${JSON.stringify(baseUrl)})`)
  }
  const send = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init))

  /** Sends one request; resolves the answer's status and JSON body (`undefined`: empty or not JSON). */
  const exchange = async (
    declaration: ControlEndpoint | RawControlEndpoint,
    request: { params?: Readonly<Record<string, string>>; query?: URLSearchParams; body?: unknown },
  ) => {
    const path = controlPath(declaration, request.params)
    const search = request.query && request.query.size > 0 ? `?${request.query}` : ''
    const name = `${declaration.method} ${path}`
    const init: RequestInit = { method: declaration.method, headers: { accept: 'application/json' } }
    if (request.body !== undefined) {
      init.headers = { accept: 'application/json', 'content-type': 'application/json' }
      init.body = JSON.stringify(request.body)
    }
    if (options.signal) init.signal = options.signal
    const url = `${baseUrl}${path}${search}`
    let response: Response
    let text: string
    let answered: Response | undefined
    try {
      response = await send(url, init)
      const copy = options.onResponse ? response.clone() : undefined
      text = await response.text()
      answered = copy
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason
      throw new ControlError(
        0,
        'unreachable',
        `${name}: no answer from the mock at ${baseUrl} (${reasonOf(error)}): is it running there?`,
        name,
        undefined,
        { cause: error },
      )
    }
    // Outside the try above: what the hook throws is its own failure, not an unreachable mock.
    if (answered) await options.onResponse!(answered, { method: declaration.method, url })
    let body: unknown
    try {
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      body = undefined
    }
    return { name, status: response.status, body }
  }

  /** A {@link ControlError} for an answer that is not the mock's. */
  const unexpected = (name: string, status: number, what: string) =>
    new ControlError(
      status,
      'unexpected_answer',
      `${name}: the server at ${baseUrl} answered ${status} ${what}: is it a reseller mock of this version?`,
      name,
    )

  /** The `data` of a success envelope; the error of an error envelope, thrown. */
  const envelopeData = (name: string, status: number, body: unknown): unknown => {
    const envelope = body as {
      success?: unknown
      data?: unknown
      error?: { code?: unknown; message?: unknown; fields?: FieldErrors }
    } | null
    if (status >= 200 && status < 300 && envelope?.success === true && 'data' in envelope)
      return envelope.data
    const error = envelope?.error
    if (envelope?.success === false && typeof error?.code === 'string' && typeof error.message === 'string') {
      throw new ControlError(
        status,
        error.code,
        `${name}: ${status} ${error.code}: ${error.message}`,
        name,
        error.fields,
      )
    }
    throw unexpected(
      name,
      status,
      body === undefined ? 'without a JSON body' : 'with a body not in the envelope',
    )
  }

  const call = async <E extends ControlEndpoint>(
    declaration: E,
    request: ControlRequest<E> = {},
  ): Promise<DataOf<E>> => {
    const { name, status, body } = await exchange(declaration, request)
    const data = envelopeData(name, status, body)
    const parsed = declaration.data.safeParse(data)
    if (!parsed.success) {
      throw unexpected(name, status, `with data its declaration refuses (${firstIssue(parsed.error.issues)})`)
    }
    return parsed.data as DataOf<E>
  }

  /** The JSON object a raw declaration answers (`data` of its envelope when `enveloped`). */
  const raw = async (
    declaration: RawControlEndpoint,
    enveloped: boolean,
  ): Promise<Record<string, unknown>> => {
    const { name, status, body } = await exchange(declaration, {})
    // Whatever a success is, an error is the mock's envelope.
    const value = enveloped || status !== 200 ? envelopeData(name, status, body) : body
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>
    throw unexpected(name, status, 'with a body that is not a JSON object')
  }

  const ticket = (uuid: string) => ({ uuid })
  return {
    baseUrl,
    reset: () => call(control.state.reset),
    state: async () => (await raw(control.state.get, true)) as unknown as MockState,
    clock: {
      get: () => call(control.clock.get),
      advance: (body) => call(control.clock.advance, { body }),
    },
    tickets: {
      staffReply: (uuid, reply) => call(control.tickets.staffReply, { params: ticket(uuid), body: reply }),
      setStatus: (uuid, status) =>
        call(control.tickets.setStatus, { params: ticket(uuid), body: { status } }),
    },
    requests: {
      list: (filter) => call(control.requests.list, { query: journalQuery(filter) }),
      clear: () => call(control.requests.clear),
    },
    faults: {
      add: (spec) => call(control.faults.add, { body: spec }),
      list: () => call(control.faults.list),
      remove: (id) => call(control.faults.remove, { params: { id } }),
      clear: () => call(control.faults.clear),
    },
    emit: async (input) => (await call(control.events.emit, { body: input })) as never,
    deliveries: {
      list: () => call(control.deliveries.list),
      redeliver: (deliveryId) => call(control.deliveries.redeliver, { params: { delivery_id: deliveryId } }),
    },
    openapi: () => raw(control.meta.openapi, false),
    namespaces: {
      create: (body) => call(control.namespaces.create, body === undefined ? {} : { body }),
      list: () => call(control.namespaces.list),
      get: (id) => call(control.namespaces.get, { params: { id } }),
      delete: (id) => call(control.namespaces.delete, { params: { id } }),
      clear: () => call(control.namespaces.clear),
    },
    call,
  }
}
