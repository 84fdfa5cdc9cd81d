/**
 * Hosting accounts: provisioning (live and sandbox), suspend, unsuspend and delete, on one account
 * record shared by the `/reseller/clients/{id}/hosting/…` and `/reseller/whm/accounts/…` routes.
 * No HTTP here: functions check, write synchronously and throw API errors.
 */
import type { HostingCreateBody, HostingCreated } from '@reseller-api/sdk/schemas'
import { errors } from '../errors.js'
import type { AccountRow, ClientRow } from '../state/schemas.js'
import type { Store } from '../state/store.js'
import type { Caller } from './caller.js'
import type { DomainContext } from './context.js'
import { findPackage, requireWhm } from './whm.js'

/** What a new account uses: 5% of its package's disk quota (50 MB when unlimited), 1% of its bandwidth. */
export function accountUsage(pkg: { quota: number; bandwidth: number }) {
  return {
    disk_used_mb: pkg.quota > 0 ? Math.max(1, Math.round(pkg.quota * 0.05)) : 50,
    bandwidth_used_mb: pkg.bandwidth > 0 ? Math.round(pkg.bandwidth * 0.01) : 0,
  }
}

/**
 * The cPanel-style prefix of a domain: lower-case letters and digits of the name without its
 * top-level domain (and without a leading `www.`), starting with a letter, at most 8 characters.
 */
export function usernamePrefix(domain: string): string {
  const labels = domain
    .toLowerCase()
    .replace(/^www\./, '')
    .split('.')
  if (labels.length > 1) labels.pop()
  const letters = labels
    .join('')
    .replace(/[^a-z0-9]/g, '')
    .replace(/^[0-9]+/, '')
  return (letters || 'user').slice(0, 8)
}

/** A username for `domain` unused across all resellers: the prefix, else the prefix + 1, 2, 3… */
export function deriveUsername(store: Store, domain: string): string {
  const prefix = usernamePrefix(domain)
  if (!store.accounts.get(prefix)) return prefix
  for (let n = 1; ; n++) {
    const candidate = `${prefix}${n}`
    if (!store.accounts.get(candidate)) return candidate
  }
}

/** The caller's client with the id of the path (404 for an unknown one or another reseller's). */
export function findClient(store: Store, caller: Caller, clientId: string): ClientRow {
  const id = /^[1-9]\d{0,15}$/.test(clientId) ? Number(clientId) : Number.NaN
  const client = store.clients.get(id)
  if (!client || client.reseller_id !== caller.reseller.id) throw errors.notFound(`client ${clientId}`)
  return client
}

const SANDBOX_PASSWORD = 'sandbox-not-a-real-password'

/**
 * Provisions a cPanel account for `client`. Checks, in order: WHM state, package,
 * then in live mode `domain_taken` (all accounts of all resellers, case-insensitive), the WHM quota,
 * and the wallet when registering the domain. Sandbox keys get the simulated answer and change
 * nothing (quota, domain and wallet are not consulted: nothing is consumed).
 */
export function provision(
  mock: DomainContext,
  caller: Caller,
  client: ClientRow,
  body: HostingCreateBody,
): HostingCreated {
  const { store } = mock
  const reseller = caller.reseller
  requireWhm(reseller)
  const pkg = findPackage(store, caller, body.whm_package)
  if (!pkg)
    throw errors.field('whm_package', `unknown package "${body.whm_package}": see GET /reseller/whm/packages`)
  const domain = body.domain.toLowerCase()
  const cpanel_url = `https://${domain}:2083`
  const emitCreated = (username: string) =>
    mock.emit({
      resellerId: reseller.id,
      style: 'reseller',
      event: 'hosting.created',
      sandbox: caller.sandbox,
      data: { client_id: client.id, domain, username, whm_package: pkg.name },
    })

  if (caller.sandbox) {
    const username = `sb_${usernamePrefix(domain)}`
    emitCreated(username)
    return {
      sandbox: true,
      client_id: client.id,
      domain,
      username,
      password: SANDBOX_PASSWORD,
      whm_package: pkg.name,
      domain_registered: false,
      cpanel_url,
      message: 'Sandbox mode: this account is simulated; nothing was created, registered or debited.',
    }
  }

  if (store.accounts.by('domain', domain)) throw errors.domainTaken(domain)
  const used = store.accounts.group('reseller', reseller.id).length
  if (used >= reseller.accounts_limit) throw errors.quotaExceeded(reseller.accounts_limit)
  const price = body.register_domain ? store.settings.get('settings')!.domain_price : 0
  if (body.register_domain && reseller.wallet_balance < price) {
    throw errors.insufficientFunds(price, reseller.wallet_balance)
  }

  const username = deriveUsername(store, domain)
  store.accounts.insert({
    username,
    domain,
    client_id: client.id,
    whm_package: pkg.name,
    status: 'active',
    ...accountUsage(pkg),
    created_at: store.timestamp(),
    suspended_at: null,
    reseller_id: reseller.id,
  })
  emitCreated(username)
  if (body.register_domain) {
    const balance = roundMoney(reseller.wallet_balance - price)
    store.resellers.update(reseller, { wallet_balance: balance })
    mock.emit({
      resellerId: reseller.id,
      style: 'reseller',
      event: 'domain.registered',
      sandbox: false,
      data: { client_id: client.id, domain },
    })
    mock.emit({
      resellerId: reseller.id,
      style: 'reseller',
      event: 'wallet.debited',
      sandbox: false,
      data: { amount: price, balance, reason: `domain registration: ${domain}` },
    })
  }
  return {
    sandbox: false,
    client_id: client.id,
    domain,
    username,
    cpanel_url,
    domain_registered: body.register_domain,
    amount_debited: price,
  }
}

/** Money kept to cents, so that 100 - 12.5 - 12.5 stays 75 and never 74.99999999. */
function roundMoney(value: number): number {
  return Math.round(value * 100) / 100
}

/**
 * Suspends or unsuspends an account. Suspending a suspended account (or unsuspending an active one)
 * is refused with 422 `invalid_state`, like closing a closed ticket. A sandbox key gets the answer
 * the call would give, and nothing changes. `account` comes from `whmAccount` (gated); the gate is
 * checked again here so that no caller can skip it.
 */
export function setSuspended(
  mock: DomainContext,
  caller: Caller,
  account: AccountRow,
  suspend: boolean,
): AccountRow {
  requireWhm(caller.reseller)
  if (suspend && account.status === 'suspended') {
    throw errors.invalidState(`account ${account.username} is already suspended`)
  }
  if (!suspend && account.status === 'active')
    throw errors.invalidState(`account ${account.username} is not suspended`)
  const patch: Partial<AccountRow> = suspend
    ? { status: 'suspended', suspended_at: mock.store.timestamp() }
    : { status: 'active', suspended_at: null }
  if (caller.sandbox) return { ...account, ...patch }
  return mock.store.accounts.update(account, patch)
}

/** Deletes an account (frees its quota slot and its domain). A sandbox key changes nothing. */
export function deleteAccount(
  mock: DomainContext,
  caller: Caller,
  account: AccountRow,
): { username: string; deleted: true } {
  requireWhm(caller.reseller)
  if (!caller.sandbox) mock.store.accounts.delete(account)
  return { username: account.username, deleted: true }
}
