// Sample `data` for every webhook event, in the shapes the SDK's schemas type: what
// `generateTestDelivery` fills in, and what the mock's `emit` sends when no `data` is given.
// Plain objects only (no zod): this module is part of the webhooks entry.

import type { GeneralEvent, ResellerEvent } from '../schemas/events.js'

/** The `data` of each reseller-style event, by name. */
export type ResellerEventData = { [E in ResellerEvent as E['event']]: E['data'] }
/** The `data` of each general-style event, by name (`test` included: the test endpoint's event). */
export type GeneralEventData = { [E in GeneralEvent as E['event']]: E['data'] }

/** The style of a webhook event: sent to the reseller webhook, or to subscribed general webhooks. */
export type EventStyle = 'reseller' | 'general'

const ORDER_UUID = '3f1c2a9e-5b7d-4e21-9c8a-6d0e4f2b1a77'
const TICKET_UUID = '9311f123-4c5d-4e6f-8a7b-2c3d4e5f6a7b'
const SERVICE_UUID = '7d1f3a52-6c1e-4b8e-9a55-0c6f1d2e3a01'

const RESELLER_SAMPLES: ResellerEventData = {
  'hosting.created': {
    client_id: 501,
    domain: 'client.example',
    username: 'clientex',
    whm_package: 'starter',
  },
  'domain.registered': { client_id: 501, domain: 'client.example' },
  'vps.provisioning': { client_id: 501, order_uuid: ORDER_UUID, status: 'provisioning' },
  'vps.activated': {
    client_id: 501,
    order_uuid: ORDER_UUID,
    server_id: 42,
    ipv4: '203.0.113.10',
    status: 'active',
  },
  'email.provisioning': { client_id: 501, domain: 'client.example', status: 'provisioning' },
  'email.activated': { client_id: 501, domain: 'client.example', status: 'active' },
  'wallet.debited': { amount: 12.5, balance: 87.5, reason: 'domain registration: client.example' },
  'wallet.credited': { amount: 50, balance: 137.5, reason: 'top-up' },
}

const service = (status: string) => ({
  service_id: SERVICE_UUID,
  type: 'hosting',
  name: 'Hosting plan',
  status,
})
const payment = (status: string) => ({
  invoice_id: 7,
  number: 'INV-000007',
  amount: 29.9,
  currency: 'EUR',
  status,
})

// The calls are marked pure so that a bundle that never reads the samples drops them.
const GENERAL_SAMPLES: GeneralEventData = {
  'service.activated': /* @__PURE__ */ service('active'),
  'service.suspended': /* @__PURE__ */ service('suspended'),
  'service.cancelled': /* @__PURE__ */ service('cancelled'),
  'payment.completed': /* @__PURE__ */ payment('paid'),
  'payment.failed': /* @__PURE__ */ payment('failed'),
  'domain.registered': { domain: 'client.example', expires_at: '2027-11-23T00:00:00+00:00' },
  'domain.renewed': { domain: 'client.example', expires_at: '2028-11-23T00:00:00+00:00' },
  'ticket.created': {
    ticket_id: TICKET_UUID,
    subject: 'SSL for client.example',
    department: 'technical',
    priority: 'normal',
    status: 'open',
  },
  'ticket.replied': {
    ticket_id: TICKET_UUID,
    message_id: 2,
    message: 'Certificate issued.',
    status: 'in_progress',
  },
  test: { message: 'This is a test event.' },
}

/** Whether `event` names an event of `style`. */
export function isEventOfStyle(style: EventStyle, event: string): boolean {
  return Object.hasOwn(style === 'reseller' ? RESELLER_SAMPLES : GENERAL_SAMPLES, event)
}

/**
 * Sample `data` for an event, valid against the SDK's schema of that event: a fresh copy, yours to
 * change. The mock's `emit` and {@link generateTestDelivery} fill it in when no `data` is given.
 *
 * @param style - `'reseller'` or `'general'`
 * @param event - an event name of that style
 * @returns the sample data, or `undefined` for a name the style does not have
 */
export function sampleEventData<N extends keyof ResellerEventData>(
  style: 'reseller',
  event: N,
): ResellerEventData[N]
export function sampleEventData<N extends keyof GeneralEventData>(
  style: 'general',
  event: N,
): GeneralEventData[N]
export function sampleEventData(style: EventStyle, event: string): Record<string, unknown> | undefined
export function sampleEventData(style: EventStyle, event: string): Record<string, unknown> | undefined {
  if (!isEventOfStyle(style, event)) return undefined
  const samples: Record<string, Record<string, unknown>> = style === 'reseller'
    ? RESELLER_SAMPLES
    : GENERAL_SAMPLES
  return structuredClone(samples[event])
}
