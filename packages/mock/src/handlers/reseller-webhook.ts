/** The reseller-style webhook configuration. `POST /reseller/webhook/test` is the delivery side's. */
import { operations } from '@reseller-api/sdk/schemas'
import { readResellerWebhook, setResellerWebhook } from '../domain/reseller-webhook.js'
import { type Route, route } from '../routing/route.js'

const { resellerWebhook } = operations

export const resellerWebhookRoutes: Route[] = [
  route(resellerWebhook.get, (call) => call.answer(readResellerWebhook(call.mock.store, call.caller))),
  route(resellerWebhook.update, (call) =>
    call.answer(setResellerWebhook(call.mock, call.caller, call.body())),
  ),
]
