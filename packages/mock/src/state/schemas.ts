/**
 * Storage schemas: the SDK's wire schemas extended with what the mock keeps beside them (owner,
 * internal flags, secrets). Records are validated with these on every write, and answers are
 * serialized back through the wire schema, which strips the storage-only fields: a field renamed
 * in the SDK breaks the mock's tests instead of drifting silently.
 */
import {
  ApiKey,
  Count,
  Delivery,
  GeneralEventName,
  Id,
  Invoice,
  Scope,
  Service,
  Ticket,
  TicketMessage,
  TimestampMicros,
  WebhookCreated,
  WhmAccount,
  WhmPackage,
} from '@reseller-api/sdk/schemas'
import * as z from 'zod/mini'

/** WHM state of a reseller: `online`, `offline` (503 `whm_unavailable`) or `none` (422 `no_reseller_service`). */
export const WhmStatus = z.enum(['online', 'offline', 'none'])
export type WhmStatus = z.infer<typeof WhmStatus>

/** A reseller: the owner of everything else. */
export const ResellerRow = z.object({
  id: Id,
  name: z.string(),
  wallet_balance: z.number(),
  whm_status: WhmStatus,
  accounts_limit: Count,
  disk_limit_mb: Count,
  bandwidth_limit_mb: Count,
})
export type ResellerRow = z.infer<typeof ResellerRow>

/** An API key of a reseller. `mode` follows the prefix: `svc_test_` keys are sandbox keys. */
export const ApiKeyRow = z.object({
  key: ApiKey,
  reseller_id: Id,
  scopes: z.array(Scope),
  mode: z.enum(['live', 'sandbox']),
})
export type ApiKeyRow = z.infer<typeof ApiKeyRow>

/** A client of a reseller: the owner of hosting accounts. */
export const ClientRow = z.object({ id: Id, reseller_id: Id, name: z.string(), email: z.string() })
export type ClientRow = z.infer<typeof ClientRow>

/** A WHM package of a reseller (wire: `WhmPackage`). */
export const PackageRow = z.extend(WhmPackage, { reseller_id: Id, created_at: TimestampMicros })
export type PackageRow = z.infer<typeof PackageRow>

/** A cPanel account (wire: `WhmAccount`); one record shared by the hosting and WHM routes. */
export const AccountRow = z.extend(WhmAccount, { reseller_id: Id })
export type AccountRow = z.infer<typeof AccountRow>

/** A ticket (wire: `Ticket`, `TicketDetail`); `messages_count` counts the non-internal messages. */
export const TicketRow = z.extend(Ticket, { reseller_id: Id, service_id: z.nullable(z.string()) })
export type TicketRow = z.infer<typeof TicketRow>

/** A ticket message (wire: `TicketMessage`); internal staff notes never leave the mock's state. */
export const MessageRow = z.extend(TicketMessage, { ticket_id: Id, internal: z.boolean() })
export type MessageRow = z.infer<typeof MessageRow>

/** A service of a reseller (wire: `Service`). */
export const ServiceRow = z.extend(Service, { reseller_id: Id })
export type ServiceRow = z.infer<typeof ServiceRow>

/** An invoice of a reseller (wire: `Invoice`). */
export const InvoiceRow = z.extend(Invoice, { reseller_id: Id })
export type InvoiceRow = z.infer<typeof InvoiceRow>

/** The reseller-style webhook of one reseller (`PUT /reseller/webhook`). */
export const ResellerWebhookRow = z.object({
  reseller_id: Id,
  url: z.string(),
  secret: z.string(),
  updated_at: TimestampMicros,
})
export type ResellerWebhookRow = z.infer<typeof ResellerWebhookRow>

/** A general webhook (`POST /webhooks`); `id` is a string such as `wh_1`. */
export const WebhookRow = z.extend(WebhookCreated, { reseller_id: Id, events: z.array(GeneralEventName) })
export type WebhookRow = z.infer<typeof WebhookRow>

/**
 * One delivery of one event to one webhook (wire: `Delivery`). `payload` is the exact JSON body
 * that is signed and sent on every attempt; `attempts` counts the attempts made. A redelivery has
 * its own record and `delivery_id`, and names in `redelivery_of` the delivery whose id its attempts
 * carry in `X-Service-Delivery` (absent from rows stored before redeliveries kept that id).
 */
export const DeliveryRow = z.extend(Delivery, {
  webhook_id: z.string(),
  reseller_id: Id,
  event_id: z.nullable(Id),
  payload: z.string(),
  attempts: Count,
  created_at: TimestampMicros,
  redelivery_of: z.optional(z.nullable(z.string())),
})
export type DeliveryRow = z.infer<typeof DeliveryRow>

/** Styles of event: reseller style goes to `PUT /reseller/webhook`, general style to `POST /webhooks` subscribers. */
export const EventStyle = z.enum(['reseller', 'general'])
export type EventStyle = z.infer<typeof EventStyle>

/** One emitted event in the outbox; `payload` is the wire payload (a `ResellerEvent` or `GeneralEvent`). */
export const EventRow = z.object({
  id: Id,
  reseller_id: Id,
  style: EventStyle,
  event: z.string(),
  sandbox: z.boolean(),
  payload: z.record(z.string(), z.unknown()),
  created_at: TimestampMicros,
})
export type EventRow = z.infer<typeof EventRow>

/** Settings of one mock that the seed sets. */
export const SettingsRow = z.object({ key: z.literal('settings'), domain_price: z.number() })
export type SettingsRow = z.infer<typeof SettingsRow>
