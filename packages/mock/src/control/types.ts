/**
 * Types of the control endpoints' answers and inputs that their schemas cannot state as precisely:
 * the state's tables by name, a staff reply, and `emit`'s input typed per event name. Shared by the
 * in-process controls (`mock.state()`, `mock.tickets`, `mock.emit`: `controls.ts`) and the control
 * client (`client.ts`).
 */
import type { GeneralEvent, MessageAuthor, ResellerEvent, WebhookEvent } from '@reseller-api/sdk/schemas'
import type { GeneralEventData, ResellerEventData } from '@reseller-api/sdk/webhooks'
import type { StoreSnapshot } from '../state/snapshot.js'
import type { Table } from '../state/table.js'
import type { Tables } from '../state/tables.js'

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
