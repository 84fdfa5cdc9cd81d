/**
 * Webhook helpers for the reseller hosting API: verify the `x-service-signature` header, parse the
 * typed event, and receive deliveries in any runtime.
 *
 * The signature is `sha256=` followed by the hex HMAC-SHA256 of the raw body, keyed with the
 * webhook's secret. This entry loads neither the HTTP client nor ky. In Node (the `node` export
 * condition, also honoured by Bun and Deno) it uses `node:crypto`; everywhere else Web Crypto.
 * Both give the same results, with the same functions and types: the package ships one build per
 * backend of this one module.
 *
 * @example
 * ```ts
 * import { constructEvent, SIGNATURE_HEADER } from '@reseller-api/sdk/webhooks'
 *
 * const event = await constructEvent(rawBody, request.headers.get(SIGNATURE_HEADER), secret)
 * if (event.event === 'vps.activated') console.log(event.data.ipv4)
 * ```
 *
 * @packageDocumentation
 */

export type {
  GeneralEvent,
  GeneralEventName,
  ResellerEvent,
  ResellerEventName,
  WebhookEvent,
} from '../schemas/events.js'
export {
  constructEvent,
  createFetchHandler,
  createNodeHandler,
  generateTestDelivery,
  signPayload,
  verifySignature,
} from './api.js'
export { type Payload, SIGNATURE_HEADER, type WebhookSecret } from './core.js'
export type { DedupeStore } from './dedupe.js'
export {
  isWebhookPayloadError,
  isWebhookUnknownEventError,
  isWebhookVerificationError,
  type SignatureFailure,
  WebCryptoUnavailableError,
  WebhookPayloadError,
  WebhookUnknownEventError,
  WebhookVerificationError,
} from './errors.js'
export type {
  UnknownGeneralStyleEvent,
  UnknownResellerStyleEvent,
  UnknownWebhookEvent,
  WebhookEventName,
  WebhookEventOf,
} from './events.js'
export type { FetchHandler, FetchHandlerOptions } from './fetch-handler.js'
export type {
  NodeHandler,
  NodeHandlerOptions,
  NodeWebhookRequest,
  NodeWebhookResponse,
} from './node-handler.js'
export { DEFAULT_MAX_BODY_BYTES, type WebhookHandlerOptions } from './receive.js'
export {
  type EventStyle,
  type GeneralEventData,
  type ResellerEventData,
  sampleEventData,
} from './samples.js'
export {
  DELIVERY_ID_HEADER,
  EVENT_HEADER,
  type TestDelivery,
  type TestDeliveryHeaders,
  type TestDeliveryOfEventOptions,
  type TestDeliveryOptions,
  type TestEventData,
} from './test-delivery.js'
