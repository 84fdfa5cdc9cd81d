/** Direct WHM access and its deprecated routes (docs/running-the-mock.md, "Deprecated routes"). */
import {
  operations,
  WhmAccount,
  WhmAccountDeleted,
  WhmPackage,
  WhmPackageDeleted,
  WhmUsage,
} from '@reseller-api/sdk/schemas'
import { deleteAccount, setSuspended } from '../domain/hosting.js'
import {
  createPackage,
  deletePackage,
  whmAccount,
  whmAccounts,
  whmPackages,
  whmUsage,
} from '../domain/whm.js'
import { data, page, record, serializer } from '../routing/reply.js'
import { type Call, type Route, route } from '../routing/route.js'
import type { AccountRow, PackageRow } from '../state/schemas.js'

const { whm, legacy } = operations
const accountJson = serializer<AccountRow>(WhmAccount)
const packageJson = serializer<PackageRow>(WhmPackage)

/** The caller's account of the path (WHM gate, then 404). */
const accountOf = (call: Call) => whmAccount(call.mock.store, call.caller, call.params.username!)

function listAccounts(call: Call) {
  const pageNumber = call.page()
  return page(accountJson, whmAccounts(call.mock.store, call.caller), pageNumber)
}

function listPackages(call: Call) {
  const pageNumber = call.page()
  return page(packageJson, whmPackages(call.mock.store, call.caller), pageNumber)
}

function usage(call: Call) {
  return data(WhmUsage, whmUsage(call.mock.store, call.caller))
}

export const whmRoutes: Route[] = [
  route(whm.usage, usage),
  route(whm.listAccounts, listAccounts),
  route(whm.getAccount, (call) => record(accountJson, accountOf(call))),
  route(whm.suspendAccount, (call) =>
    data(WhmAccount, setSuspended(call.mock, call.caller, accountOf(call), true)),
  ),
  route(whm.unsuspendAccount, (call) =>
    data(WhmAccount, setSuspended(call.mock, call.caller, accountOf(call), false)),
  ),
  route(whm.deleteAccount, (call) =>
    data(WhmAccountDeleted, deleteAccount(call.mock, call.caller, accountOf(call))),
  ),
  route(whm.listPackages, listPackages),
  route(whm.createPackage, (call) => {
    const body = call.body()
    return data(WhmPackage, createPackage(call.mock, call.caller, body), 201)
  }),
  route(whm.deletePackage, (call) =>
    data(WhmPackageDeleted, deletePackage(call.mock, call.caller, call.params.name!)),
  ),
  // Deprecated routes: answered as their replacements, with Deprecation and Link headers.
  route(legacy.listAccounts, listAccounts),
  route(legacy.listPackages, listPackages),
  route(legacy.usage, usage),
]
