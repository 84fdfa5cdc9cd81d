/** Reseller hosting and the deprecated `POST /reseller/accounts` (docs/running-the-mock.md, "Deprecated routes"). */
import { HostingCreated, operations, WhmAccount, WhmAccountDeleted } from '@reseller-api/sdk/schemas'
import { deleteAccount, findClient, provision, setSuspended } from '../domain/hosting.js'
import { whmAccount } from '../domain/whm.js'
import { data } from '../routing/reply.js'
import { type Call, type Route, route } from '../routing/route.js'

const { hosting, legacy } = operations

/** Client of the path (404), then the client's account (WHM gate, then 404). */
function clientAccount(call: Call) {
  const { store } = call.mock
  const client = findClient(store, call.caller, call.params.client_id!)
  return whmAccount(store, call.caller, call.params.cpanel_username!, client)
}

export const hostingRoutes: Route[] = [
  route(hosting.create, (call) => {
    const client = findClient(call.mock.store, call.caller, call.params.client_id!)
    const body = call.body()
    return data(HostingCreated, provision(call.mock, call.caller, client, body), 201)
  }),
  route(hosting.suspend, (call) =>
    data(WhmAccount, setSuspended(call.mock, call.caller, clientAccount(call), true)),
  ),
  route(hosting.unsuspend, (call) =>
    data(WhmAccount, setSuspended(call.mock, call.caller, clientAccount(call), false)),
  ),
  route(hosting.delete, (call) =>
    data(WhmAccountDeleted, deleteAccount(call.mock, call.caller, clientAccount(call))),
  ),
  // Deprecated: the client id travels in the body, so the body is validated before the client is looked up.
  route(legacy.createAccount, (call) => {
    const { client_id, ...body } = call.body()
    const client = findClient(call.mock.store, call.caller, String(client_id))
    return data(HostingCreated, provision(call.mock, call.caller, client, body), 201)
  }),
]
