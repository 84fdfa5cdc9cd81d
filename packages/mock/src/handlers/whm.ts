/** Direct WHM access and its deprecated routes (docs/running-the-mock.md, "Deprecated routes"). */
import { operations } from '@reseller-api/sdk/schemas'
import { deleteAccount, setSuspended } from '../domain/hosting.js'
import {
  createPackage,
  deletePackage,
  whmAccount,
  whmAccounts,
  whmPackages,
  whmUsage,
} from '../domain/whm.js'
import { type Call, type CallContext, type Route, route } from '../routing/route.js'

const { whm, legacy } = operations

/** The caller's account of the path (WHM gate, then 404). */
const accountOf = (call: CallContext) => whmAccount(call.mock.store, call.caller, call.params.username!)

// The page number is read first: a bad `page` is a 422 even while WHM is down (503).
function listAccounts(call: Call<typeof whm.listAccounts>) {
  const pageNumber = call.page()
  return call.answerPage(whmAccounts(call.mock.store, call.caller), pageNumber)
}

function listPackages(call: Call<typeof whm.listPackages>) {
  const pageNumber = call.page()
  return call.answerPage(whmPackages(call.mock.store, call.caller), pageNumber)
}

function usage(call: Call<typeof whm.usage>) {
  return call.answer(whmUsage(call.mock.store, call.caller))
}

export const whmRoutes: Route[] = [
  route(whm.usage, usage),
  route(whm.listAccounts, listAccounts),
  route(whm.getAccount, (call) => call.answerRecord(accountOf(call))),
  route(whm.suspendAccount, (call) =>
    call.answer(setSuspended(call.mock, call.caller, accountOf(call), true)),
  ),
  route(whm.unsuspendAccount, (call) =>
    call.answer(setSuspended(call.mock, call.caller, accountOf(call), false)),
  ),
  route(whm.deleteAccount, (call) => call.answer(deleteAccount(call.mock, call.caller, accountOf(call)))),
  route(whm.listPackages, listPackages),
  route(whm.createPackage, (call) => {
    const body = call.body()
    return call.answer(createPackage(call.mock, call.caller, body))
  }),
  route(whm.deletePackage, (call) => call.answer(deletePackage(call.mock, call.caller, call.params.name!))),
  // Deprecated routes: answered as their replacements, with Deprecation and Link headers.
  route(legacy.listAccounts, listAccounts),
  route(legacy.listPackages, listPackages),
  route(legacy.usage, usage),
]
