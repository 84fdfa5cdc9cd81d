/**
 * The tables of a store: one per collection, with its primary key and its unique and group indexes
 * (`packages/mock/src/ARCHITECTURE.md`, "The store").
 */
import {
  AccountRow,
  ApiKeyRow,
  ClientRow,
  DeliveryRow,
  EventRow,
  InvoiceRow,
  MessageRow,
  PackageRow,
  ResellerRow,
  ResellerWebhookRow,
  ServiceRow,
  SettingsRow,
  TicketRow,
  WebhookRow,
} from './schemas.js'
import { Table, type TableHost } from './table.js'

/** The tables of one store; every write reports to `host` (undo, commit, validation). */
export function createTables(host: TableHost) {
  return {
    /** One row, key `settings`: what the seed sets for the whole mock (`domain_price`). */
    settings: new Table('settings', SettingsRow, (r) => r.key, host),
    resellers: new Table('resellers', ResellerRow, (r) => r.id, host),
    apiKeys: new Table('apiKeys', ApiKeyRow, (r) => r.key, host, {
      groups: { reseller: (r) => r.reseller_id },
    }),
    clients: new Table('clients', ClientRow, (r) => r.id, host, {
      groups: { reseller: (r) => r.reseller_id },
    }),
    /** Key `${reseller_id}/${name}`. */
    packages: new Table('packages', PackageRow, (r) => packageKey(r.reseller_id, r.name), host, {
      groups: { reseller: (r) => r.reseller_id },
    }),
    /** Key: username (unique across all resellers); unique `domain` (lower case) across all resellers. */
    accounts: new Table('accounts', AccountRow, (r) => r.username, host, {
      unique: { domain: (r) => r.domain.toLowerCase() },
      groups: {
        reseller: (r) => r.reseller_id,
        package: (r) => packageKey(r.reseller_id, r.whm_package),
      },
    }),
    tickets: new Table('tickets', TicketRow, (r) => r.id, host, {
      unique: { uuid: (r) => r.uuid },
      groups: { reseller: (r) => r.reseller_id },
    }),
    messages: new Table('messages', MessageRow, (r) => r.id, host, {
      groups: { ticket: (r) => r.ticket_id },
    }),
    services: new Table('services', ServiceRow, (r) => r.id, host, {
      groups: { reseller: (r) => r.reseller_id },
    }),
    invoices: new Table('invoices', InvoiceRow, (r) => r.id, host, {
      groups: { reseller: (r) => r.reseller_id },
    }),
    /** Key: reseller id; at most one reseller-style webhook per reseller. */
    resellerWebhooks: new Table('resellerWebhooks', ResellerWebhookRow, (r) => r.reseller_id, host),
    webhooks: new Table('webhooks', WebhookRow, (r) => r.id, host, {
      groups: { reseller: (r) => r.reseller_id },
    }),
    deliveries: new Table('deliveries', DeliveryRow, (r) => r.delivery_id, host, {
      // `owner` (reseller and webhook) bounds the history per webhook: `state/retention.ts`.
      groups: { webhook: (r) => r.webhook_id, owner: deliveryOwnerKey },
    }),
    /** The event outbox, oldest first; see `state/events.ts`. */
    events: new Table('events', EventRow, (r) => r.id, host, { groups: { reseller: (r) => r.reseller_id } }),
  }
}

/** Every table of a store. */
export type Tables = ReturnType<typeof createTables>

/** Primary key of a package row. */
export function packageKey(resellerId: number, name: string): string {
  return `${resellerId}/${name}`
}

/** Group key of a delivery's webhook: the reseller webhook is one per reseller, general ids are unique. */
export function deliveryOwnerKey(row: Pick<DeliveryRow, 'reseller_id' | 'webhook_id'>): string {
  return `${row.reseller_id}/${row.webhook_id}`
}
