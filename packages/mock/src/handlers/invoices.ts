/** `GET /invoices`: any valid key. */
import { operations } from '@reseller-api/sdk/schemas'
import { type Route, route } from '../routing/route.js'

export const invoiceRoutes: Route[] = [
  route(operations.billing.invoices, (call) =>
    call.answerPage(call.mock.store.invoices.group('reseller', call.caller.reseller.id)),
  ),
]
