/**
 * General webhooks: creation. `POST /webhooks/{id}/test` and
 * `GET /webhooks/{id}/deliveries` are the delivery side's (src/webhooks/).
 */
import { operations, WebhookCreated } from '@reseller-api/sdk/schemas'
import { createWebhook } from '../domain/webhooks.js'
import { data } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'

export const webhookRoutes: Route[] = [
  route(operations.webhooks.create, (call) =>
    data(WebhookCreated, createWebhook(call.mock, call.caller, call.body()), 201),
  ),
]
