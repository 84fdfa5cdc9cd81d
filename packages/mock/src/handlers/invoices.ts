/** `GET /invoices`: any valid key. */
import { Invoice, operations } from '@reseller-api/sdk/schemas'
import { page, serializer } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'
import type { InvoiceRow } from '../state/schemas.js'

const invoiceJson = serializer<InvoiceRow>(Invoice)

export const invoiceRoutes: Route[] = [
  route(operations.billing.invoices, (call) =>
    page(invoiceJson, call.mock.store.invoices.group('reseller', call.caller.reseller.id), call.page()),
  ),
]
