/**
 * Emitting any event of the API on demand (`POST /__mock/events`, `mock.emit`): the test's hand on
 * the events no API operation of the mock causes (`vps.activated`, `payment.failed`, …). The
 * event goes through the real delivery path: the outbox, then the dispatcher, which signs and
 * sends it to the reseller webhook (reseller style) or to the subscribed general webhooks.
 */
import {
  fieldErrors,
  GENERAL_EVENTS,
  GeneralEvent,
  Id,
  RESELLER_EVENTS,
  ResellerEvent,
  type WebhookEvent,
} from '@reseller-api/sdk/schemas'
import { sampleEventData } from '@reseller-api/sdk/webhooks'
import * as z from 'zod/mini'
import { errors } from '../errors.js'
import type { EventStyle } from '../state/schemas.js'
import type { DomainContext } from './context.js'

/** Body of `POST /__mock/events`, and the input of `mock.emit`. */
export const EmitEventBody = z.strictObject({
  reseller_id: Id,
  style: z.optional(z.enum(['reseller', 'general'], { error: 'must be "reseller" or "general"' })),
  event: z.string('must be an event name'),
  data: z.optional(z.record(z.string(), z.unknown())),
  sandbox: z.optional(z.boolean()),
})
export type EmitEventBody = z.output<typeof EmitEventBody>

const RESELLER_NAMES: ReadonlySet<string> = new Set(RESELLER_EVENTS)
const GENERAL_NAMES: ReadonlySet<string> = new Set(GENERAL_EVENTS)

/** The style of `event` given `style` (or inferred), or the message saying why there is none. */
function styleOf(
  event: string,
  style: EventStyle | undefined,
): { style: EventStyle } | { error: [string, string] } {
  const reseller = RESELLER_NAMES.has(event)
  const general = GENERAL_NAMES.has(event)
  if (!reseller && !general) {
    return {
      error: [
        'event',
        `unknown event ${JSON.stringify(event)}: one of ${[...RESELLER_EVENTS, ...GENERAL_EVENTS.filter((e) => !RESELLER_NAMES.has(e))].join(', ')}`,
      ],
    }
  }
  if (style === undefined) {
    if (reseller && general) {
      return { error: ['style', `is required: ${event} exists in both styles ("reseller" or "general")`] }
    }
    return { style: reseller ? 'reseller' : 'general' }
  }
  if (style === 'reseller' ? !reseller : !general) {
    return {
      error: [
        'style',
        `${event} is not a ${style}-style event (it is ${reseller ? 'reseller' : 'general'}-style)`,
      ],
    }
  }
  return { style }
}

/**
 * Checks `body` (every rule at once: unknown reseller, event, style, sandbox, `data` against the
 * event's SDK schema; 422 naming each field) and emits the event. Returns the event as receivers get it.
 */
export function emitEvent(mock: DomainContext, body: EmitEventBody): WebhookEvent {
  // A Map: field names derive from the client's `data` keys, which may be `__proto__` or `constructor`.
  const fields = new Map<string, string[]>()
  const fail = (field: string, message: string) => {
    const messages = fields.get(field)
    if (messages) messages.push(message)
    else fields.set(field, [message])
  }
  if (!mock.store.resellers.get(body.reseller_id))
    fail('reseller_id', `no reseller with id ${body.reseller_id}`)
  const styled = styleOf(body.event, body.style)
  if ('error' in styled) fail(...styled.error)
  const style = 'style' in styled ? styled.style : undefined
  if (style === 'general' && body.sandbox === true) {
    fail(
      'sandbox',
      'only reseller-style events have a sandbox form (general-style payloads carry no sandbox field)',
    )
  }
  if (style !== undefined) {
    const data = body.data ?? sampleEventData(style, body.event)
    // The payload as the outbox will build it, checked now so that `data` errors name their field.
    // `reportInput` lets a missing field read `is required`, not as a value of the wrong type.
    const probe =
      style === 'reseller'
        ? ResellerEvent.safeParse(
            { event: body.event, sandbox: false, timestamp: '2026-01-01T00:00:00Z', data },
            { reportInput: true },
          )
        : GeneralEvent.safeParse(
            { event: body.event, created_at: '2026-01-01T00:00:00+00:00', data },
            { reportInput: true },
          )
    if (!probe.success)
      for (const [field, messages] of Object.entries(fieldErrors(probe.error.issues))) {
        for (const message of messages) fail(field, message)
      }
    if (fields.size === 0) {
      const row = mock.emit({
        resellerId: body.reseller_id,
        style,
        event: body.event,
        sandbox: body.sandbox ?? false,
        data: data as Record<string, unknown>,
      })
      return row.payload as WebhookEvent
    }
  }
  throw errors.validation(Object.fromEntries(fields))
}
