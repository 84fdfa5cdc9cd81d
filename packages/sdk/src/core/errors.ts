/**
 * Every error the SDK throws (the one factory that turns an HTTP answer into its class is
 * `error-factory.ts`).
 *
 * No class keeps a `Request`, request headers or client options: the API key travels in the
 * `Authorization` header and must appear in no message, property, stack or cause. This module
 * imports nothing from ky, so the webhook entry point may reuse it.
 */
import type { FieldErrors } from '../schemas/common.js'
import { describeFieldErrors } from '../schemas/issues.js'
import type { ConnectionOutcome } from './outcome.js'

/** Base of every error the SDK throws. Catch it to handle anything the client can fail with. */
export class ResellerApiError extends Error {
  /** Class name, stable across bundles and copies of the package (compare it instead of `instanceof`). */
  override readonly name: string = 'ResellerApiError'

  /** Brand of every SDK error, read by {@link isResellerApiError}: it holds across copies of the package. */
  get isResellerApiError(): true {
    return true
  }
}

/** What the SDK knows about an HTTP answer or a refused request, shared by every {@link ApiError}. */
export interface ApiErrorInit {
  /** HTTP status of the answer (422 for a request the SDK refused before sending). */
  readonly status: number
  /** The body's `error.code`, or `undefined` when the body is not an error envelope. */
  readonly code: string | undefined
  /** The full message of the error. */
  readonly message: string
  /** The parsed body of the answer: JSON when it was JSON, otherwise its text, or `undefined` if empty. */
  readonly body: unknown
  /** Headers of the answer; `undefined` when no request was made. */
  readonly headers: Headers | undefined
  /** HTTP method of the request. */
  readonly method: string
  /** URL of the request (never carries the key). */
  readonly url: string
}

/**
 * An HTTP answer outside 2xx, or a request the SDK refused to send ({@link ValidationError}).
 * Subclasses name the failure by HTTP meaning and, within 403 and 422, by `error.code`.
 */
export class ApiError extends ResellerApiError {
  override readonly name: string = 'ApiError'
  /** HTTP status of the answer. */
  readonly status: number
  /** The body's `error.code` (`not_found`, `quota_exceeded`, …), or `undefined` when the body had none. */
  readonly code: string | undefined
  /** The parsed body of the answer: usually `{ success: false, error: { code, message } }`. */
  readonly body: unknown
  /** Headers of the answer; `undefined` when no request was made. */
  readonly headers: Headers | undefined
  /** Value of the `X-Request-Id` answer header, when the server sent one: quote it to support. */
  readonly requestId: string | undefined
  /** HTTP method of the request. */
  readonly method: string
  /** URL of the request. */
  readonly url: string

  /** Brand of every HTTP failure, read by {@link isApiError}: it holds across copies of the package. */
  get isApiError(): true {
    return true
  }

  /** @internal Built by the SDK from the answer; not meant to be constructed by users. */
  constructor(init: ApiErrorInit) {
    super(init.message)
    this.status = init.status
    this.code = init.code
    this.body = init.body
    this.headers = init.headers
    this.requestId = init.headers?.get('x-request-id') ?? undefined
    this.method = init.method
    this.url = init.url
  }
}

/** 401: the key is missing, malformed, unknown or revoked (`unauthenticated`). */
export class AuthenticationError extends ApiError {
  override readonly name = 'AuthenticationError'
}

/** 403: the key may not do this; `insufficient_scope` when it lacks the endpoint's scope. */
export class PermissionDeniedError extends ApiError {
  override readonly name: string = 'PermissionDeniedError'
}

/** 403 `sandbox_read_only`: a sandbox key tried to write on the support API. */
export class SandboxReadOnlyError extends PermissionDeniedError {
  override readonly name = 'SandboxReadOnlyError'
}

/** 404: the resource does not exist or belongs to another reseller (`not_found`). */
export class NotFoundError extends ApiError {
  override readonly name = 'NotFoundError'
}

