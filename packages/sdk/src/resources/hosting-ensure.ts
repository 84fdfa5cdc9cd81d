/**
 * `api.hosting.ensure`: provisioning that runs at most once across lost answers and repeated
 * calls (docs/errors-and-retries.md, "When an answer is lost"). The service has no idempotency
 * keys, but a domain belongs to one cPanel account (`domain_taken`) and the WHM account list shows
 * each account's domain and client: after an answer that may have been lost, the account list says
 * whether the create applied. It is sent again only when it surely did not (`not_sent`, or an
 * unknown outcome with no account holding the domain), so it never creates or debits twice.
 */
import type { HostingCreated, WhmAccount } from '../answers.js'
import { ConnectionError, DomainTakenError } from '../core/errors.js'
import { backoffDelay, sleep } from '../core/retry.js'
import type { RequestOptions, Transport } from '../core/transport.js'
import { hosting } from '../operations/hosting.js'
import { whm } from '../operations/whm.js'
import type { HostingCreateParams } from '../schemas/hosting.js'

/**
 * What `api.hosting.ensure` resolves to: the account it provisioned (`created: true`, the create's
 * answer, a sandbox simulation included), or the client's account that already held the domain
 * (`created: false`, as the WHM account list shows it).
 */
export type HostingEnsured =
  | { readonly created: true; readonly hosting: HostingCreated }
  | { readonly created: false; readonly account: WhmAccount }

/**
 * How many times `ensure` sends the create at most: the first, and again after answers that prove
 * nothing was created. Not `maxRetries`: those are automatic retries, which a POST never gets.
 */
export const ENSURE_MAX_SENDS = 3

/** The reseller's WHM account holding `domain` (compared without case, as the service does), if any. */
async function accountOf(
  transport: Transport,
  domain: string,
  options: RequestOptions | undefined,
): Promise<WhmAccount | undefined> {
  const wanted = domain.toLowerCase()
  for await (const account of transport.list(whm.listAccounts, {}, options)) {
    if (account.domain.toLowerCase() === wanted) return account
  }
  return undefined
}

/** The `DomainTakenError` of a lookup that found `account` of another client after a lost answer. */
function takenBy({ domain, client_id }: WhmAccount, { method, url }: ConnectionError): DomainTakenError {
  const message = `the domain ${domain} is client ${client_id}'s (422 domain_taken; ${method} ${url})`
  return new DomainTakenError({
    status: 422,
    code: 'domain_taken',
    message,
    body: undefined,
    headers: undefined,
    method,
    url,
  })
}

/** Provisions `body.domain` for `clientId` at most once; see `HostingResource.ensure`. */
export async function ensureHosting(
  transport: Transport,
  clientId: number,
  body: HostingCreateParams,
  options: RequestOptions | undefined,
): Promise<HostingEnsured> {
  for (let send = 1; ; send++) {
    try {
      return {
        created: true,
        hosting: await transport.call(hosting.create, { params: { clientId }, body }, options),
      }
    } catch (error) {
      const taken = error instanceof DomainTakenError
      // A sandbox key never creates anything: a lost answer there changed nothing.
      const look =
        taken ||
        (error instanceof ConnectionError && error.outcome === 'unknown' && transport.mode === 'live')
      // Ours from an earlier call whose answer was lost, or someone else's: the list says which.
      const account = look ? await accountOf(transport, body.domain, options) : undefined
      if (account?.client_id === clientId) return { created: false, account }
      if (taken || !(error instanceof ConnectionError)) throw error
      if (account) throw takenBy(account, error)
      if (send >= ENSURE_MAX_SENDS) throw error
      await sleep(backoffDelay(send - 1), options?.signal)
    }
  }
}
