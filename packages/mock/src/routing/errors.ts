/**
 * The one place an error becomes an answer: {@link renderError} turns any thrown value into the
 * error envelope (the errors themselves are in `src/errors.ts`).
 */
import { type ApiError, errors, isApiError } from '../errors.js'
import type { MockResponse } from './types.js'

const JSON_HEADERS = { 'content-type': 'application/json' } as const

/** Renders any thrown value as an error answer; anything but an {@link ApiError} becomes a bare 500. */
export function renderError(error: unknown): MockResponse {
  let apiError: ApiError
  if (isApiError(error)) {
    apiError = error
  } else {
    // A bug in the mock: logged for its operator, never leaked to the client.
    console.error('[reseller-mock] unexpected error:', error)
    apiError = errors.internal()
  }
  const body: { code: string; message: string; fields?: Record<string, string[]> } = {
    code: apiError.code,
    message: apiError.message,
  }
  if (apiError.fields) body.fields = apiError.fields
  return {
    status: apiError.status,
    headers: apiError.headers ? { ...JSON_HEADERS, ...apiError.headers } : { ...JSON_HEADERS },
    body: JSON.stringify({ success: false, error: body }),
  }
}