/**
 * 422: the request was understood but refused. The subclasses below name the known codes; a 422
 * with a code this SDK does not know arrives as this class itself, so `instanceof
 * UnprocessableEntityError` catches every refusal of the family.
 */
export class UnprocessableEntityError extends ApiError {
  override readonly name: string = 'UnprocessableEntityError'
}

/** What {@link ValidationError} takes beyond {@link ApiErrorInit}. */
export interface ValidationErrorInit extends ApiErrorInit {
  /** Field path → messages. */
  readonly fields: FieldErrors
}

/**
 * 422 `validation_error`: the body, query or a path parameter breaks a rule. Thrown by the server,
 * or by the SDK before sending (then `headers` is `undefined` and no request was made).
 */
export class ValidationError extends UnprocessableEntityError {
  override readonly name = 'ValidationError'
  /** Each failing field (dot path such as `events.0`) and the rules it broke. */
  readonly fields: FieldErrors

  /** @internal Built by `errorFromResponse` or by the SDK's own checks. */
  constructor(init: ValidationErrorInit) {
    super(init)
    this.fields = init.fields
  }
}

/** 422 `invalid_state`: the operation is not allowed in the resource's current state (e.g. reply to a closed ticket). */
export class InvalidStateError extends UnprocessableEntityError {
  override readonly name = 'InvalidStateError'
}

/** 422 `no_reseller_service`: no active reseller service with WHM access is assigned to the caller. */
export class NoResellerServiceError extends UnprocessableEntityError {
  override readonly name = 'NoResellerServiceError'
}

/** 422 `quota_exceeded`: the WHM plan's account limit is reached (the mock also answers it for its cap of 100 general webhooks per reseller). */
export class QuotaExceededError extends UnprocessableEntityError {
  override readonly name = 'QuotaExceededError'
}

/** 422 `domain_taken`: another cPanel account already uses the domain. */
export class DomainTakenError extends UnprocessableEntityError {
  override readonly name = 'DomainTakenError'
}

/** 422 `insufficient_funds`: the wallet cannot pay for the domain registration. */
export class InsufficientFundsError extends UnprocessableEntityError {
  override readonly name = 'InsufficientFundsError'
}

/** What {@link RateLimitError} takes beyond {@link ApiErrorInit}. */
export interface RateLimitErrorInit extends ApiErrorInit {
  /** Seconds to wait, from `Retry-After`. */
  readonly retryAfter: number | undefined
}

/** 429: too many requests. Retried automatically for GET, PUT, PATCH and DELETE. */
export class RateLimitError extends ApiError {
  override readonly name = 'RateLimitError'
  /** Seconds the server asked to wait (`Retry-After`, seconds or HTTP date), or `undefined` if it did not say. */
  readonly retryAfter: number | undefined

  /** @internal Built by `errorFromResponse`. */
  constructor(init: RateLimitErrorInit) {
    super(init)
    this.retryAfter = init.retryAfter
  }
}

/** 5xx: the server failed. Retried automatically for GET, PUT, PATCH and DELETE. */
export class ServerError extends ApiError {
  override readonly name: string = 'ServerError'
}

/** 503 `whm_unavailable`: WHM is not configured or offline. */
export class WhmUnavailableError extends ServerError {
  override readonly name = 'WhmUnavailableError'
}

/** What {@link ConnectionError} and {@link TimeoutError} know about the request that got no answer. */
export interface ConnectionErrorInit {
  /** HTTP method of the request. */
  readonly method: string
  /** URL of the request. */
  readonly url: string
  /** The full message of the error. */
  readonly message: string
  /** The error the `fetch` function threw (never a `Request` or the client's options). */
  readonly cause?: unknown
  /** Whether the request may have reached the service. Default `'unknown'`. */
  readonly outcome?: ConnectionOutcome
}

