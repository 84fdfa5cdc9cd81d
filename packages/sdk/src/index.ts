/**
 * Typed client for the reseller hosting API: every endpoint, typed errors, pagination, safe retries.
 *
 * ```ts
 * import { ResellerApi, NotFoundError } from '@reseller-api/sdk'
 * const api = new ResellerApi({ apiKey: process.env.RESELLER_API_KEY!, baseUrl: 'https://api.example.com' })
 * ```
 *
 * The zod schemas and their validation helpers live in `@reseller-api/sdk/schemas`; webhook
 * signature helpers in `@reseller-api/sdk/webhooks`.
 *
 * @packageDocumentation
 */
export type {
  AccountStatus,
  Answer,
  Delivery,
  DeliveryStatus,
  Department,
  HostingCreated,
  Invoice,
  MessageAuthor,
  OpenEnum,
  PageMeta,
  Priority,
  ResellerWebhook,
  ResellerWebhookTestResult,
  Service,
  Ticket,
  TicketCreated,
  TicketDetail,
  TicketMessage,
  TicketStatus,
  TicketStatusChange,
  WebhookCreated,
  WhmAccount,
  WhmAccountDeleted,
  WhmPackage,
  WhmPackageDeleted,
  WhmUsage,
} from './answers.js'
export { ResellerApi, type ResellerApiOptions } from './client.js'
export { ApiPromise, type WithResponse } from './core/api-promise.js'
export type { HttpMethod } from './core/endpoint.js'
export {
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  ConnectionError,
  type ConnectionErrorInit,
  DomainTakenError,
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
export type { RequestHookInfo, RequestHooks, ResponseHookInfo } from './core/hooks.js'
export type { Logger, LogLevel } from './core/logger.js'
export type { ConnectionOutcome } from './core/outcome.js'
export { Page, type PageFetcher, PagePromise } from './core/pagination.js'
export type { RawInput, RawQueryValue } from './core/raw.js'
export type { ApiResource } from './core/resource.js'
export type { FetchFunction, RequestOptions } from './core/transport.js'
export type { HostingResource } from './resources/hosting.js'
export type { HostingEnsured } from './resources/hosting-ensure.js'
export type { InvoicesResource } from './resources/invoices.js'
export type { ResellerWebhookResource } from './resources/reseller-webhook.js'
export type { ServicesResource } from './resources/services.js'
export type { TicketsResource } from './resources/tickets.js'
export type { WebhooksResource } from './resources/webhooks.js'
export type { WhmAccountsResource, WhmPackagesResource, WhmResource } from './resources/whm.js'
export type {
  GeneralEventName,
  HostingCreateParams,
  PageParams,
  ResellerWebhookUpdateBody,
  TicketCreateParams,
  TicketReplyBody,
  WebhookCreateBody,
  WebhookTestParams,
  WhmPackageCreateBody,
} from './schemas/wire.js'
export { VERSION } from './version.js'
