/**
 * Whether a request that got no answer may have reached the service (docs/errors-and-retries.md,
 * "When an answer is lost"). Only a failure that proves the request never left is `not_sent`: a
 * refused connection, a name that did not resolve, a host out of reach. Anything else (a reset or
 * closed connection, a timeout, a `fetch` that says only "failed", as browsers do, a TLS failure)
 * may have been applied, so it is `unknown`: the safe reading for a write.
 */

/**
 * What a request that got no answer did at the service: `'unknown'` when it may have reached it
 * (and taken effect), `'not_sent'` when it surely did not.
 */
export type ConnectionOutcome = 'unknown' | 'not_sent'

/**
 * Error codes (Node, undici, Bun's `ConnectionRefused`) and words (Deno) of a connection that never
 * carried the request: refused, a name not resolved, a network or host out of reach, a connect that
 * timed out. One pattern, matched against a failure's code and message: cheap in a browser bundle.
 */
const NEVER_SENT =
  /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|E(NET|HOST)UNREACH|UND_ERR_CONNECT_TIMEOUT|connection ?refused|dns error/i

/**
 * The outcome of a `fetch` that rejected with `error`: `not_sent` when `error` or one of its causes
 * (five deep) carries a code or words that prove no connection carried the request, or, for an
 * `AggregateError` of connection attempts (one per address), every attempt does; else `unknown`.
 */
export function fetchOutcome(error: unknown): ConnectionOutcome {
  return neverSent(error, 0) ? 'not_sent' : 'unknown'
}

function neverSent(error: unknown, depth: number): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false
  const { code, message, errors, cause } = error as Record<string, unknown>
  if (NEVER_SENT.test(`${code} ${message}`)) return true
  if (Array.isArray(errors) && errors.length > 0) return errors.every((e) => neverSent(e, depth + 1))
  return neverSent(cause, depth + 1)
}

/** The end of a no-answer message: which outcome, and what to do about it. */
export function outcomeAdvice(outcome: ConnectionOutcome): string {
  return outcome === 'not_sent'
    ? 'it never reached the service (outcome not_sent): sending it again is safe'
    : 'it may have reached the service (outcome unknown): check whether a write took effect before sending it again'
}
