/** Direct WHM access: usage derived from the accounts, packages. */
import type { WhmPackageCreateBody, WhmUsage } from '@reseller-api/sdk/schemas'
import type { MockContext } from '../context.js'
import { errors } from '../routing/errors.js'
import type { Caller } from '../routing/route.js'
import type { PackageRow } from '../state/schemas.js'
import { packageKey, type Store } from '../state/store.js'
import { findPackage } from './hosting.js'

/** Usage of the caller's WHM plan: counts and sums over its accounts (suspended ones included), limits from the seed. */
export function whmUsage(store: Store, caller: Caller): WhmUsage {
  const accounts = store.accounts.group('reseller', caller.reseller.id)
  let disk = 0
  let bandwidth = 0
  for (const account of accounts) {
    disk += account.disk_used_mb
    bandwidth += account.bandwidth_used_mb
  }
  const reseller = caller.reseller
  return {
    accounts_used: accounts.length,
    accounts_limit: reseller.accounts_limit,
    disk_used_mb: disk,
    disk_limit_mb: reseller.disk_limit_mb,
    bandwidth_used_mb: bandwidth,
    bandwidth_limit_mb: reseller.bandwidth_limit_mb,
  }
}

/** The caller's package `name` (404 otherwise). */
export function requirePackage(store: Store, caller: Caller, name: string): PackageRow {
  const pkg = findPackage(store, caller, name)
  if (!pkg) throw errors.notFound(`package ${name}`)
  return pkg
}

/** Creates a package; a name the reseller already uses is a validation error of `name`. Sandbox: simulated. */
export function createPackage(mock: MockContext, caller: Caller, body: WhmPackageCreateBody): PackageRow {
  const { store } = mock
  if (findPackage(store, caller, body.name)) {
    throw errors.field('name', `a package named "${body.name}" already exists`)
  }
  const row: PackageRow = { ...body, reseller_id: caller.reseller.id, created_at: store.timestamp() }
  return caller.sandbox ? row : store.packages.insert(row)
}

/** Deletes a package unless an account uses it (422 `invalid_state`). Sandbox: simulated. */
export function deletePackage(
  mock: MockContext,
  caller: Caller,
  pkg: PackageRow,
): { name: string; deleted: true } {
  const { store } = mock
  const users = store.accounts.group('package', packageKey(pkg.reseller_id, pkg.name)).length
  if (users > 0) {
    throw errors.invalidState(
      `package "${pkg.name}" is used by ${users} account${users === 1 ? '' : 's'}; delete or move them first`,
    )
  }
  if (!caller.sandbox) store.packages.delete(pkg)
  return { name: pkg.name, deleted: true }
}
