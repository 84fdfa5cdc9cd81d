/**
 * The app's logic, free of the DOM and of how requests reach the API, so that the same code runs in
 * the page (against the mock through MSW's service worker) and in a Node test (through mock.fetch).
 */
import type { ResellerApi, Ticket, WebhookCreated } from '@reseller-api/sdk'
import { constructEvent, verifySignature, type WebhookEvent } from '@reseller-api/sdk/webhooks'

/** The demo seed's key with every scope. */
export const API_KEY = 'svc_live_acme_full'

/** A delivery as the mock's control endpoint `GET /__mock/deliveries` shows it. */
interface DeliveryView {
  webhook_id: string
  payload: string
  signature: string | null
}

/** What the app checked of the last delivery to its webhook. */
export interface CheckedDelivery {
  /** The event, parsed and typed by `constructEvent` after its signature was verified. */
  event: WebhookEvent
  /** Whether a copy with one byte changed also passed verification: it must not. */
  tamperedAccepted: boolean
}

/** A support desk: lists and opens tickets, and checks the webhook deliveries they cause. */
export interface SupportDesk {
  /** The newest tickets (first page). */
  tickets(): Promise<Ticket[]>
  /** Opens a ticket; resolves its uuid. */
  open(subject: string, message: string): Promise<string>
  /** Verifies the newest delivery to the desk's webhook, as its receiver would; `null` before any. */
  lastDelivery(): Promise<CheckedDelivery | null>
}

/**
 * Creates the desk: subscribes a general webhook at `receiverUrl` to `ticket.created` (keeping its
 * secret, which the API shows only once) and reads deliveries through `controlFetch`.
 */
export async function createSupportDesk(
  api: ResellerApi,
  options: { baseUrl: string; receiverUrl: string; controlFetch?: typeof fetch },
): Promise<SupportDesk> {
  const controlFetch = options.controlFetch ?? fetch
  const webhook: WebhookCreated = await api.webhooks.create({
    url: options.receiverUrl,
    events: ['ticket.created'],
  })
  return {
    async tickets() {
      return (await api.tickets.list()).data
    },
    async open(subject, message) {
      const created = await api.tickets.create({
        subject,
        message,
        department: 'technical',
        priority: 'normal',
      })
      return created.ticket_id
    },
    async lastDelivery() {
      const response = await controlFetch(`${options.baseUrl}/__mock/deliveries`)
      const { data } = (await response.json()) as { data: DeliveryView[] }
      const delivery = data.find((d) => d.webhook_id === webhook.id)
      if (!delivery) return null
      // What a receiver does with the raw body and the x-service-signature header.
      const event = await constructEvent(delivery.payload, delivery.signature, webhook.secret)
      const tampered = delivery.payload.replace('"ticket.created"', '"ticket.createD"')
      return { event, tamperedAccepted: await verifySignature(tampered, delivery.signature, webhook.secret) }
    },
  }
}
