/** Reseller hosting and the deprecated `POST /reseller/accounts` (docs/running-the-mock.md, "Deprecated routes"). */
import { operations } from '@reseller-api/sdk/schemas'
import { deleteAccount, findClient, provision, setSuspended } from '../domain/hosting.js'
import { whmAccount } from '../domain/whm.js'
import { type CallContext, type Route, route } from '../routing/route.js'

const { hosting, legacy } = operations

/** Client of the path (404), then the client's account (WHM gate, then 404). */
function clientAccount(call: CallContext) {
  const { store } = call.mock
  const client = findClient(store, call.caller, call.params.client_id!)
  return whmAccount(store, call.caller, call.params.cpanel_username!, client)
}

export const hostingRoutes: Route[] = [
  route(hosting.create, (call) => {
    const client = findClient(call.mock.store, call.caller, call.params.client_id!)
    const body = call.body()
    return call.answer(provision(call.mock, call.caller, client, body))
  }),
  route(hosting.suspend, (call) =>
    call.answer(setSuspended(call.mock, call.caller, clientAccount(call), true)),
  ),
  route(hosting.unsuspend, (call) =>
    call.answer(setSuspended(call.mock, call.caller, clientAccount(call), false)),
  ),
  route(hosting.delete, (call) => call.answer(deleteAccount(call.mock, call.caller, clientAccount(call)))),
  // Deprecated: the client id travels in the body, so the body is validated before the client is looked up.
  route(legacy.createAccount, (call) => {
    const { client_id, ...body } = call.body()
    const client = findClient(call.mock.store, call.caller, String(client_id))
    return call.answer(provision(call.mock, call.caller, client, body))
  }),
]
