import type { WebhookEvent } from '../schemas/events.js'

/** The name of any webhook event, reseller or general style. */
export type WebhookEventName = WebhookEvent['event']

/**
 * The event type(s) with the given name, e.g. `WebhookEventOf<'vps.activated'>`. A name both styles
 * use (`domain.registered`) gives both shapes.
 */
export type WebhookEventOf<Name extends WebhookEventName> = Extract<WebhookEvent, { event: Name }>

/**
 * A verified event whose name this version of the SDK does not know (see
 * `WebhookUnknownEventError`): the envelope of its style is checked, `data` is an object whose
 * content is not known. New fields of a newer service stay readable.
 */
export type UnknownWebhookEvent = UnknownResellerStyleEvent | UnknownGeneralStyleEvent

/** An unknown event of the reseller style (`sandbox`, `timestamp`). */
export interface UnknownResellerStyleEvent {
  /** The event name, e.g. `vps.migrated`. */
  event: string
  /** Whether a sandbox key caused it. */
  sandbox: boolean
  /** ISO 8601 UTC (`…Z`). */
  timestamp: string
  /** The event's data, of a shape this SDK version does not know. */
  data: Record<string, unknown>
  /** Fields a newer service may add to the envelope. */
  [field: string]: unknown
}

/** An unknown event of the general style (`created_at`). */
export interface UnknownGeneralStyleEvent {
  /** The event name, e.g. `service.migrated`. */
  event: string
  /** ISO 8601 with a numeric offset (`…+00:00`). */
  created_at: string
  /** The event's data, of a shape this SDK version does not know. */
  data: Record<string, unknown>
  /** Fields a newer service may add to the envelope. */
  [field: string]: unknown
}
