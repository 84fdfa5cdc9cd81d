import type { Answer } from '../answers.js'
import type { ApiPromise } from '../core/api-promise.js'
import { ApiResource } from '../core/resource.js'
import type { RequestOptions } from '../core/transport.js'
import { resellerWebhook as routes } from '../operations/reseller-webhook.js'
import type {
  ResellerWebhook,
  ResellerWebhookTestResult,
  ResellerWebhookUpdateBody,
} from '../schemas/reseller-webhook.js'

/**
 * The reseller-style webhook: one URL receiving every reseller event (scope
 * `reseller:webhooks`). Reached as `api.resellerWebhook`.
 */
export class ResellerWebhookResource extends ApiResource {
  /** Reads the configuration: `url` (null before the first update) and `has_secret`; the secret is never returned. */
  get(options?: RequestOptions): ApiPromise<Answer<ResellerWebhook>> {
    return this.transport.call(routes.get, {}, options)
  }

  /** Sets the URL and the signing secret (`PUT`, so retried automatically: it is idempotent). */
  update(body: ResellerWebhookUpdateBody, options?: RequestOptions): ApiPromise<Answer<ResellerWebhook>> {
    return this.transport.call(routes.update, { body }, options)
  }

  /** Sends a fictitious signed event to the configured URL and reports what happened. Never retried automatically. */
  test(options?: RequestOptions): ApiPromise<Answer<ResellerWebhookTestResult>> {
    return this.transport.call(routes.test, {}, options)
  }
}
