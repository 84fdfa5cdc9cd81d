/**
 * Whether a request that got no answer may have reached the service (docs/errors-and-retries.md,
 * "When an answer is lost"). Only a failure that proves the request never left is `not_sent`: a
 * refused connection, a name that did not resolve, a host out of reach, a TLS handshake that
 * failed. Anything else (a reset or closed connection, a timeout, a `fetch` that says only "failed",
 * as browsers do) may have been applied, so it is `unknown`: the safe reading for a write.
 */

/**
 * What a request that got no answer did at the service: `'unknown'` when it may have reached it
 * (and taken effect), `'not_sent'` when it surely did not.
 */
export type ConnectionOutcome = 'unknown' | 'not_sent'

/**
 * Error codes of a connection that never carried the request: Node's and undici's (`ECONNREFUSED`,
 * `ENOTFOUND`, TLS certificate refusals…) and Bun's (`ConnectionRefused`, `FailedToOpenSocket`).
 */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'EAI_NODATA',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ConnectionRefused',
  'FailedToOpenSocket',
])

/** Deno's messages for the same failures (its errors carry no code). */
const NOT_SENT_MESSAGE = /connection refused|dns error|failed to lookup address|name or service not known/i

/**
 * The outcome of a `fetch` that rejected with `error`: `not_sent` when `error` or one of its causes
 * carries a code (or, for an `AggregateError` of connection attempts, every attempt does) that
 * proves no connection carried the request; `unknown` otherwise.
 */
export function fetchOutcome(error: unknown): ConnectionOutcome {
  return neverSent(error, 0) ? 'not_sent' : 'unknown'
}

function neverSent(error: unknown, depth: number): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false
  const { code, message, errors, cause } = error as {
    code?: unknown
    message?: unknown
    errors?: unknown
    cause?: unknown
  }
  if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return true
  if (typeof message === 'string' && NOT_SENT_MESSAGE.test(message)) return true
  // Happy eyeballs: every address was tried, none connected.
  if (Array.isArray(errors) && errors.length > 0 && errors.every((e) => neverSent(e, depth + 1))) return true
  return neverSent(cause, depth + 1)
}

/**
 * What a failed `fetch` says, for a message: its own words and, where they are vague (undici's
 * "fetch failed"), the innermost cause's (`connect ECONNREFUSED 127.0.0.1:443`). Empty when it
 * says nothing.
 */
export function fetchFailureReason(error: unknown): string {
  if (!(error instanceof Error) || !error.message) return ''
  let root: unknown = error
  for (let depth = 0; depth < 4; depth++) {
    const next: unknown =
      root instanceof AggregateError && root.errors.length > 0 ? root.errors[0] : (root as Error).cause
    if (!(next instanceof Error) || !next.message) break
    root = next
  }
  const inner = (root as Error).message
  return root === error || error.message.includes(inner) ? error.message : `${error.message} (${inner})`
}

/**
 * The end of a no-answer message: which outcome, and what to do about it. A GET changes nothing,
 * so sending it again is always safe; a write may have been applied.
 */
export function outcomeAdvice(method: string, outcome: ConnectionOutcome): string {
  if (outcome === 'not_sent') {
    return 'it never reached the service (outcome not_sent): nothing was done, sending it again is safe'
  }
  return method === 'GET'
    ? 'it may have reached the service (outcome unknown); a GET changes nothing, sending it again is safe'
    : 'it may have reached the service and taken effect (outcome unknown): check before sending it again'
}
