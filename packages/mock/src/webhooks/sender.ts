/**
 * How one attempt reaches its target: which fetch sends it, whether the target is refused first,
 * and how much of a failure the receiver's owner may see (see {@link DeliverySender.send}).
 */
import { signPayload } from '@reseller-api/sdk/webhooks'
import { attemptRefusal, urlProblem } from '../domain/target-policy.js'
import { type AttemptResult, attemptDelivery, DELIVERY_TIMEOUT_MS } from './attempt.js'
import { type DeliveryStyle, type DeliveryTarget, type DispatcherOptions, OPAQUE_FAILURE } from './types.js'

/** Signs and sends single attempts, with the dispatcher's fetch settings. */
export class DeliverySender {
  readonly #insecure: boolean
  readonly #servedOnNetwork: () => boolean
  readonly #fetch: typeof fetch
  readonly #localFetch: typeof fetch
  readonly #markBypass: boolean
  readonly #timeoutMs: number

  constructor(
    options: Pick<
      DispatcherOptions,
      'insecureWebhooks' | 'servedOnNetwork' | 'fetch' | 'bypassMsw' | 'timeoutMs'
    >,
  ) {
    this.#insecure = options.insecureWebhooks ?? false
    this.#servedOnNetwork = options.servedOnNetwork ?? (() => false)
    // Captured now, so a test that later replaces `globalThis.fetch` does not receive the mock's deliveries.
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis)
    // Reseller webhooks (see `reach`): the platform's fetch, never a public-only one.
    this.#localFetch = globalThis.fetch.bind(globalThis)
    // In-process, MSW may be intercepting even the platform's own fetch (a delivery sent while MSW
    // answers the API request that caused it), so every delivery carries MSW's bypass mark. Only the
    // standalone server, where no interceptor runs, turns it off.
    this.#markBypass = options.bypassMsw ?? true
    this.#timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS
  }

  /** Sends unless the target is refused; a refusal is a failed attempt that made no connection. */
  async send(
    target: DeliveryTarget,
    style: DeliveryStyle,
    deliveryId: string,
    event: string,
    body: string,
  ): Promise<AttemptResult> {
    const route = this.#reach(target.url, style)
    if ('refused' in route) return { ok: false, httpStatus: null, error: route.refused, durationMs: 0 }
    // msw loaded on the first delivery that needs its mark: the standalone server never loads it.
    const request = this.#markBypass ? (await import('msw')).bypass : undefined
    const result = await attemptDelivery(
      { url: target.url, body, signature: await signPayload(body, target.secret), deliveryId, event },
      { fetch: route.via, timeoutMs: this.#timeoutMs, request },
    )
    if (!route.opaque || result.ok || result.httpStatus !== null) return result
    return { ...result, error: OPAQUE_FAILURE }
  }

  /**
   * How a target may be reached now: refused (never connected to), or the fetch to send with.
   * General webhooks: the creation rule again (a URL stored by a seed, a state file or an insecure
   * run is judged too); the addresses a name resolves to are the `fetch` option's to judge (the
   * standalone server's `server/public-fetch.ts`). A reseller webhook may use `http://` and, as
   * the public-host rule binds general webhooks only, any host: it is reached with the
   * platform's fetch, and without `insecureWebhooks` its failures are `opaque` (no network detail),
   * so that its `error` cannot tell a closed port of the mock's machine from an open one. Served on
   * a non-loopback address (`servedOnNetwork`), other machines could make the mock send to its own
   * local network: the reseller webhook is then judged as a general one.
   */
  #reach(url: string, style: DeliveryStyle): { refused: string } | { via: typeof fetch; opaque: boolean } {
    if (this.#insecure) return { via: this.#fetch, opaque: false }
    if (style === 'reseller' && !this.#servedOnNetwork()) {
      const problem = urlProblem(url)
      return problem ? { refused: `target refused: url ${problem}` } : { via: this.#localFetch, opaque: true }
    }
    const refused = attemptRefusal(url)
    return refused ? { refused } : { via: this.#fetch, opaque: false }
  }
}
