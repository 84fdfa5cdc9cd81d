/**
 * General webhooks: creation. `POST /webhooks/{id}/test` and
 * `GET /webhooks/{id}/deliveries` are the delivery side's (src/webhooks/).
 */
import { operations } from '@reseller-api/sdk/schemas'
import { createWebhook } from '../domain/webhooks.js'
import { type Route, route } from '../routing/route.js'

export const webhookRoutes: Route[] = [
  route(operations.webhooks.create, (call) =>
    call.answer(createWebhook(call.mock, call.caller, call.body())),
  ),
]
