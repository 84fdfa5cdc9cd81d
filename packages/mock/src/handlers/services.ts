/** `GET /services`: any valid key. */
import { operations } from '@reseller-api/sdk/schemas'
import { type Route, route } from '../routing/route.js'

export const serviceRoutes: Route[] = [
  route(operations.billing.services, (call) =>
    call.answerPage(call.mock.store.services.group('reseller', call.caller.reseller.id)),
  ),
]
