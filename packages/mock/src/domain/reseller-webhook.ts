/** The reseller-style webhook (`PUT`/`GET /reseller/webhook`): one URL and secret per reseller. */
import type { ResellerWebhook, ResellerWebhookUpdateBody } from '@reseller-api/sdk/schemas'
import type { Store } from '../state/store.js'
import type { Caller } from './caller.js'
import type { DomainContext } from './context.js'

/** The configuration as read back: the secret itself is never returned. */
export function readResellerWebhook(store: Store, caller: Caller): ResellerWebhook {
  const row = store.resellerWebhooks.get(caller.reseller.id)
  return row ? { url: row.url, has_secret: row.secret !== '' } : { url: null, has_secret: false }
}

/**
 * Sets (or replaces) the URL and secret. Any `http(s)://` URL, local receivers included: contract
 * §4 binds the public-host rule to general webhooks only. Deliveries to it report no network detail
 * unless the mock runs with `insecureWebhooks` (see the dispatcher's `reach`).
 */
export function setResellerWebhook(
  mock: Pick<DomainContext, 'store' | 'insecureWebhooks'>,
  caller: Caller,
  body: ResellerWebhookUpdateBody,
): ResellerWebhook {
  const { store } = mock
  const row = store.resellerWebhooks.get(caller.reseller.id)
  const values = { url: body.url, secret: body.secret, updated_at: store.timestamp() }
  if (row) store.resellerWebhooks.update(row, values)
  else store.resellerWebhooks.insert({ reseller_id: caller.reseller.id, ...values })
  return readResellerWebhook(store, caller)
}
