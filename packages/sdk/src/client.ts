import type { ApiPromise } from './core/api-promise.js'
import type { HttpMethod } from './core/endpoint.js'
import { checkHooks, type RequestHooks } from './core/hooks.js'
import { LOG_LEVELS, type Logger, type LogLevel, logLevelFromEnv } from './core/logger.js'
import type { RawInput } from './core/raw.js'
import { userAgent } from './core/runtime.js'
import { type FetchFunction, type RequestOptions, refuseAuthorization, Transport } from './core/transport.js'
import { HostingResource } from './resources/hosting.js'
import { InvoicesResource } from './resources/invoices.js'
import { ResellerWebhookResource } from './resources/reseller-webhook.js'
import { ServicesResource } from './resources/services.js'
import { TicketsResource } from './resources/tickets.js'
import { WebhooksResource } from './resources/webhooks.js'
import { WhmResource } from './resources/whm.js'
import { type KeyMode, keyMode } from './schemas/common.js'

/** Options of {@link ResellerApi}. Only `apiKey` and `baseUrl` are required. */
export interface ResellerApiOptions {
  /** API key: `svc_live_…` (acts for real) or `svc_test_…` (sandbox). Sent as a bearer token, never logged. */
  apiKey: string
  /** The service's `{base_url}`, such as `https://api.example.com`; the client adds `/api/v1`. */
  baseUrl: string
  /**
   * Per-attempt timeout in milliseconds: the answer must start and its body arrive in full within
   * it. Default `30000`.
   */
  timeoutMs?: number
  /**
   * Automatic retries of a GET, PUT, PATCH or DELETE that failed with 408, 429, 5xx or no answer.
   * Default `2`; `0` disables them. POSTs are never retried.
   */
  maxRetries?: number
  /** The `fetch` to send with: a framework's, a proxy-aware one, or a mock's `mock.fetch`. Default: the global `fetch`. */
  fetch?: FetchFunction
  /** Headers sent with every request (tracing, proxies). They may replace `User-Agent`, never `Authorization`. */
  headers?: Record<string, string>
  /**
   * Where to log traffic and retries (`console` works). Nothing is logged without it, unless the
   * environment variable `RESELLER_API_LOG` is set (see `logLevel`); the key never is.
   */
  logger?: Logger
  /**
   * Lowest level passed to `logger`. Default `'warn'` (retries only); `'debug'` adds every attempt.
   * When neither `logger` nor `logLevel` is given and `process.env.RESELLER_API_LOG` is `debug`,
   * `info`, `warn` or `error` (Node, Bun, Deno), the client logs at that level to `console`.
   */
  logLevel?: LogLevel
  /**
   * Functions called around each attempt (retries included), for tracing and metrics without
   * wrapping `fetch`: `onRequest({ method, url, attempt })` before it is sent, `onResponse({ method,
   * url, attempt, status, requestId, durationMs, error })` once it ended. They never get the key or
   * a header; one that throws is logged at `error` and the call goes on; promises are not awaited.
   */
  hooks?: RequestHooks
  /**
   * Refuse answers holding what this SDK version does not know: an enum value it does not list or
   * a field its schema does not declare then throws {@link ResponseValidationError}. Default
   * `false`: both pass through unchanged (added fields stay readable on the object) and the first
   * of each field is logged once at `warn`. A value of the wrong JSON type always throws. Turn it
   * on in tests against a mock, to catch drift between the mock and the SDK.
   */
  strictResponses?: boolean
}

const DEFAULT_TIMEOUT_MS = 30_000
const DEFAULT_MAX_RETRIES = 2
const MAX_TIMEOUT_MS = 2_147_483_647

/**
 * The client of the reseller hosting API.
 *
 * ```ts
 * const api = new ResellerApi({ apiKey: process.env.RESELLER_API_KEY!, baseUrl: 'https://api.example.com' })
 * const usage = await api.whm.usage()
 * for await (const ticket of api.tickets.list()) console.log(ticket.subject)
 * ```
 *
 * Every method resolves to the answer's `data`, parsed by its schema; list methods resolve to a
 * {@link Page}. Failures throw the classes of `core/errors` (all extend {@link ResellerApiError}).
 */
export class ResellerApi {
  /** `'live'` or `'sandbox'`, from the key's prefix. Sandbox keys simulate provisioning and may only read tickets. */
  readonly mode: KeyMode
  /** The `baseUrl` given, without trailing slashes. */
  readonly baseUrl: string
  /** Reseller hosting: provision, suspend, unsuspend and delete clients' cPanel accounts. */
  readonly hosting: HostingResource
  /** Direct WHM access: usage, accounts and packages. */
  readonly whm: WhmResource
  /** Support tickets. */
  readonly tickets: TicketsResource
  /** The reseller-style webhook configuration. */
  readonly resellerWebhook: ResellerWebhookResource
  /** General webhooks and their deliveries. */
  readonly webhooks: WebhooksResource
  /** The caller's services. */
  readonly services: ServicesResource
  /** The caller's invoices. */
  readonly invoices: InvoicesResource
  readonly #transport: Transport

