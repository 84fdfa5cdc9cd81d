/**
 * What a call's failure becomes: the errors a `fetch` or an answer's body threw, turned into the
 * SDK's error classes (docs/errors-and-retries.md), and the errors of an answer the SDK cannot read.
 */
import { isNetworkError, isTimeoutError } from 'ky'
import type { FieldErrors } from '../schemas/common.js'
import { ConnectionError, ResponseValidationError, TimeoutError } from './errors.js'
import { fetchOutcome, outcomeAdvice } from './outcome.js'
import type { Prepared } from './prepare.js'

/** The error a `fetch` function threw, kept apart from ky's and the SDK's own errors. */
export class FetchFailure extends Error {
  override readonly name = 'FetchFailure'
}

/** The body broke off after the status line (the stream's error is the cause). */
export class BodyFailure extends Error {
  override readonly name = 'BodyFailure'
}

/** An error answer's body: its JSON when it parses, else its text (`undefined` when empty). */
export function errorBody(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** A 2xx answer whose body is not what its schema says. */
export function invalidAnswer(
  req: Prepared,
  response: Response,
  fields: FieldErrors,
): ResponseValidationError {
  const { status, headers } = response
  return new ResponseValidationError({ status, fields, headers, method: req.method, url: req.url })
}

/**
 * The mock's default base URL (`createMockApi()`'s) is no host of the network: a call to it that got
 * no answer was meant for a mock that this client does not reach (docs/testing-with-the-mock.md).
 */
function mockHint(url: string): string {
  return url.startsWith('https://api.reseller.test/')
    ? ' (the mock: pass fetch: mock.fetch, or run reseller-mock)'
    : ''
}

/**
 * Turns what ky threw into the SDK's error; never keeps ky's `Request` or options (they hold the
 * key). A timeout or a cut answer may have been applied (`outcome: 'unknown'`); a `fetch` that
 * failed says by its cause whether the request ever left (core/outcome.ts).
 */
export function convertFailure(error: unknown, req: Prepared, timeoutMs: number): unknown {
  const { method, url } = req
  if (isTimeoutError(error)) {
    const message = `${method} ${url} timed out after ${timeoutMs} ms; ${outcomeAdvice('unknown')}`
    return new TimeoutError({ method, url, timeoutMs, message })
  }
  if (error instanceof BodyFailure) {
    const message = `${method} ${url}: the answer was cut short; ${outcomeAdvice('unknown')}`
    return new ConnectionError({ method, url, cause: error.cause, message })
  }
  if (error instanceof FetchFailure || isNetworkError(error)) {
    const cause = (error as Error).cause
    // undici's "fetch failed" says little; its cause says `connect ECONNREFUSED 127.0.0.1:443`.
    const inner = ((cause as Error | undefined)?.cause as Error | undefined)?.message
    const said = (cause as Error | undefined)?.message
    const reason = said ? `: ${said}${inner ? ` (${inner})` : ''}` : ''
    const outcome = fetchOutcome(cause)
    const what = outcome === 'not_sent' ? 'was not sent' : 'got no answer'
    const message = `${method} ${url} ${what}${reason}; ${outcomeAdvice(outcome)}${mockHint(url)}`
    return new ConnectionError({ method, url, cause, message, outcome })
  }
  return error
}
