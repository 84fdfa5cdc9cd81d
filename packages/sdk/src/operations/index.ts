/**
 * Every operation of the service, by area: the one declaration of each route (method, path,
 * parameters, body, answer, access, deprecation). Each area's file holds its texts for the OpenAPI
 * document beside the declarations, in an export that only `src/openapi/service.ts` reads. The
 * resource classes call the declarations and the mock binds a handler to each
 * (docs/openapi.md, "How it is made").
 */
import { billing } from './billing.js'
import { hosting } from './hosting.js'
import { legacy } from './legacy.js'
import { resellerWebhook } from './reseller-webhook.js'
import { tickets } from './tickets.js'
import { webhooks } from './webhooks.js'
import { whm } from './whm.js'

/**
 * @internal Every operation of the service, by area. Exported by `@reseller-api/sdk/schemas` for
 * the mock, which binds a handler to each.
 */
export const operations = { hosting, whm, tickets, resellerWebhook, webhooks, billing, legacy }
