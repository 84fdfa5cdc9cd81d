// Types, constants and error classes of `@reseller-api/sdk/webhooks`, identical in its default
// (Web Crypto) and `node` (node:crypto) entries.

export type {
  GeneralEvent,
  GeneralEventName,
  ResellerEvent,
  ResellerEventName,
  WebhookEvent,
} from '../schemas/events.js'
export { type Payload, SIGNATURE_HEADER } from './core.js'
export {
  isWebhookPayloadError,
  isWebhookVerificationError,
  type SignatureFailure,
  WebhookPayloadError,
  WebhookVerificationError,
} from './errors.js'
export type { WebhookEventName, WebhookEventOf } from './events.js'
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
