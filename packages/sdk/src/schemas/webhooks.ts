import * as z from 'zod/mini'
import { Count, TimestampMicros } from './common.js'
import { dnsHostName } from './dns.js'
import { GENERAL_EVENTS } from './event-envelope.js'
import { GeneralEventName } from './events.js'

/**
 * An `http://` or `https://` URL with a host DNS can carry (253 characters, labels of 63). Whether
 * it may be HTTP or point at a local host is judged by the server alone: the mock's
 * `insecureWebhooks` accepts local `http://` receivers.
 */
export const WebhookUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .check(dnsHostName)

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
 * One delivery of one event to one general webhook, across all its attempts.
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