  /**
   * Checks the options and builds the client. Throws a `TypeError` for a key that is not a
   * `svc_live_…` or `svc_test_…` key (the message never repeats the key), a `baseUrl` that is not an
   * absolute http(s) URL, or an out-of-range number.
   */
  constructor(options: ResellerApiOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError('ResellerApi needs an options object: { apiKey, baseUrl }')
    }
    this.mode = checkApiKey(options.apiKey)
    this.baseUrl = checkBaseUrl(options.baseUrl)
    const timeoutMs = checkNumber('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS, 1, MAX_TIMEOUT_MS)
    const maxRetries = checkNumber('maxRetries', options.maxRetries, DEFAULT_MAX_RETRIES, 0, 100)
    const headers = checkHeaders(options.headers)
    // Options win over the environment: the variable is read only when neither was given.
    const envLevel =
      options.logger === undefined && options.logLevel === undefined ? logLevelFromEnv() : undefined
    const logger = options.logger ?? (envLevel === undefined ? undefined : globalThis.console)
    const logLevel = options.logLevel ?? envLevel ?? 'warn'
    if (!LOG_LEVELS.includes(logLevel))
      throw new TypeError(`logLevel must be one of ${LOG_LEVELS.join(', ')}`)
    const hooks = checkHooks(options.hooks)
    if (options.fetch !== undefined && typeof options.fetch !== 'function') {
      throw new TypeError('fetch must be a function')
    }
    const fetch: FetchFunction = options.fetch ?? ((request, init) => globalThis.fetch(request, init))
    if (options.strictResponses !== undefined && typeof options.strictResponses !== 'boolean') {
      throw new TypeError('strictResponses must be a boolean')
    }
    const apiUrl = `${this.baseUrl}/api/v1`
    // A Headers object checks names and values now, not at the first call, and merges names
    // case-insensitively: a user's `User-Agent` replaces ours.
    const merged = new Headers({ accept: 'application/json' })
    const agent = userAgent()
    if (agent) merged.set('user-agent', agent)
    for (const [name, value] of Object.entries(headers)) merged.set(name, value)
    merged.set('authorization', `Bearer ${options.apiKey}`)
    // A plain object (lower-case names) for ky, which merges those without building Headers;
    // fromEntries keeps a header named `__proto__` a header.
    const defaults = Object.fromEntries(merged)
    const transport = new Transport({
      apiUrl,
      headers: defaults,
      fetch,
      timeoutMs,
      maxRetries,
      logger,
      logLevel,
      strictResponses: options.strictResponses ?? false,
      hooks,
      mode: this.mode,
    })
    this.#transport = transport
    this.hosting = new HostingResource(transport)
    this.whm = new WhmResource(transport)
    this.tickets = new TicketsResource(transport)
    this.resellerWebhook = new ResellerWebhookResource(transport)
    this.webhooks = new WebhooksResource(transport)
    this.services = new ServicesResource(transport)
    this.invoices = new InvoicesResource(transport)
  }

  /**
   * Sends any request under `/api/v1`, for an endpoint this SDK version does not know yet, with the
   * client's key, retries (never for a POST), errors, hooks and logging. `path` starts with `/` and
   * is relative to `/api/v1`; it may not climb out of it. Resolves to the answer's `data`, parsed
   * as JSON without a schema (`undefined` for an empty answer): give its type as `T`.
   *
   * ```ts
   * const usage = await api.request<{ accounts_used: number }>('GET', '/reseller/whm/usage')
   * await api.request('POST', '/support/tickets', { body: { subject, message, department: 'sales' } })
   * ```
   *
   * Rejects with a `TypeError` before sending for a method other than GET, POST, PUT, PATCH and
   * DELETE, a path that does not start with `/` or leaves `/api/v1`, a query value that is not a
   * string, number or boolean, or a body that has no JSON form (or comes with a GET); with the
   * SDK's error classes for what the service answers.
   */
  request<T = unknown>(
    method: HttpMethod,
    path: string,
    input?: RawInput,
    options?: RequestOptions,
  ): ApiPromise<T> {
    return this.#transport.request<T>(method, path, input, options)
  }
}

/** The key's mode, or a `TypeError` that says what is wrong without repeating the key. */
function checkApiKey(apiKey: unknown): KeyMode {
  if (typeof apiKey !== 'string' || apiKey === '') {
    throw new TypeError('apiKey is required: pass your API key (svc_live_… or svc_test_…)')
  }
  const mode = keyMode(apiKey)
  if (mode) return mode
  if (keyMode(apiKey.trim())) {
    throw new TypeError('apiKey has leading or trailing whitespace: remove it (the key was not shown)')
  }
  throw new TypeError(
    'apiKey is not a reseller API key: it must start with svc_live_ or svc_test_ followed by letters, digits, _ or - (the key was not shown)',
  )
}

/** `baseUrl` without trailing slashes (and without `/api/v1`, which the client adds). */
function checkBaseUrl(baseUrl: unknown): string {
  let url: URL | undefined
  try {
    url = typeof baseUrl === 'string' ? new URL(baseUrl) : undefined
  } catch {
    url = undefined
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash) {
    throw new TypeError('baseUrl must be an absolute http:// or https:// URL without query or fragment')
  }
  if (url.username || url.password) throw new TypeError('baseUrl must not contain credentials: use apiKey')
  return url.href.replace(/\/+$/, '').replace(/\/api\/v1$/, '')
}

function checkNumber(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`${name} must be an integer from ${min} to ${max}`)
  }
  return value
}

function checkHeaders(headers: unknown): Record<string, string> {
  if (headers === undefined) return {}
  if (typeof headers !== 'object' || headers === null)
    throw new TypeError('headers must be an object of strings')
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') throw new TypeError(`headers.${name} must be a string`)
  }
  refuseAuthorization(headers)
  return headers as Record<string, string>
}
