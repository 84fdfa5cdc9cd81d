/** Direct WHM access (spec §4.2) and its deprecated routes (§9). */
import {
  WhmAccount,
  WhmAccountDeleted,
  WhmPackage,
  WhmPackageCreateBody,
  WhmPackageDeleted,
  WhmUsage,
} from '@reseller-api/sdk/schemas'
import { deleteAccount, findAccount, requireWhm, setSuspended } from '../domain/hosting.js'
import { createPackage, deletePackage, requirePackage, whmUsage } from '../domain/whm.js'
import { data, page, record, serializer } from '../routing/reply.js'
import { type Call, type Route, route } from '../routing/route.js'
import type { AccountRow, PackageRow } from '../state/schemas.js'

const hosting = { scope: 'reseller:hosting' } as const
const WHM = '/api/v1/reseller/whm'
const accountJson = serializer<AccountRow>(WhmAccount)
const packageJson = serializer<PackageRow>(WhmPackage)

/** WHM gate, then the caller's account of the path (404). */
function whmAccount(call: Call) {
  requireWhm(call.caller.reseller)
  return findAccount(call.mock.store, call.caller, call.params.username!)
}

function listAccounts(call: Call) {
  const pageNumber = call.page()
  requireWhm(call.caller.reseller)
  return page(accountJson, call.mock.store.accounts.group('reseller', call.caller.reseller.id), pageNumber)
}

function listPackages(call: Call) {
  const pageNumber = call.page()
  requireWhm(call.caller.reseller)
  return page(packageJson, call.mock.store.packages.group('reseller', call.caller.reseller.id), pageNumber)
}

function usage(call: Call) {
  requireWhm(call.caller.reseller)
  return data(WhmUsage, whmUsage(call.mock.store, call.caller))
}

export const whmRoutes: Route[] = [
  route('GET', `${WHM}/usage`, hosting, usage),
  route('GET', `${WHM}/accounts`, hosting, listAccounts),
  route('GET', `${WHM}/accounts/:username`, hosting, (call) => record(accountJson, whmAccount(call))),
  route('POST', `${WHM}/accounts/:username/suspend`, hosting, (call) =>
    data(WhmAccount, setSuspended(call.mock, call.caller, whmAccount(call), true)),
  ),
  route('POST', `${WHM}/accounts/:username/unsuspend`, hosting, (call) =>
    data(WhmAccount, setSuspended(call.mock, call.caller, whmAccount(call), false)),
  ),
  route('DELETE', `${WHM}/accounts/:username`, hosting, (call) =>
    data(WhmAccountDeleted, deleteAccount(call.mock, call.caller, whmAccount(call))),
  ),
  route('GET', `${WHM}/packages`, hosting, listPackages),
  route('POST', `${WHM}/packages`, hosting, (call) => {
    const body = call.body(WhmPackageCreateBody)
    requireWhm(call.caller.reseller)
    return data(WhmPackage, createPackage(call.mock, call.caller, body), 201)
  }),
  route('DELETE', `${WHM}/packages/:name`, hosting, (call) => {
    requireWhm(call.caller.reseller)
    const pkg = requirePackage(call.mock.store, call.caller, call.params.name!)
    return data(WhmPackageDeleted, deletePackage(call.mock, call.caller, pkg))
  }),
  // Deprecated routes (spec §9): answered as their replacements, with Deprecation and Link headers.
  route('GET', '/api/v1/reseller/accounts', hosting, listAccounts, { successor: `${WHM}/accounts` }),
  route('GET', '/api/v1/reseller/packages', hosting, listPackages, { successor: `${WHM}/packages` }),
  route('GET', '/api/v1/reseller/usage', hosting, usage, { successor: `${WHM}/usage` }),
]
