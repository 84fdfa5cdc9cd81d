/**
 * Retry policy as small pure functions: should this failure be retried, and after how long.
 * The request layer applies them; ky's own retry is disabled (its defaults do not suit an API SDK).
 */

/** Methods retried automatically. A POST never is: provisioning must never run twice. */
export const RETRY_METHODS: ReadonlySet<string> = new Set(['GET', 'PUT', 'PATCH', 'DELETE'])

/** First backoff delay in milliseconds; doubles with each retry. */
export const BASE_DELAY_MS = 500

/** Longest backoff delay in milliseconds. */
export const MAX_DELAY_MS = 8_000

/** Longest `Retry-After` the SDK waits for; a longer one ends the retries (the error says how long). */
export const MAX_RETRY_AFTER_MS = 60_000

/** Whether an answer with this status may succeed if sent again: 408, 429 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500
}

/**
 * Whether a failed attempt is retried: only for GET, PUT, PATCH and DELETE, and only when no answer
 * came (`status` undefined: connection error or timeout) or the status is retryable.
 */
export function shouldRetry(method: string, status: number | undefined): boolean {
  if (!RETRY_METHODS.has(method.toUpperCase())) return false
  return status === undefined || isRetryableStatus(status)
}

/**
 * Exponential backoff with jitter before retry number `retry` (0 for the first retry):
 * `min(8 s, 0.5 s × 2^retry)`, of which a random half is dropped ("equal jitter").
 */
export function backoffDelay(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** retry)
  return ceiling / 2 + (random() * ceiling) / 2
}

/**
 * Milliseconds to wait before retry number `retry`: the server's `Retry-After` when it gave one
 * (seconds), otherwise {@link backoffDelay}. `undefined` when the server asked for more than
 * {@link MAX_RETRY_AFTER_MS}: retrying sooner would disobey it, so the error is thrown instead.
 */
export function retryDelay(
  retry: number,
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterSeconds === undefined) return backoffDelay(retry, random)
  const ms = Math.ceil(retryAfterSeconds * 1000)
  return ms > MAX_RETRY_AFTER_MS ? undefined : ms
}

/**
 * Seconds to wait from a `Retry-After` value: delay-seconds or an HTTP date (relative to `now`).
 * `undefined` when absent or unreadable; never negative.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value == null) return undefined
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text)
  if (!/[a-z]/i.test(text)) return undefined
  const date = Date.parse(text)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, (date - now) / 1000)
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
