/**
 * The control endpoints in typed, in-process form: `mock.state()`,
 * `mock.tickets.staffReply/setStatus`, `mock.emit`. Each action goes through the very route its
 * endpoint runs (same checks, same transaction, same events), so the two never drift; a refusal
 * rejects with a {@link ApiError} carrying the status, code and fields the endpoint would answer.
 */
import type {
  FieldErrors,
  GeneralEvent,
  MessageAuthor,
  ResellerEvent,
  Ticket,
  TicketStatus,
  WebhookEvent,
} from '@reseller-api/sdk/schemas'
import type { GeneralEventData, ResellerEventData } from '@reseller-api/sdk/webhooks'
import type { MockContext } from './context.js'
import { ApiError } from './errors.js'
import type { MockHandler } from './routing/types.js'
import type { StoreSnapshot } from './state/snapshot.js'
import type { Table } from './state/table.js'
import type { Tables } from './state/tables.js'

/** Rows of a table. */
type RowsOf<T> = T extends Table<infer _S, infer R> ? R[] : never

/** The whole state, as `GET /__mock/state` answers it in `data`: every table's rows, oldest first. */
export interface MockState extends Omit<StoreSnapshot, 'tables'> {
  tables: { [K in keyof Tables]: RowsOf<Tables[K]> }
}

/** A staff reply, as `POST /__mock/tickets/{uuid}/replies` answers it. */
export interface StaffReplyResult {
  id: number
  message: string
  from: MessageAuthor
  created_at: string
  /** An internal note: invisible to the API, no status change, no event. */
  internal: boolean
}

/** The support staff's side of tickets. */
export interface MockTickets {
  /**
   * A staff reply, as `POST /__mock/tickets/{uuid}/replies`: a visible one moves an `open` ticket
   * to `in_progress` and emits `ticket.replied`; an internal note changes nothing the API shows.
   * Rejects with {@link ApiError} 404 for an unknown ticket, 422 `invalid_state` on a closed one.
   */
  staffReply(uuid: string, reply: { message: string; internal?: boolean }): Promise<StaffReplyResult>
  /** Staff sets any status, as `PATCH /__mock/tickets/{uuid}`; resolves the ticket. */
  setStatus(uuid: string, status: TicketStatus): Promise<Ticket>
}

type ResellerName = keyof ResellerEventData
type GeneralName = Exclude<keyof GeneralEventData, 'test'>
/** Names both styles use: `style` must be given. */
type SharedName = ResellerName & GeneralName

interface EmitBase {
  /** The reseller whose webhooks receive the event. */
  reseller_id: number
}

/** `style` may be left out, except for a name both styles use (`domain.registered`). */
type StyleField<N, S> = N extends SharedName ? { style: S } : { style?: S }

/** A reseller-style event to emit: to the reseller's webhook (`PUT /reseller/webhook`). */
export type ResellerEmitInput = {
  [N in ResellerName]: EmitBase &
    StyleField<N, 'reseller'> & {
      event: N
      /** Default: sample data of the event, valid against its schema. */
      data?: ResellerEventData[N]
      /** The sandbox form (`sandbox: true`), as sandbox keys cause. Default `false`. */
      sandbox?: boolean
    }
}[ResellerName]

/** A general-style event to emit: to the reseller's general webhooks subscribed to it. */
export type GeneralEmitInput = {
  [N in GeneralName]: EmitBase &
    StyleField<N, 'general'> & {
      event: N
      /** Default: sample data of the event, valid against its schema. */
      data?: GeneralEventData[N]
      /** General-style payloads have no sandbox form. */
      sandbox?: false
    }
}[GeneralName]

/**
 * What {@link MockApi.emit | mock.emit} takes: the body of `POST /__mock/events`. `style` may be left out
 * where the name belongs to one style only.
 */
export type EmitEventInput = ResellerEmitInput | GeneralEmitInput

/** The event emitted for an input: its style's shape when known, both for a shared name otherwise. */
export type EmittedEvent<I extends EmitEventInput> = I extends { style: 'general' }
  ? Extract<GeneralEvent, { event: I['event'] }>
  : I extends { style: 'reseller' }
    ? Extract<ResellerEvent, { event: I['event'] }>
    : Extract<WebhookEvent, { event: I['event'] }>

/** The typed control methods of a mock. */
export interface MockControls {
  state(): MockState
  tickets: MockTickets
  emit<const I extends EmitEventInput>(input: I): Promise<EmittedEvent<I>>
}

const noHeaders = { get: () => null }

/** Creates the in-process controls of a mock over its route handler. */
export function createControls(handle: MockHandler, context: MockContext): MockControls {
  /** Runs a control request through the routes; resolves `data`, or rejects with the answer's error. */
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const answer = await handle({
      method,
      path,
      query: new URLSearchParams(),
      headers: noHeaders,
      body: body === undefined ? '' : JSON.stringify(body),
    })
    const parsed = answer.body === '' ? undefined : JSON.parse(answer.body)
    if (answer.status >= 400) {
      const error = parsed?.error ?? {}
      throw new ApiError(answer.status, error.code, error.message, error.fields as FieldErrors | undefined)
    }
    return parsed?.data
  }
  const ticketPath = (uuid: string) => {
    if (typeof uuid !== 'string' || uuid === '')
      throw new TypeError('the ticket uuid must be a non-empty string')
    return `/__mock/tickets/${encodeURIComponent(uuid)}`
  }
  return {
    // The same JSON the endpoint answers, without the round trip through a request.
    state: () => JSON.parse(JSON.stringify(context.store.snapshot({ copy: false }))),
    tickets: {
      staffReply: async (uuid, reply) =>
        (await control('POST', `${ticketPath(uuid)}/replies`, reply)) as StaffReplyResult,
      setStatus: async (uuid, status) => (await control('PATCH', ticketPath(uuid), { status })) as Ticket,
    },
    emit: async (input) => (await control('POST', '/__mock/events', input)) as never,
  }
}
