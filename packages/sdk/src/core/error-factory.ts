/**
 * The one factory that turns a non-2xx HTTP answer into its error class, and the error of a request
 * refused before sending. Imports nothing from ky, like `errors.ts`.
 */
import { ErrorBody, type FieldErrors } from '../schemas/common.js'
import { describeFieldErrors } from '../schemas/issues.js'
import {
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  DomainTakenError,
  InsufficientFundsError,
  InvalidStateError,
  NoResellerServiceError,
  NotFoundError,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitError,
  SandboxReadOnlyError,
  ServerError,
  UnprocessableEntityError,
  ValidationError,
  WhmUnavailableError,
} from './errors.js'
import { parseRetryAfter } from './retry.js'

/** Everything the factory needs to know about a non-2xx answer. */
export interface ErrorResponse {
  /** HTTP status. */
  readonly status: number
  /** HTTP status text, used when the body carries no message. */
  readonly statusText: string
  /** Answer headers. */
  readonly headers: Headers
  /** Parsed body: JSON value, text, or `undefined`. */
  readonly body: unknown
  /** HTTP method of the request. */
  readonly method: string
  /** URL of the request. */
  readonly url: string
  /** `Date.now()` at reception, to read an HTTP-date `Retry-After`. */
  readonly now?: number
}

type UnprocessableClass = new (init: ApiErrorInit) => UnprocessableEntityError

// A Map: `code` comes from the answer, and `constructor` must not find Object's constructor.
const UNPROCESSABLE_BY_CODE: ReadonlyMap<string, UnprocessableClass> = new Map<string, UnprocessableClass>([
  ['invalid_state', InvalidStateError],
  ['no_reseller_service', NoResellerServiceError],
  ['quota_exceeded', QuotaExceededError],
  ['domain_taken', DomainTakenError],
  ['insufficient_funds', InsufficientFundsError],
])

/**
 * `error.fields` of an answer as sent. zod's record parse leaves out a field named `__proto__`
 * (it guards its own output object), but that name is a field the client sent like any other.
 */
function fieldsOf(body: unknown, parsed: FieldErrors): FieldErrors {
  const raw = (body as { error?: { fields?: unknown } } | null)?.error?.fields
  if (raw === null || typeof raw !== 'object') return parsed
  // The own property, read without touching the `__proto__` accessor.
  const proto: unknown = Object.getOwnPropertyDescriptor(raw, '__proto__')?.value
  if (!Array.isArray(proto) || !proto.every((m) => typeof m === 'string')) return parsed
  return Object.fromEntries([...Object.entries(parsed), ['__proto__', proto as string[]]])
}

/**
 * The one factory from a non-2xx answer to its error class: by status first, then by the body's
 * `error.code` within 403, 422 and 5xx. Statuses with no class of their own (400, 408, 409, …)
 * arrive as a plain {@link ApiError}.
 */
export function errorFromResponse(response: ErrorResponse): ApiError {
  const envelope = ErrorBody.safeParse(response.body)
  const error = envelope.success ? envelope.data.error : undefined
  const code = error?.code
  const what = error?.message || response.statusText || 'request failed'
  const message = `${what} (${response.status}${code ? ` ${code}` : ''}; ${response.method} ${response.url})`
  const init: ApiErrorInit = {
    status: response.status,
    code,
    message,
    body: response.body,
    headers: response.headers,
    method: response.method,
    url: response.url,
  }
  const { status } = response
  if (status === 401) return new AuthenticationError(init)
  if (status === 403) {
    return code === 'sandbox_read_only' ? new SandboxReadOnlyError(init) : new PermissionDeniedError(init)
  }
  if (status === 404) return new NotFoundError(init)
  if (status === 422) {
    if (code === 'validation_error')
      return new ValidationError({ ...init, fields: fieldsOf(response.body, error?.fields ?? {}) })
    const Class = code === undefined ? undefined : UNPROCESSABLE_BY_CODE.get(code)
    return Class ? new Class(init) : new UnprocessableEntityError(init)
  }
  if (status === 429) {
    return new RateLimitError({
      ...init,
      retryAfter: parseRetryAfter(response.headers.get('retry-after'), response.now),
    })
  }
  if (status >= 500) {
    return code === 'whm_unavailable' ? new WhmUnavailableError(init) : new ServerError(init)
  }
  return new ApiError(init)
}

/**
 * The {@link ValidationError} of a request the SDK refused before sending: same class, status and
 * code as the server's, with `fields` naming each failing field.
 */
export function requestValidationError(method: string, url: string, fields: FieldErrors): ValidationError {
  const detail = describeFieldErrors(fields)
  return new ValidationError({
    status: 422,
    code: 'validation_error',
    message: `${method} ${url} was not sent: ${detail}`,
    body: { success: false, error: { code: 'validation_error', message: detail, fields } },
    headers: undefined,
    method,
    url,
    fields,
  })
}
