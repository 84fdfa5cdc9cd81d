/**
 * General webhooks (`POST /webhooks`): creation with a generated secret, lookup for the routes of
 * the delivery side. The secret is returned once, by the creation answer.
 */
import { HttpUrl, validate, type WebhookCreateBody } from '@reseller-api/sdk/schemas'
import { errors } from '../errors.js'
import type { MockRandom } from '../state/random.js'
import { RETENTION_LIMITS } from '../state/retention.js'
import type { WebhookRow } from '../state/schemas.js'
import type { Store } from '../state/store.js'
import type { Caller } from './caller.js'
import type { DomainContext } from './context.js'
import { targetProblem } from './target-policy.js'

/** Appended to the refusal of a URL that a mock with insecure webhooks would accept. */
export const INSECURE_WEBHOOKS_HINT =
  '(a mock started with --insecure-webhooks, or createMockApi({ insecureWebhooks: true }), accepts http:// and local receivers)'

/** A new webhook secret: `whsec_` and 32 lower-case hex digits from the mock's seeded generator. */
export function generateWebhookSecret(random: MockRandom): string {
  return `whsec_${random.hex128()}`
}

/** The next free general webhook id: `wh_1`, `wh_2`… (skips ids a seed took). */
export function nextWebhookId(store: Store, reserved?: ReadonlySet<string>): string {
  for (;;) {
    const id = `wh_${store.nextId('webhook')}`
    if (!store.webhooks.get(id) && !reserved?.has(id)) return id
  }
}

/** The caller's general webhook `id` (404 for an unknown one or another reseller's). */
export function findWebhook(store: Store, caller: Caller, id: string): WebhookRow {
  const webhook = store.webhooks.get(id)
  if (!webhook || webhook.reseller_id !== caller.reseller.id) throw errors.notFound(`webhook ${id}`)
  return webhook
}

/**
 * Creates a general webhook. Unless the mock runs with `insecureWebhooks`, the URL must be HTTPS on
 * a public host (`webhooks/target-policy.ts`); with it, any `http(s)://` URL (the SDK's `HttpUrl`).
 * 422 `validation_error` on `url` otherwise; 422 `quota_exceeded` once the reseller has
 * {@link RETENTION_LIMITS.webhooksPerReseller} general webhooks.
 */
export function createWebhook(mock: DomainContext, caller: Caller, body: WebhookCreateBody): WebhookRow {
  if (mock.insecureWebhooks) {
    const check = validate(HttpUrl, body.url)
    if (!check.success) throw errors.validation({ url: Object.values(check.fields).flat() })
  } else {
    const problem = targetProblem(body.url)
    // A local or http:// receiver is what insecure webhooks are for: the message says how to get them.
    if (problem)
      throw errors.field(
        'url',
        validate(HttpUrl, body.url).success ? `${problem} ${INSECURE_WEBHOOKS_HINT}` : problem,
      )
  }
  const { store } = mock
  const limit = RETENTION_LIMITS.webhooksPerReseller
  if (store.webhooks.group('reseller', caller.reseller.id).length >= limit) {
    throw errors.limitReached(
      `a reseller may have at most ${limit} general webhooks, and this one has ${limit}`,
    )
  }
  return store.webhooks.insert({
    id: nextWebhookId(store),
    reseller_id: caller.reseller.id,
    url: body.url,
    events: body.events,
    secret: generateWebhookSecret(mock.random),
    created_at: store.timestamp(),
  })
}
