/** The reseller-style webhook configuration. `POST /reseller/webhook/test` is the delivery side's. */
import { ResellerWebhook, ResellerWebhookUpdateBody } from '@reseller-api/sdk/schemas'
import { readResellerWebhook, setResellerWebhook } from '../domain/reseller-webhook.js'
import { data } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'

const PATH = '/api/v1/reseller/webhook'

export const resellerWebhookRoutes: Route[] = [
  route('GET', PATH, { scope: 'reseller:webhooks' }, (call) =>
    data(ResellerWebhook, readResellerWebhook(call.mock.store, call.caller)),
  ),
  // Sandbox keys may not change the configuration: a sandbox call never changes state.
  route('PUT', PATH, { scope: 'reseller:webhooks', sandbox: 'refuse' }, (call) =>
    data(ResellerWebhook, setResellerWebhook(call.mock, call.caller, call.body(ResellerWebhookUpdateBody))),
  ),
]
