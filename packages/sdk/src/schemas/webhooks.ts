import * as z from 'zod/mini'
import { Count, TimestampMicros } from './common.js'
import { GENERAL_EVENTS } from './event-envelope.js'
import { GeneralEventName } from './events.js'

/** Any URL that parses; where it may point is judged by the server (see {@link SecureWebhookUrl}). */
export const WebhookUrl = z.url({ error: 'must be a valid URL' })

/** Whether a host name or IP literal names this machine or a private, link-local or reserved network. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '')
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal')
  ) {
    return true
  }
  const v4 = host.match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/)
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])]
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    )
  }
  if (host.includes(':')) {
    return (
      host === '::' ||
      host === '::1' ||
      host.startsWith('fc') ||
      host.startsWith('fd') ||
      host.startsWith('fe80') ||
      host.startsWith('::ffff:')
    )
  }
  return !host.includes('.')
}

/** A general webhook target as the service requires it: HTTPS, on a public host (spec §2.11, §8). */
export const SecureWebhookUrl = WebhookUrl.check(
  z.refine((url) => url.startsWith('https://'), 'must be an https:// URL: HTTP is refused'),
  z.refine((url) => {
    try {
      return !isPrivateHost(new URL(url).hostname)
    } catch {
      return false
    }
  }, 'must point to a public host: loopback, private and link-local addresses are refused'),
)

/** Body of `POST /webhooks`. */
export const WebhookCreateBody = z.strictObject({
  url: WebhookUrl,
  events: z.array(GeneralEventName).check(
    z.minLength(1, 'must list at least one event'),
    z.refine((events) => new Set(events).size === events.length, 'must not list an event twice'),
  ),
})
/** Body of `POST /webhooks`. */
export type WebhookCreateBody = z.infer<typeof WebhookCreateBody>

/** A general webhook as created: the only answer that carries its `secret`. */
export const WebhookCreated = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  secret: z.string(),
  created_at: TimestampMicros,
})
/** A general webhook as created. */
export type WebhookCreated = z.infer<typeof WebhookCreated>

/** Events the general test endpoint may send: any general event, or `test`. */
export const TEST_EVENTS = ['test', ...GENERAL_EVENTS] as const

/** Body of `POST /webhooks/{id}/test`; `event` defaults to `test`. */
export const WebhookTestBody = z.strictObject({
  event: z._default(z.enum(TEST_EVENTS, { error: `must be one of ${TEST_EVENTS.join(', ')}` }), 'test'),
})
/** What `api.webhooks.test` takes. */
export type WebhookTestParams = z.input<typeof WebhookTestBody>

/** States of a general delivery: `pending` until its first attempt. */
export const DELIVERY_STATUSES = ['pending', 'success', 'failed'] as const
/** State of a general delivery. */
export const DeliveryStatus = z.enum(DELIVERY_STATUSES)
/** State of a general delivery. */
export type DeliveryStatus = z.infer<typeof DeliveryStatus>

/**
 * One delivery of one event to one general webhook (spec §2.11), across all its attempts.
 * `http_status` and `error` describe the last attempt; `http_status` is null when no HTTP answer came.
 */
export const Delivery = z.object({
  delivery_id: z.string(),
  event: z.string(),
  status: DeliveryStatus,
  http_status: z.nullable(z.int()),
  duration_ms: z.optional(Count),
  error: z.optional(z.string()),
  retries: Count,
  attempted_at: z.nullable(TimestampMicros),
  next_attempt_at: z.nullable(TimestampMicros),
})
/** One delivery of one event to one general webhook. */
export type Delivery = z.infer<typeof Delivery>
