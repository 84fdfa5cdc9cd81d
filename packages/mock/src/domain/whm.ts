/**
 * Direct WHM access: usage derived from the accounts, accounts and packages. Every operation here
 * passes the WHM gate first ({@link requireWhm}), so no route can reach the WHM server's data
 * without it; provisioning (`domain/hosting.ts`) passes it too.
 */
import type { WhmPackageCreateBody, WhmUsage } from '@reseller-api/sdk/schemas'
import { errors } from '../errors.js'
import type { AccountRow, ClientRow, PackageRow, ResellerRow } from '../state/schemas.js'
import type { Store } from '../state/store.js'
import { packageKey } from '../state/tables.js'
import type { Caller } from './caller.js'
import type { DomainContext } from './context.js'

/** The WHM gate of every WHM-backed operation: `none` → 422 `no_reseller_service`, `offline` → 503. */
export function requireWhm(reseller: ResellerRow): void {
  if (reseller.whm_status === 'none') throw errors.noResellerService()
  if (reseller.whm_status === 'offline') throw errors.whmUnavailable()
}

/** The caller's package `name` (undefined when unknown); no gate: a lookup inside a gated operation. */
export function findPackage(store: Store, caller: Caller, name: string): PackageRow | undefined {
  return store.packages.get(packageKey(caller.reseller.id, name))
}

/** The caller's accounts, oldest first (WHM gate first). */
export function whmAccounts(store: Store, caller: Caller): readonly AccountRow[] {
  requireWhm(caller.reseller)
  return store.accounts.group('reseller', caller.reseller.id)
}

/** The caller's packages, oldest first (WHM gate first). */
export function whmPackages(store: Store, caller: Caller): readonly PackageRow[] {
  requireWhm(caller.reseller)
  return store.packages.group('reseller', caller.reseller.id)
}

/**
 * The caller's account `username`, optionally also the given client's: WHM gate first, then 404
 * for an unknown account or another reseller's (or client's).
 */
export function whmAccount(store: Store, caller: Caller, username: string, client?: ClientRow): AccountRow {
  requireWhm(caller.reseller)
  const account = store.accounts.get(username)
  if (!account || account.reseller_id !== caller.reseller.id || (client && account.client_id !== client.id)) {
    throw errors.notFound(`account ${username}`)
  }
  return account
}

/** Usage of the caller's WHM plan: counts and sums over its accounts (suspended ones included), limits from the seed. */
export function whmUsage(store: Store, caller: Caller): WhmUsage {
  requireWhm(caller.reseller)
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

/** Creates a package (WHM gate first); a name the reseller already uses is a validation error of `name`. Sandbox: simulated. */
export function createPackage(mock: DomainContext, caller: Caller, body: WhmPackageCreateBody): PackageRow {
  requireWhm(caller.reseller)
  const { store } = mock
  if (findPackage(store, caller, body.name)) {
    throw errors.field('name', `a package named "${body.name}" already exists`)
  }
  const row: PackageRow = { ...body, reseller_id: caller.reseller.id, created_at: store.timestamp() }
  return caller.sandbox ? row : store.packages.insert(row)
}

/**
 * Deletes the caller's package `name`: WHM gate, then 404 for an unknown package, then 422
 * `invalid_state` while an account uses it. Sandbox: simulated.
 */
export function deletePackage(
  mock: DomainContext,
  caller: Caller,
  name: string,
): { name: string; deleted: true } {
  requireWhm(caller.reseller)
  const { store } = mock
  const pkg = findPackage(store, caller, name)
  if (!pkg) throw errors.notFound(`package ${name}`)
  const users = store.accounts.group('package', packageKey(pkg.reseller_id, pkg.name)).length
  if (users > 0) {
    throw errors.invalidState(
      `package "${pkg.name}" is used by ${users} account${users === 1 ? '' : 's'}; delete or move them first`,
    )
  }
  if (!caller.sandbox) store.packages.delete(pkg)
  return { name: pkg.name, deleted: true }
}
