/** The reseller-style webhook (`PUT`/`GET /reseller/webhook`): one URL and secret per reseller. */
import type { ResellerWebhook, ResellerWebhookUpdateBody } from '@reseller-api/sdk/schemas'
import { errors } from '../errors.js'
import type { Store } from '../state/store.js'
import type { Caller } from './caller.js'
import type { DomainContext } from './context.js'
import { targetProblem } from './target-policy.js'

/** The configuration as read back: the secret itself is never returned. */
export function readResellerWebhook(store: Store, caller: Caller): ResellerWebhook {
  const row = store.resellerWebhooks.get(caller.reseller.id)
  return row ? { url: row.url, has_secret: row.secret !== '' } : { url: null, has_secret: false }
}

/**
 * Sets (or replaces) the URL and secret. Any `http(s)://` URL, local receivers included: the
 * public-host rule binds general webhooks only (docs/running-the-mock.md, "Webhooks").
 * Deliveries to it report no network detail unless the mock runs with `insecureWebhooks` (see the
 * dispatcher's `reach`). A mock served on a non-loopback address is the exception: there the URL
 * must pass the general target policy (422 on `url`), unless `insecureWebhooks`.
 */
export function setResellerWebhook(
  mock: Pick<DomainContext, 'store' | 'insecureWebhooks' | 'servedOnNetwork'>,
  caller: Caller,
  body: ResellerWebhookUpdateBody,
): ResellerWebhook {
  if (!mock.insecureWebhooks && mock.servedOnNetwork()) {
    const problem = targetProblem(body.url)
    if (problem)
      throw errors.field(
        'url',
        `${problem} (the mock is served on a shared address; start it with --insecure-webhooks to allow local receivers)`,
      )
  }
  const { store } = mock
  const row = store.resellerWebhooks.get(caller.reseller.id)
  const values = { url: body.url, secret: body.secret, updated_at: store.timestamp() }
  if (row) store.resellerWebhooks.update(row, values)
  else store.resellerWebhooks.insert({ reseller_id: caller.reseller.id, ...values })
  return readResellerWebhook(store, caller)
}
