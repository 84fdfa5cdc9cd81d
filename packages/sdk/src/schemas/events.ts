import * as z from 'zod/mini'
import { Id, TimestampUtc, TimestampWithOffset, Uuid } from './common.js'
import { GENERAL_EVENTS, RESELLER_EVENTS } from './event-envelope.js'

/** A reseller-style event name. */
export const ResellerEventName = z.enum(RESELLER_EVENTS)
/** A reseller-style event name. */
export type ResellerEventName = z.infer<typeof ResellerEventName>

/** A general-style event name; wildcards such as `*` are refused. */
export const GeneralEventName = z.enum(GENERAL_EVENTS, {
  error: (issue) =>
    typeof issue.input === 'string' && issue.input.includes('*')
      ? `wildcards are not allowed ("${issue.input}"): list event names`
      : `must be one of ${GENERAL_EVENTS.join(', ')}`,
})
/** A general-style event name. */
export type GeneralEventName = z.infer<typeof GeneralEventName>

/** Event data with no documented shape. */
const AnyData = z.record(z.string(), z.unknown())

/** `vps.activated` data. */
export const VpsActivatedData = z.object({
  client_id: Id,
  order_uuid: z.string(),
  server_id: Id,
  ipv4: z.string(),
  status: z.string(),
})

/** `hosting.created` data, as the reference mock sends it (docs/spec-decisions.md). */
export const HostingCreatedData = z.object({
  client_id: Id,
  domain: z.string(),
  username: z.string(),
  whm_package: z.string(),
})

/** `domain.registered` data, as the reference mock sends it. */
export const DomainRegisteredData = z.object({ client_id: Id, domain: z.string() })

/** `wallet.debited` / `wallet.credited` data, as the reference mock sends it. */
export const WalletChangeData = z.object({ amount: z.number(), balance: z.number(), reason: z.string() })

const resellerEvent = <E extends ResellerEventName, D extends z.ZodMiniType>(event: E, data: D) =>
  z.object({ event: z.literal(event), sandbox: z.boolean(), timestamp: TimestampUtc, data })

/** A reseller-style event, discriminated by `event`. */
export const ResellerEvent = z.discriminatedUnion('event', [
  resellerEvent('hosting.created', HostingCreatedData),
  resellerEvent('domain.registered', DomainRegisteredData),
  resellerEvent('vps.provisioning', AnyData),
  resellerEvent('vps.activated', VpsActivatedData),
  resellerEvent('email.provisioning', AnyData),
  resellerEvent('email.activated', AnyData),
  resellerEvent('wallet.debited', WalletChangeData),
  resellerEvent('wallet.credited', WalletChangeData),
])
/** A reseller-style event. */
export type ResellerEvent = z.infer<typeof ResellerEvent>

/** `ticket.created` data, as the reference mock sends it. */
export const TicketCreatedData = z.object({
  ticket_id: Uuid,
  subject: z.string(),
  department: z.string(),
  priority: z.string(),
  status: z.string(),
})

/** `ticket.replied` data, as the reference mock sends it. */
export const TicketRepliedData = z.object({
  ticket_id: Uuid,
  message_id: Id,
  message: z.string(),
  status: z.string(),
})

const generalEvent = <E extends string, D extends z.ZodMiniType>(event: E, data: D) =>
  z.object({ event: z.literal(event), created_at: TimestampWithOffset, data })

/** A general-style event, discriminated by `event`; `test` is what the test endpoint sends. */
export const GeneralEvent = z.discriminatedUnion('event', [
  generalEvent('service.activated', AnyData),
  generalEvent('service.suspended', AnyData),
  generalEvent('service.cancelled', AnyData),
  generalEvent('payment.completed', AnyData),
  generalEvent('payment.failed', AnyData),
  generalEvent('domain.registered', AnyData),
  generalEvent('domain.renewed', AnyData),
  generalEvent('ticket.created', TicketCreatedData),
  generalEvent('ticket.replied', TicketRepliedData),
  generalEvent('test', AnyData),
])
/** A general-style event. */
export type GeneralEvent = z.infer<typeof GeneralEvent>

/** Any webhook event: reseller style (has `sandbox` and `timestamp`) or general style (has `created_at`). */
export const WebhookEvent = z.union([ResellerEvent, GeneralEvent])
/** Any webhook event. Narrow on `event`, and on `'sandbox' in event` for names both styles share. */
export type WebhookEvent = z.infer<typeof WebhookEvent>
