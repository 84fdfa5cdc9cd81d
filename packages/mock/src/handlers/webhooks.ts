/**
 * General webhooks: creation. `POST /webhooks/{id}/test` and
 * `GET /webhooks/{id}/deliveries` are the delivery side's (src/webhooks/).
 */
import { WebhookCreateBody, WebhookCreated } from '@reseller-api/sdk/schemas'
import { createWebhook } from '../domain/webhooks.js'
import { data } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'

export const webhookRoutes: Route[] = [
  // Sandbox keys are refused: a simulated webhook would hand out an id and a secret that do not exist.
  route('POST', '/api/v1/webhooks', { scope: 'reseller:webhooks', sandbox: 'refuse' }, (call) =>
    data(WebhookCreated, createWebhook(call.mock, call.caller, call.body(WebhookCreateBody)), 201),
  ),
]
