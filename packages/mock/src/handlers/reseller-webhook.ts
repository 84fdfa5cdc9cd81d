/** The reseller-style webhook configuration. `POST /reseller/webhook/test` is the delivery side's. */
import { operations, ResellerWebhook } from '@reseller-api/sdk/schemas'
import { readResellerWebhook, setResellerWebhook } from '../domain/reseller-webhook.js'
import { data } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'

const { resellerWebhook } = operations

export const resellerWebhookRoutes: Route[] = [
  route(resellerWebhook.get, (call) =>
    data(ResellerWebhook, readResellerWebhook(call.mock.store, call.caller)),
  ),
  route(resellerWebhook.update, (call) =>
    data(ResellerWebhook, setResellerWebhook(call.mock, call.caller, call.body())),
  ),
]
