import { SIGNATURE_HEADER } from '@reseller-api/sdk/webhooks'

/** How long a receiver has to answer a delivery. */
export const DELIVERY_TIMEOUT_MS = 5000

/** Header carrying the delivery's id: the same on every attempt of one delivery, a receiver's idempotency key. */
export const DELIVERY_ID_HEADER = 'x-service-delivery'
/** Header carrying the event name, so a receiver can route before parsing the body. */
export const EVENT_HEADER = 'x-service-event'
/** `User-Agent` of every delivery. */
export const DELIVERY_USER_AGENT = 'reseller-mock-webhooks/1'

/** What one delivery attempt sends. */
export interface AttemptRequest {
  url: string
  /** The exact bytes that were signed. */
  body: string
  /** `sha256=<hex>` of `body`. */
  signature: string
  deliveryId: string
  event: string
}

/** How one delivery attempt ended. */
export interface AttemptResult {
  /** A 2xx answer came within the time limit. */
  ok: boolean
  /** Status of the answer, `null` when none came. */
  httpStatus: number | null
  /** Why the attempt failed; `null` on success. */
  error: string | null
  /** Real milliseconds from sending to the answer's headers. */
  durationMs: number
}

/** Options of {@link attemptDelivery}. */
export interface AttemptOptions {
  /** The fetch that reaches the network. */
  fetch: typeof fetch
  /** Time limit in real milliseconds; default {@link DELIVERY_TIMEOUT_MS}. */
  timeoutMs?: number
  /** Source of real time for `durationMs`. */
  realNow?: () => number
  /**
   * Makes the outgoing request; default `new Request(url, init)`. The dispatcher passes MSW's
   * `bypass()` in-process, so that an MSW interceptor in the same process lets it through (the
   * mark is an `Accept` value, `msw/passthrough`, that MSW removes; where no interceptor runs it
   * would reach the receiver). This module imports nothing of MSW: `reseller-mock trigger` sends
   * with it without loading MSW.
   */
  request?: (url: string, init: RequestInit) => Request
}

/**
 * The `cause` of a fetch failure that made no connection because the target's address is refused
 * (`server/public-fetch.ts`): its message, `target refused: …`, is the attempt's `error` as it is,
 * like a refusal of the dispatcher's own.
 */
export class TargetRefusedError extends Error {
  override readonly name = 'TargetRefusedError'
}

function describeFailure(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } }
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') {
    return `no answer within ${timeoutMs / 1000} s`
  }
  const cause = err?.cause
  if (cause instanceof TargetRefusedError) return cause.message
  if (cause?.code) return `connection failed: ${cause.code}`
  if (cause?.message) return `connection failed: ${cause.message}`
  return `connection failed: ${err?.message ?? String(error)}`
}

/**
 * Sends one signed delivery: a POST with the event JSON, its signature and ids in headers, the
 * request made by `options.request` (MSW's `bypass()` in-process, see {@link AttemptOptions}).
 * Success is a 2xx within the time limit; redirects are not followed (a 3xx is a failure); the
 * answer's body is discarded.
 */
export async function attemptDelivery(
  request: AttemptRequest,
  options: AttemptOptions,
): Promise<AttemptResult> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS
  const realNow = options.realNow ?? (() => performance.now())
  const started = realNow()
  const elapsed = () => Math.max(0, Math.round(realNow() - started))
  let outgoing: Request
  try {
    const init: RequestInit = {
      method: 'POST',
      headers: {
        accept: '*/*',
        'content-type': 'application/json',
        'user-agent': DELIVERY_USER_AGENT,
        [SIGNATURE_HEADER]: request.signature,
        [DELIVERY_ID_HEADER]: request.deliveryId,
        [EVENT_HEADER]: request.event,
      },
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    }
    outgoing = options.request ? options.request(request.url, init) : new Request(request.url, init)
  } catch (error) {
    return {
      ok: false,
      httpStatus: null,
      error: `invalid target URL: ${(error as Error).message}`,
      durationMs: 0,
    }
  }
  try {
    const response = await options.fetch(outgoing)
    const durationMs = elapsed()
    // Free the connection; what the receiver says in its body does not matter.
    response.body?.cancel().catch(() => {})
    const ok = response.status >= 200 && response.status < 300
    return {
      ok,
      httpStatus: response.status,
      error: ok ? null : `receiver answered HTTP ${response.status}`,
      durationMs,
    }
  } catch (error) {
    return { ok: false, httpStatus: null, error: describeFailure(error, timeoutMs), durationMs: elapsed() }
  }
}
