/**
 * The route table of the mock: every area's routes in one list. Add an area by exporting a
 * `Route[]` from its handlers file and listing it here.
 */
import type { Route } from '../routing/route.js'
import { clockRoutes } from './clock.js'
import { controlRoutes } from './control.js'
import { deliveryRoutes } from './deliveries.js'
import { eventRoutes } from './events.js'
import { faultRoutes } from './faults.js'
import { hostingRoutes } from './hosting.js'
import { invoiceRoutes } from './invoices.js'
import { journalRoutes } from './journal.js'
import { openApiRoutes } from './openapi.js'
import { resellerWebhookRoutes } from './reseller-webhook.js'
import { serviceRoutes } from './services.js'
import { ticketRoutes } from './tickets.js'
import { webhookRoutes } from './webhooks.js'
import { whmRoutes } from './whm.js'

/** Every route of the mock. */
export const routes: readonly Route[] = [
  ...hostingRoutes,
  ...whmRoutes,
  ...ticketRoutes,
  ...resellerWebhookRoutes,
  ...webhookRoutes,
  ...serviceRoutes,
  ...invoiceRoutes,
  ...controlRoutes,
  ...journalRoutes,
  ...faultRoutes,
  ...clockRoutes,
  ...eventRoutes,
  ...deliveryRoutes,
  ...openApiRoutes,
]
