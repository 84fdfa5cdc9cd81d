/**
 * What the OpenAPI document says about each route of the mock's table (`handlers/index.ts`), keyed
 * by `METHOD path` exactly as the route is declared. It lives beside the route table, not in the
 * SDK, because the table is the list of operations (a route without an entry here fails
 * `test/openapi.test.ts`) and the control endpoints' schemas are the mock's own. Every schema named
 * here IS the schema the route parses its body with or answers through: nothing is copied
 * (`test/openapi.test.ts` watches each route read its body, query and page while the examples run).
 *
 * Access (key, scope, sandbox refusal) and deprecation come from the route itself; the error
 * answers are derived from them (see `errorsOf` in `document.ts`). Only business-rule codes that
 * the access rules cannot tell are listed here (`errors`).
 *
 * Not imported by the package's entries: the build (`scripts/openapi.mjs`) and the tests read it.
 */
import {
  Delivery,
  HostingCreateBody,
  HostingCreated,
  Invoice,
  ResellerWebhook,
  ResellerWebhookTestResult,
  ResellerWebhookUpdateBody,
  Service,
  Ticket,
  TicketCreateBody,
  TicketCreated,
  TicketDetail,
  TicketMessage,
  TicketReplyBody,
  TicketStatusChange,
  WebhookCreateBody,
  WebhookCreated,
  WebhookTestBody,
  WhmAccount,
  WhmAccountDeleted,
  WhmPackage,
  WhmPackageCreateBody,
  WhmPackageDeleted,
  WhmUsage,
} from '@reseller-api/sdk/schemas'
import { LegacyAccountCreateBody } from '../handlers/hosting.js'
import { controlOperations } from './control-operations.js'
import { account, acmeDelivery, ticketUuid } from './demo-state.js'
import type { OperationDoc } from './operation-doc.js'

const provisioning = {
  422: ['quota_exceeded', 'domain_taken', 'insufficient_funds'],
}