/**
 * No answer arrived: DNS failure, refused or reset connection, offline. `outcome` says whether the
 * request may still have been applied (docs/errors-and-retries.md, "When an answer is lost").
 */
export class ConnectionError extends ResellerApiError {
  override readonly name: string = 'ConnectionError'
  /** HTTP method of the request. */
  readonly method: string
  /** URL of the request. */
  readonly url: string
  /**
   * `'unknown'`: the request may have reached the service and taken effect (a connection cut
   * before the answer, a timeout after sending): check before sending a write again.
   * `'not_sent'`: it surely did not (refused connection, DNS failure): sending it again is safe.
   */
  readonly outcome: ConnectionOutcome

  /** @internal Built by the request layer. */
  constructor(init: ConnectionErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.method = init.method
    this.url = init.url
    this.outcome = init.outcome ?? 'unknown'
  }
}

/** What {@link TimeoutError} takes beyond {@link ConnectionErrorInit}. */
export interface TimeoutErrorInit extends ConnectionErrorInit {
  /** The per-attempt limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number
}

/**
 * No complete answer within `timeoutMs` (per attempt). A kind of {@link ConnectionError}; its
 * `outcome` is `'unknown'`: the request may have reached the service.
 */
export class TimeoutError extends ConnectionError {
  override readonly name = 'TimeoutError'
  /** The per-attempt limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number

  /** @internal Built by the request layer. */
  constructor(init: TimeoutErrorInit) {
    super(init)
    this.timeoutMs = init.timeoutMs
  }
}

/** What {@link ResponseValidationError} knows about the answer it refused. */
export interface ResponseValidationErrorInit {
  /** HTTP status of the answer (2xx). */
  readonly status: number
  /** Field path → messages; `body` when the whole body is unusable (not JSON, empty). */
  readonly fields: FieldErrors
  /** Headers of the answer. */
  readonly headers: Headers
  /** HTTP method of the request. */
  readonly method: string
  /** URL of the request. */
  readonly url: string
}

/**
 * A 2xx answer whose body does not match its schema: the SDK cannot return a typed value. The
 * message names each failing field. The raw body is not kept (it may hold a webhook secret).
 */
export class ResponseValidationError extends ResellerApiError {
  override readonly name = 'ResponseValidationError'
  /** HTTP status of the answer (2xx). */
  readonly status: number
  /** Each failing field (dot path such as `data.0.status`) and the rules it broke. */
  readonly fields: FieldErrors
  /** Headers of the answer. */
  readonly headers: Headers
  /** Value of the `X-Request-Id` answer header, when the server sent one. */
  readonly requestId: string | undefined
  /** HTTP method of the request. */
  readonly method: string
  /** URL of the request. */
  readonly url: string

  /** @internal Built by the request layer. */
  constructor(init: ResponseValidationErrorInit) {
    super(
      `${init.method} ${init.url} answered ${init.status} with a body that does not match its schema: ${describeFieldErrors(init.fields)}`,
    )
    this.status = init.status
    this.fields = init.fields
    this.headers = init.headers
    this.requestId = init.headers.get('x-request-id') ?? undefined
    this.method = init.method
    this.url = init.url
  }
}

/** Whether `value` is an object whose `brand` getter (or property) is `true`. */
function branded(value: unknown, brand: 'isResellerApiError' | 'isApiError'): boolean {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>)[brand] === true
}

/**
 * Whether `value` is an error thrown by this SDK. Checks `instanceof`, or the brand every SDK error
 * carries, so it also recognises errors from another copy of the package in the same bundle.
 */
export function isResellerApiError(value: unknown): value is ResellerApiError {
  return value instanceof ResellerApiError || branded(value, 'isResellerApiError')
}

/**
 * Whether `value` is an {@link ApiError} (an HTTP answer outside 2xx, or a request refused before
 * sending). Checks `instanceof` or the brand, like {@link isResellerApiError}.
 */
export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError || branded(value, 'isApiError')
}
