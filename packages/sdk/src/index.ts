/**
 * Typed client for the reseller hosting API: every endpoint, typed errors, pagination, safe retries.
 *
 * ```ts
 * import { ResellerApi, NotFoundError } from '@reseller-api/sdk'
 * const api = new ResellerApi({ apiKey: process.env.RESELLER_API_KEY!, baseUrl: 'https://api.example.com' })
 * ```
 *
 * Webhook signature helpers live in the separate entry point `@reseller-api/sdk/webhooks`.
 *
 * @packageDocumentation
 */
export { ResellerApi, type ResellerApiOptions } from './client.js'
export { APIPromise, type WithResponse } from './core/api-promise.js'
export type { HttpMethod } from './core/endpoint.js'
export {
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  ConnectionError,
  type ConnectionErrorInit,
  DomainTakenError,
  type ErrorResponse,
  errorFromResponse,
  InsufficientFundsError,
  InvalidStateError,
  isApiError,
  isResellerApiError,
  NoResellerServiceError,
  NotFoundError,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitError,
  type RateLimitErrorInit,
  ResellerApiError,
  ResponseValidationError,
  type ResponseValidationErrorInit,
  SandboxReadOnlyError,
  ServerError,
  TimeoutError,
  type TimeoutErrorInit,
  UnprocessableEntityError,
  ValidationError,
  type ValidationErrorInit,
  WhmUnavailableError,
} from './core/errors.js'
export type { Logger, LogLevel } from './core/logger.js'
export { Page, type PageFetcher, PagePromise } from './core/pagination.js'
export type { FetchFunction, RequestOptions } from './core/transport.js'
export { HostingResource } from './resources/hosting.js'
export { InvoicesResource } from './resources/invoices.js'
export { ResellerWebhookResource } from './resources/reseller-webhook.js'
export { ServicesResource } from './resources/services.js'
export { TicketsResource } from './resources/tickets.js'
export { WebhooksResource } from './resources/webhooks.js'
export { WhmAccountsResource, WhmPackagesResource, WhmResource } from './resources/whm.js'
// The wire schemas and their types are public API by design (one source of truth with the mock).
export * from './schemas/index.js'
export { VERSION } from './version.js'