/** The document's text for every route of the table. */
export const operations: Record<string, OperationDoc> = {
  // ── Reseller hosting ──
  'POST /api/v1/reseller/clients/:client_id/hosting': {
    operationId: 'createHosting',
    summary: 'Create a cPanel hosting account for a client',
    description:
      'Uses one slot of the WHM plan; with `register_domain` the wallet is debited for the domain only. ' +
      'A sandbox key gets the simulated answer and changes nothing.',
    body: HostingCreateBody,
    answer: {
      status: 201,
      data: HostingCreated,
      description: 'The account (live) or its simulation (sandbox)',
    },
    errors: provisioning,
    example: { params: { client_id: '503' }, body: { domain: 'new-site.example', whm_package: 'starter' } },
  },
  'POST /api/v1/reseller/clients/:client_id/hosting/:cpanel_username/suspend': {
    operationId: 'suspendHosting',
    summary: "Suspend a client's hosting account",
    answer: { status: 200, data: WhmAccount, description: 'The account, suspended' },
    errors: { 422: ['invalid_state'] },
    example: {
      params: (s) => ({ client_id: '501', cpanel_username: account(s, 'active').username }),
    },
  },
  'POST /api/v1/reseller/clients/:client_id/hosting/:cpanel_username/unsuspend': {
    operationId: 'unsuspendHosting',
    summary: "Unsuspend a client's hosting account",
    answer: { status: 200, data: WhmAccount, description: 'The account, active again' },
    errors: { 422: ['invalid_state'] },
    example: {
      params: (s) => ({ client_id: '502', cpanel_username: account(s, 'suspended').username }),
    },
  },
  'DELETE /api/v1/reseller/clients/:client_id/hosting/:cpanel_username': {
    operationId: 'deleteHosting',
    summary: "Delete a client's hosting account",
    answer: { status: 200, data: WhmAccountDeleted, description: 'The account is gone; its slot is free' },
    example: { params: (s) => ({ client_id: '501', cpanel_username: account(s, 'active').username }) },
  },
  'POST /api/v1/reseller/accounts': {
    operationId: 'createAccountLegacy',
    summary: 'Create a hosting account (deprecated form with `client_id` in the body)',
    body: LegacyAccountCreateBody,
    answer: { status: 201, data: HostingCreated, description: 'As the successor answers' },
    // The client id is in the body: an unknown client is a 404 that no path parameter implies.
    errors: { 404: ['not_found'], ...provisioning },
    example: { body: { client_id: 503, domain: 'legacy-site.example', whm_package: 'starter' } },
  },

  // ── Direct WHM access ──
  'GET /api/v1/reseller/whm/usage': {
    operationId: 'getWhmUsage',
    summary: 'WHM usage and limits of the reseller plan',
    answer: { status: 200, data: WhmUsage, description: 'Usage and limits' },
    example: {},
  },
  'GET /api/v1/reseller/whm/accounts': {
    operationId: 'listWhmAccounts',
    summary: 'List the WHM accounts, newest first',
    answer: { status: 200, page: WhmAccount, description: 'One page of accounts' },
    example: {},
  },
  'GET /api/v1/reseller/whm/accounts/:username': {
    operationId: 'getWhmAccount',
    summary: 'One WHM account',
    answer: { status: 200, data: WhmAccount, description: 'The account' },
    example: { params: (s) => ({ username: account(s, 'active').username }) },
  },
  'POST /api/v1/reseller/whm/accounts/:username/suspend': {
    operationId: 'suspendWhmAccount',
    summary: 'Suspend a WHM account',
    answer: { status: 200, data: WhmAccount, description: 'The account, suspended' },
    errors: { 422: ['invalid_state'] },
    example: { params: (s) => ({ username: account(s, 'active').username }) },
  },
  'POST /api/v1/reseller/whm/accounts/:username/unsuspend': {
    operationId: 'unsuspendWhmAccount',
    summary: 'Unsuspend a WHM account',
    answer: { status: 200, data: WhmAccount, description: 'The account, active again' },
    errors: { 422: ['invalid_state'] },
    example: { params: (s) => ({ username: account(s, 'suspended').username }) },
  },
  'DELETE /api/v1/reseller/whm/accounts/:username': {
    operationId: 'deleteWhmAccount',
    summary: 'Delete a WHM account',
    answer: { status: 200, data: WhmAccountDeleted, description: 'The account is gone' },
    example: { params: (s) => ({ username: account(s, 'active').username }) },
  },
  'GET /api/v1/reseller/whm/packages': {
    operationId: 'listWhmPackages',
    summary: 'List the WHM packages, newest first',
    answer: { status: 200, page: WhmPackage, description: 'One page of packages' },
    example: {},
  },
  'POST /api/v1/reseller/whm/packages': {
    operationId: 'createWhmPackage',
    summary: 'Create a WHM package',
    body: WhmPackageCreateBody,
    answer: { status: 201, data: WhmPackage, description: 'The package' },
    example: {
      body: {
        name: 'premium',
        quota: 10240,
        bandwidth: 102400,
        maxsql: 20,
        maxpop: 100,
        maxftp: 10,
        maxsub: 20,
      },
    },
  },
  'DELETE /api/v1/reseller/whm/packages/:name': {
    operationId: 'deleteWhmPackage',
    summary: 'Delete a WHM package no account uses',
    answer: { status: 200, data: WhmPackageDeleted, description: 'The package is gone' },
    errors: { 422: ['invalid_state'] },
    example: { params: { name: 'unlimited' } },
  },
  'GET /api/v1/reseller/accounts': {
    operationId: 'listAccountsLegacy',
    summary: 'List the WHM accounts (deprecated path)',
    answer: { status: 200, page: WhmAccount, description: 'As the successor answers' },
    example: {},
  },
  'GET /api/v1/reseller/packages': {
    operationId: 'listPackagesLegacy',
    summary: 'List the WHM packages (deprecated path)',
    answer: { status: 200, page: WhmPackage, description: 'As the successor answers' },
    example: {},
  },
  'GET /api/v1/reseller/usage': {
    operationId: 'getUsageLegacy',
    summary: 'WHM usage (deprecated path)',
    answer: { status: 200, data: WhmUsage, description: 'As the successor answers' },
    example: {},
  },

  // ── Support tickets ──
  'GET /api/v1/support/tickets': {
    operationId: 'listTickets',
    summary: 'List tickets, newest first',
    answer: { status: 200, page: Ticket, description: 'One page of tickets' },
    example: {},
  },
  'POST /api/v1/support/tickets': {
    operationId: 'createTicket',
    summary: 'Open a ticket with its first message',
    description: 'Emits `ticket.created` to the general webhooks subscribed to it.',
    body: TicketCreateBody,
    answer: { status: 201, data: TicketCreated, description: 'The new ticket, `open`' },
    example: {
      body: {
        subject: 'Site down',
        message: 'example.com answers 500 since 10:00.',
        department: 'technical',
      },
    },
  },
  'GET /api/v1/support/tickets/:ticket_uuid': {
    operationId: 'getTicket',
    summary: 'One ticket with its non-internal messages, oldest first',
    answer: { status: 200, data: TicketDetail, description: 'The ticket' },
    example: { params: (s) => ({ ticket_uuid: ticketUuid(s, 'resolved') }) },
  },
  'POST /api/v1/support/tickets/:ticket_uuid/messages': {
    operationId: 'replyToTicket',
    summary: 'Add a message to a ticket',
    body: TicketReplyBody,
    answer: { status: 201, data: TicketMessage, description: 'The message' },
    errors: { 422: ['invalid_state'] },
    example: { params: (s) => ({ ticket_uuid: ticketUuid(s) }), body: { message: 'Any news?' } },
  },
  'PATCH /api/v1/support/tickets/:ticket_uuid/close': {
    operationId: 'closeTicket',
    summary: 'Close a ticket',
    answer: { status: 200, data: TicketStatusChange, description: 'The ticket, `closed`' },
    errors: { 422: ['invalid_state'] },
    example: { params: (s) => ({ ticket_uuid: ticketUuid(s) }) },
  },
  'PATCH /api/v1/support/tickets/:ticket_uuid/reopen': {
    operationId: 'reopenTicket',
    summary: 'Reopen a `resolved` or `closed` ticket',
    answer: { status: 200, data: TicketStatusChange, description: 'The ticket, `open`' },
    errors: { 422: ['invalid_state'] },
    example: { params: (s) => ({ ticket_uuid: ticketUuid(s, 'closed') }) },
  },

  // ── Reseller webhook ──
  'GET /api/v1/reseller/webhook': {
    operationId: 'getResellerWebhook',
    summary: 'The reseller webhook configuration (never the secret)',
    answer: { status: 200, data: ResellerWebhook, description: 'The configuration' },
    example: {},
  },
  'PUT /api/v1/reseller/webhook': {
    operationId: 'setResellerWebhook',
    summary: 'Set the reseller webhook URL and secret',
    description:
      'Any `http://` or `https://` URL whose host DNS can carry. A mock served on a non-loopback address ' +
      "(a shared mock) holds it to the general webhooks' rule instead (HTTPS on a public host, else 422 " +
      '`validation_error` on `url`), unless started with `--insecure-webhooks`.',
    body: ResellerWebhookUpdateBody,
    answer: { status: 200, data: ResellerWebhook, description: 'The configuration' },
    example: { body: { url: 'https://hooks.acme.example/reseller', secret: 'a-long-random-secret' } },
  },
  'POST /api/v1/reseller/webhook/test': {
    operationId: 'testResellerWebhook',
    summary: 'Send a fictitious signed event to the reseller webhook',
    answer: { status: 200, data: ResellerWebhookTestResult, description: 'What the receiver answered' },
    errors: { 404: ['not_found'] }, // no reseller webhook is configured
    example: {},
  },

  // ── General webhooks ──
  'POST /api/v1/webhooks': {
    operationId: 'createWebhook',
    summary: 'Create a general webhook (the secret is in this answer only)',
    // The HTTPS-only rule of general webhook URLs is the server's (the mock's `insecureWebhooks` lifts it), not the body schema's.
    description:
      'The `url` must be HTTPS on a public host, or the answer is 422 `validation_error` on `url`; ' +
      'a mock started with `--insecure-webhooks` (`insecureWebhooks: true`) also takes `http://` and local hosts.',
    body: WebhookCreateBody,
    answer: { status: 201, data: WebhookCreated, description: 'The webhook with its generated secret' },
    // At most 100 general webhooks per reseller (docs/spec-decisions.md, "Hostile webhook targets and bounded memory").
    errors: { 422: ['quota_exceeded'] },
    example: { body: { url: 'https://hooks.acme.example/general', events: ['ticket.created'] } },
  },
  'POST /api/v1/webhooks/:id/test': {
    operationId: 'testWebhook',
    summary: 'Send a test event to a general webhook now',
    body: WebhookTestBody,
    bodyOptional: true,
    answer: { status: 200, data: Delivery, description: 'The delivery record of the test' },
    example: { params: { id: 'wh_demo' }, body: { event: 'test' } },
  },
  'GET /api/v1/webhooks/:id/deliveries': {
    operationId: 'listWebhookDeliveries',
    summary: "List a general webhook's deliveries, newest first",
    answer: { status: 200, page: Delivery, description: 'One page of delivery records' },
    example: { params: { id: 'wh_demo' }, before: acmeDelivery },
  },

  // ── Other lists ──
  'GET /api/v1/services': {
    operationId: 'listServices',
    summary: "List the reseller's services, newest first",
    answer: { status: 200, page: Service, description: 'One page of services' },
    example: {},
  },
  'GET /api/v1/invoices': {
    operationId: 'listInvoices',
    summary: "List the reseller's invoices, newest first",
    answer: { status: 200, page: Invoice, description: 'One page of invoices' },
    example: { query: 'page=2' },
  },

  ...controlOperations,
}

/**
 * Endpoints of the standalone server that are not in the route table (served by
 * `server/inspector.ts` in front of it). The inspector's HTML page (`GET /__mock/`) is left out: it
 * is a page for people, not part of the JSON API (docs/openapi.md, "What the document covers").
 */
export const serverOnlyOperations: Record<string, OperationDoc> = {
  'GET /__mock/stream': {
    operationId: 'mockStream',
    summary: 'Server-sent events: `event: change` after each change of the state (standalone server only)',
    description:
      'The inspector page listens here. The stream stays open; each event names no data, the page reads ' +
      '`GET /__mock/state` again.',
    answer: { status: 200, media: 'text/event-stream', description: 'The event stream' },
  },
}
