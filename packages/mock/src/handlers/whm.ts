/** Direct WHM access and its deprecated routes (docs/running-the-mock.md, "Deprecated routes"). */
import {
  WhmAccount,
  WhmAccountDeleted,
  WhmPackage,
  WhmPackageCreateBody,
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

const hosting = { scope: 'reseller:hosting' } as const
const WHM = '/api/v1/reseller/whm'
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
  route('GET', `${WHM}/usage`, hosting, usage),
  route('GET', `${WHM}/accounts`, hosting, listAccounts),
  route('GET', `${WHM}/accounts/:username`, hosting, (call) => record(accountJson, accountOf(call))),
  route('POST', `${WHM}/accounts/:username/suspend`, hosting, (call) =>
    data(WhmAccount, setSuspended(call.mock, call.caller, accountOf(call), true)),
  ),
  route('POST', `${WHM}/accounts/:username/unsuspend`, hosting, (call) =>
    data(WhmAccount, setSuspended(call.mock, call.caller, accountOf(call), false)),
  ),
  route('DELETE', `${WHM}/accounts/:username`, hosting, (call) =>
    data(WhmAccountDeleted, deleteAccount(call.mock, call.caller, accountOf(call))),
  ),
  route('GET', `${WHM}/packages`, hosting, listPackages),
  route('POST', `${WHM}/packages`, hosting, (call) => {
    const body = call.body(WhmPackageCreateBody)
    return data(WhmPackage, createPackage(call.mock, call.caller, body), 201)
  }),
  route('DELETE', `${WHM}/packages/:name`, hosting, (call) =>
    data(WhmPackageDeleted, deletePackage(call.mock, call.caller, call.params.name!)),
  ),
  // Deprecated routes: answered as their replacements, with Deprecation and Link headers.
  route('GET', '/api/v1/reseller/accounts', hosting, listAccounts, { successor: `${WHM}/accounts` }),
  route('GET', '/api/v1/reseller/packages', hosting, listPackages, { successor: `${WHM}/packages` }),
  route('GET', '/api/v1/reseller/usage', hosting, usage, { successor: `${WHM}/usage` }),
]
