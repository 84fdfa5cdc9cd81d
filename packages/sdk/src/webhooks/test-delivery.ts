// `generateTestDelivery`: a signed delivery exactly as the service (and the mock) sends it, for the
// unit tests of a receiver. Runtime-neutral: api.ts passes in the synchronous HMAC of `#crypto`.

import { checkEventEnvelope, isKnownEventName } from '../schemas/event-envelope.js'
import type { WebhookEvent } from '../schemas/events.js'
import { describeFieldErrors } from '../schemas/issues.js'
import { type Payload, SIGNATURE_HEADER } from './core.js'
import type { UnknownWebhookEvent, WebhookEventName } from './events.js'
import { type GeneralEventData, isEventOfStyle, type ResellerEventData, sampleEventData } from './samples.js'

/** Header carrying a delivery's id: the same on every attempt of one delivery, a receiver's idempotency key. */
export const DELIVERY_ID_HEADER = 'x-service-delivery'
/** Header carrying the event name, so a receiver can route before parsing the body. */
export const EVENT_HEADER = 'x-service-event'
/** `User-Agent` of the mock's deliveries. */
const USER_AGENT = 'reseller-mock-webhooks/1'

/**
 * The `data` of the event named `N` in the style {@link generateTestDelivery} gives it: general
 * for a name both styles share (`domain.registered`).
 */
export type TestEventData<N extends WebhookEventName> = N extends keyof GeneralEventData
  ? GeneralEventData[N]
  : N extends keyof ResellerEventData
    ? ResellerEventData[N]
    : never

/** Options of {@link generateTestDelivery} given an event name. */
export interface TestDeliveryOptions<N extends WebhookEventName = WebhookEventName> {
  /** The event name; the style is the name's (general for `domain.registered`). */
  event: N
  /** The webhook secret to sign with. */
  secret: string
  /** The event's `data`; default: sample data of that event (see `sampleEventData`). */
  data?: TestEventData<N>
}

/**
 * The form of an event name this SDK version does not know that {@link generateTestDelivery}
 * accepts in a whole event object: dot-separated lower-case words, e.g. `vps.migrated`.
 */
const UNKNOWN_NAME_PATTERN = /^[a-z]+(\.[a-z_]+)+$/

/** Options of {@link generateTestDelivery} given a whole event object. */
export interface TestDeliveryOfEventOptions {
  /**
   * The whole event, sent as it is: reseller style (`sandbox`, `timestamp`) or general
   * (`created_at`). Its name may be one this SDK version does not know, of the form
   * `^[a-z]+(\.[a-z_]+)+$`, to test a receiver with the event types a service adds.
   */
  event: WebhookEvent | UnknownWebhookEvent
  /** The webhook secret to sign with. */
  secret: string
}

/** The headers of a test delivery, in lower case, as the mock's deliveries carry them. */
export interface TestDeliveryHeaders {
  'content-type': 'application/json'
  'user-agent': string
  /** `sha256=<hex>`: {@link SIGNATURE_HEADER}. */
  'x-service-signature': string
  /** A fresh `dlv_…` id: {@link DELIVERY_ID_HEADER}. */
  'x-service-delivery': string
  /** The event name: {@link EVENT_HEADER}. */
  'x-service-event': string
  [name: string]: string
}

/** A delivery to hand to a receiver: the exact body and its headers. */
export interface TestDelivery {
  /** The raw JSON body that was signed. */
  body: string
  /** Plain object of lower-case header names. */
  headers: TestDeliveryHeaders
}

/** ISO 8601 UTC with microseconds, as the service writes `timestamp` (`…:30.123000Z`). */
const utcMicros = (date: Date) => date.toISOString().replace(/Z$/, '000Z')

/** Builds the event for a name: the name's style (general when both), `data` or the sample. */
function eventFor(name: string, data: unknown, now: Date): Record<string, unknown> {
  const general = isEventOfStyle('general', name)
  if (!general && !isEventOfStyle('reseller', name)) {
    throw new TypeError(`generateTestDelivery: unknown event ${JSON.stringify(name)}`)
  }
  if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data))) {
    throw new TypeError('generateTestDelivery: data must be an object')
  }
  const eventData = data ?? sampleEventData(general ? 'general' : 'reseller', name)
  return general
    ? { event: name, created_at: utcMicros(now).replace(/Z$/, '+00:00'), data: eventData }
    : { event: name, sandbox: false, timestamp: utcMicros(now), data: eventData }
}

/** {@link generateTestDelivery} over a synchronous HMAC (lowercase hex). */
export function generateTestDeliveryWith(
  signHex: (payload: Payload, secret: string) => string,
  options: TestDeliveryOptions | TestDeliveryOfEventOptions,
): TestDelivery {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('generateTestDelivery: expected { event, secret, data? }')
  }
  const { event, secret } = options
  const data = (options as { data?: unknown }).data
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('generateTestDelivery: the webhook secret must be a non-empty string')
  }
  let value: Record<string, unknown>
  if (typeof event === 'string') {
    value = eventFor(event, data, new Date())
  } else {
    if (data !== undefined) {
      throw new TypeError('generateTestDelivery: give data inside the event object, not beside it')
    }
    const fields = checkEventEnvelope(event, 'allow')
    if (fields) throw new TypeError(`generateTestDelivery: not an event: ${describeFieldErrors(fields)}`)
    const name = (event as { event: string }).event
    if (!isKnownEventName(name) && !UNKNOWN_NAME_PATTERN.test(name)) {
      throw new TypeError(
        `generateTestDelivery: event ${JSON.stringify(name)} is neither a known event nor a name of the form ${UNKNOWN_NAME_PATTERN.source}`,
      )
    }
    value = event as Record<string, unknown>
  }
  const body = JSON.stringify(value)
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      [SIGNATURE_HEADER]: `sha256=${signHex(body, secret)}`,
      [DELIVERY_ID_HEADER]: `dlv_${crypto.randomUUID().replaceAll('-', '')}`,
      [EVENT_HEADER]: value.event as string,
    },
  }
}
