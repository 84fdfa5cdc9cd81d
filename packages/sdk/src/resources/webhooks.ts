import type { Answer } from '../answers.js'
import type { ApiPromise } from '../core/api-promise.js'
import type { PagePromise } from '../core/pagination.js'
import { ApiResource } from '../core/resource.js'
import type { RequestOptions } from '../core/transport.js'
import { webhooks as routes } from '../operations/webhooks.js'
import type { PageParams } from '../schemas/common.js'
import type { Delivery, WebhookCreateBody, WebhookCreated, WebhookTestParams } from '../schemas/webhooks.js'

/**
 * General webhooks: per-subscription URLs for a chosen list of events (scope
 * `reseller:webhooks`). Reached as `api.webhooks`.
 */
export class WebhooksResource extends ApiResource {
  /**
   * Subscribes a URL to events. Resolves to the webhook with its generated `secret`: the only time
   * the secret is returned, so store it. The SDK checks that the URL parses and that the events are
   * known names without wildcards; whether the URL is acceptable (HTTPS, public host) is the
   * server's call. Never retried automatically.
   */
  create(body: WebhookCreateBody, options?: RequestOptions): ApiPromise<Answer<WebhookCreated>> {
    return this.transport.call(routes.create, { body }, options)
  }

  /** Sends a test event (default `test`) to the webhook; resolves to the delivery record. Never retried automatically. */
  test(id: string, body: WebhookTestParams = {}, options?: RequestOptions): ApiPromise<Answer<Delivery>> {
    return this.transport.call(routes.test, { params: { id }, body }, options)
  }

  /** Lists the webhook's deliveries, newest first, 20 per page; `for await` walks every page. */
  deliveries(id: string, params?: PageParams, options?: RequestOptions): PagePromise<Answer<Delivery>> {
    return this.transport.list(routes.deliveries, { params: { id }, query: params }, options)
  }
}
