/**
 * API errors as values. Domain code and handlers `throw` them wherever a rule fails; the routing
 * core renders every one into the error envelope in one place (`routing/errors.ts`, `renderError`).
 * No layer below routing renders anything: this module only names the errors.
 */
import { describeFieldErrors, type ErrorCode, type FieldErrors } from '@reseller-api/sdk/schemas'

/** An error answer of the API: status, `error.code`, message and, for 422 validation, `fields`. */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldErrors,
    /** Extra answer headers (lower-case names). */
    readonly headers?: Record<string, string>,
  ) {
    super(message)
  }
}

/** Whether `error` is an {@link ApiError}, also across two copies of this package. */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError || (error instanceof Error && error.name === 'ApiError' && 'code' in error)
}

/** Factories for every error the API answers. */
export const errors = {
  unauthenticated: (message = 'missing, malformed or unknown API key') =>
    new ApiError(401, 'unauthenticated', message),
  insufficientScope: (scope: string) =>
    new ApiError(403, 'insufficient_scope', `this API key lacks the scope ${scope} that this endpoint needs`),
  sandboxReadOnly: (method: string, path: string) =>
    new ApiError(
      403,
      'sandbox_read_only',
      `sandbox keys are read-only here: ${method} ${path} would change state; use a live key`,
    ),
  notFound: (what: string) => new ApiError(404, 'not_found', `${what} not found`),
  routeNotFound: (method: string, path: string) =>
    new ApiError(404, 'not_found', `no such endpoint: ${method} ${path}`),
  validation: (fields: FieldErrors, message?: string) =>
    new ApiError(
      422,
      'validation_error',
      message ?? `invalid request: ${describeFieldErrors(fields)}`,
      fields,
    ),
  unsupportedMediaType: (type: string) =>
    new ApiError(
      415,
      'unsupported_media_type',
      `the body must be JSON, sent with "Content-Type: application/json" (got "${type.slice(0, 100)}")`,
    ),
  /** A validation failure of one field. */
  field: (field: string, message: string) => errors.validation({ [field]: [message] }),
  invalidState: (message: string) => new ApiError(422, 'invalid_state', message),
  noResellerService: () =>
    new ApiError(
      422,
      'no_reseller_service',
      'no active reseller service with WHM access is assigned to this account',
    ),
  whmUnavailable: () =>
    new ApiError(503, 'whm_unavailable', 'the WHM server is not reachable; try again later'),
  quotaExceeded: (limit: number) =>
    new ApiError(422, 'quota_exceeded', `the WHM plan allows ${limit} accounts and all are in use`),
  /** A mock limit on stored things (general webhooks per reseller): the spec's nearest code. */
  limitReached: (message: string) => new ApiError(422, 'quota_exceeded', message),
  domainTaken: (domain: string) =>
    new ApiError(422, 'domain_taken', `the domain ${domain} is already used by another cPanel account`),
  insufficientFunds: (price: number, balance: number) =>
    new ApiError(
      422,
      'insufficient_funds',
      `the wallet balance (${balance}) is below the domain registration price (${price})`,
    ),
  internal: () => new ApiError(500, 'internal_error', 'the mock failed to answer this request'),
}
