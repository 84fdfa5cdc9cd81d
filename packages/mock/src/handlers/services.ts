/** `GET /services`: any valid key. */
import { operations, Service } from '@reseller-api/sdk/schemas'
import { page, serializer } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'
import type { ServiceRow } from '../state/schemas.js'

const serviceJson = serializer<ServiceRow>(Service)

export const serviceRoutes: Route[] = [
  route(operations.billing.services, (call) =>
    page(serviceJson, call.mock.store.services.group('reseller', call.caller.reseller.id), call.page()),
  ),
]
