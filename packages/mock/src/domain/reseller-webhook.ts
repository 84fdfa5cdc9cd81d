/** The reseller-style webhook (`PUT`/`GET /reseller/webhook`): one URL and secret per reseller. */
import type { ResellerWebhook, ResellerWebhookUpdateBody } from '@reseller-api/sdk'
import type { MockContext } from '../context.js'
import { errors } from '../routing/errors.js'
import type { Caller } from '../routing/route.js'
import type { Store } from '../state/store.js'
import { targetProblem } from '../webhooks/target-policy.js'

/** The configuration as read back: the secret itself is never returned. */
export function readResellerWebhook(store: Store, caller: Caller): ResellerWebhook {
  const row = store.resellerWebhooks.get(caller.reseller.id)
  return row ? { url: row.url, has_secret: row.secret !== '' } : { url: null, has_secret: false }
}

/**
 * Sets (or replaces) the URL and secret. Unless the mock runs with `insecureWebhooks`, the URL must
 * point to a public host (`http://` allowed, unlike general webhooks): a 422 `validation_error` on
 * `url` otherwise, so that the mock cannot be made to probe its own machine or network.
 */
export function setResellerWebhook(
  mock: Pick<MockContext, 'store' | 'insecureWebhooks'>,
  caller: Caller,
  body: ResellerWebhookUpdateBody,
): ResellerWebhook {
  if (!mock.insecureWebhooks) {
    const problem = targetProblem(body.url, { requireHttps: false })
    if (problem)
      throw errors.field('url', `${problem} (start the mock with --insecure-webhooks for a local receiver)`)
  }
  const { store } = mock
  const row = store.resellerWebhooks.get(caller.reseller.id)
  const values = { url: body.url, secret: body.secret, updated_at: store.timestamp() }
  if (row) store.resellerWebhooks.update(row, values)
  else store.resellerWebhooks.insert({ reseller_id: caller.reseller.id, ...values })
  return readResellerWebhook(store, caller)
}
