/**
 * The transport: the only caller of ky. It checks path parameters, query and body before
 * sending, runs the retry policy, turns failures into the SDK's error classes and validates every
 * 2xx body against its schema.
 */
import ky, { type KyInstance, type Options } from 'ky'
import type * as z from 'zod/mini'
import type { KeyMode, PageMeta } from '../schemas/common.js'
import { fieldErrors } from '../schemas/issues.js'
import { ApiPromise, type WithResponse } from './api-promise.js'
import { readText } from './body.js'
import type { Endpoint, HttpMethod, ListEndpoint } from './endpoint.js'
import { errorFromResponse } from './error-factory.js'
import { ApiError, ConnectionError } from './errors.js'
import { BodyFailure, convertFailure, errorBody, FetchFailure, invalidAnswer } from './failures.js'
import type { RequestHookInfo, RequestHooks, ResponseHookInfo } from './hooks.js'
import { type Logger, type LogLevel, logs, redactHeaders } from './logger.js'
import { Page, PagePromise } from './pagination.js'
import { type CallInput, type Prepared, prepare } from './prepare.js'
import { prepareRaw, type RawInput } from './raw.js'
import { type ReadPolicy, readAnswer } from './reader.js'
import { parseRetryAfter, retryDelay, shouldRetry, sleep } from './retry.js'
import { UnknownReports } from './unknowns.js'

/**
 * A `fetch` function: the global one, a framework's, or a mock's (`mock.fetch`). The client always
 * calls it with a `Request`.
 */
export type FetchFunction = (input: Request, init?: RequestInit) => Promise<Response>

/** Options of one call, given as the last argument of any method. */
export interface RequestOptions {
  /** Aborts the call (and any pending retry); the promise rejects with the signal's reason. */
  signal?: AbortSignal
  /** Per-attempt timeout for this call, in milliseconds. Defaults to the client's `timeoutMs`. */
  timeoutMs?: number
  /** Automatic retries for this call. Defaults to the client's `maxRetries`. POSTs are never retried. */
  maxRetries?: number
  /** Extra headers for this call. `Authorization` cannot be set here. */
  headers?: Record<string, string>
}

/** @internal What the client gives the transport. */
export interface TransportConfig {
  /** `{base_url}/api/v1`. */
  readonly apiUrl: string
  /** Headers of every request, names in lower case (`authorization` included). */
  readonly headers: Readonly<Record<string, string>>
  readonly fetch: FetchFunction
  readonly timeoutMs: number
  readonly maxRetries: number
  readonly logger: Logger | undefined
  readonly logLevel: LogLevel
  /** Unknown enum values and added fields in answers throw instead of passing through. */
  readonly strictResponses: boolean
  /** Called around each attempt; `undefined` when the client was given none. */
  readonly hooks: RequestHooks | undefined
  /** The key's mode. */
  readonly mode: KeyMode
}

/**
 * @internal Throws a `TypeError` when `headers` names `Authorization` (in any case): the client
 * sets it from `apiKey`, for every request.
 */
export function refuseAuthorization(headers: object): void {
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() === 'authorization') {
      throw new TypeError('the Authorization header is set from apiKey: do not pass it')
    }
  }
}

/**
 * Where {@link Transport.#exchange} leaves an answer's body text, on the Response itself: a
 * WeakMap keyed by every answer costs more per call than the whole reading of a ticket.
 */
const BODY = Symbol('reseller-api body')
type ReadResponse = Response & { [BODY]?: string }
const STRICT: ReadPolicy = { strict: true, unknown: () => undefined }

/**
 * ky's options of a call that sets nothing but its method, made once (ky only reads them). A GET
 * passes none: ky merges every key of a call's options into its defaults, and GET is its default.
 */
const METHOD_ONLY: Readonly<Record<HttpMethod, Options | undefined>> = {
  GET: undefined,
  POST: { method: 'POST' },
  PUT: { method: 'PUT' },
  PATCH: { method: 'PATCH' },
  DELETE: { method: 'DELETE' },
}

/** Makes a method's value from an answer's validated body. */
type Shape<B, T> = (body: B, response: Response) => WithResponse<T>

/** The value of a call returning one resource: the envelope's `data`. */
function dataOf<T>(body: { data: T }, response: Response): WithResponse<T> {
  return { data: body.data, response }
}

/** The value of a call of `api.request`: the answer's `data`, when it is a JSON object. */
function rawDataOf<T>(body: unknown, response: Response): WithResponse<T> {
  return { data: (body as { data?: T } | undefined)?.data as T, response }
}

/** @internal Sends requests for the resource classes. One per client. */
export class Transport {
  readonly #config: TransportConfig
  /** The one ky instance, prepared once: every call passes only what differs (method, body, signal). */
  readonly #http: KyInstance
  readonly #debug: boolean
  /** Something watches each attempt: hooks, or the logger at `debug`. */
  readonly #traced: boolean
  readonly #unknowns: UnknownReports
  readonly #headers: readonly (readonly [string, string])[]
  readonly #hooks: RequestHooks | undefined

  constructor(config: TransportConfig) {
    this.#config = config
    this.#hooks = config.hooks
    this.#debug = config.logger !== undefined && logs(config.logLevel, 'debug')
    this.#traced =
      this.#debug || config.hooks?.onRequest !== undefined || config.hooks?.onResponse !== undefined
    this.#unknowns = new UnknownReports(logs(config.logLevel, 'warn') ? config.logger : undefined)
    this.#headers = Object.entries(config.headers)
    this.#http = ky.create({
      // No `prefix`: the transport builds the full URL once (for messages and logs too), and ky
      // would join it again on every call. No `headers` either: ky would copy them into three
      // Headers objects per call; the client's headers go straight onto the Request (below).
      // Retries are the transport's own (POSTs never); a retry limit above 0 would make ky clone
      // every request in advance.
      retry: 0,
      timeout: config.timeoutMs,
      // Error answers are read and classified here, with the same body reading as 2xx ones.
      throwHttpErrors: false,
      // The fetch of a call that sets no header and sends no body (most calls): ky's Request then
      // has no header of its own, and the client's are set without asking which are there. Other
      // calls bring their own fetch (#options), which keeps the headers they set.
      fetch: (request, init) => this.#exchange(this.#withDefaults(request as Request), init),
    })
  }

  /**
   * One exchange inside ky's call: the client's `fetch`, then the whole body, read before ky sees
   * the answer, so that ky's per-attempt timeout covers both (docs/errors-and-retries.md,
   * "Timeouts and cancelling"). What `fetch` throws and a body that breaks off are told apart from
   * ky's and the SDK's own errors.
   */
  async #exchange(request: Request, init: RequestInit | undefined): Promise<Response> {
    let response: Response
    try {
      response = await this.#config.fetch(request, init)
    } catch (error) {
      throw new FetchFailure('fetch failed', { cause: error })
    }
    const read: ReadResponse = response
    try {
      read[BODY] = await readText(response)
    } catch (error) {
      throw new BodyFailure('the body broke off', { cause: error })
    }
    return response
  }

  /** `request` with the client's headers, on a Request that has none of its own. */
  #withDefaults(request: Request): Request {
    const { headers } = request
    for (const [name, value] of this.#headers) headers.set(name, value)
    return request
  }

  /** `request` with the client's headers added, except those the call set itself (they win). */
  #withHeaders(request: Request): Request {
    const { headers } = request
    for (const [name, value] of this.#headers) if (!headers.has(name)) headers.set(name, value)
    return request
  }

  /** The key's mode: `'sandbox'` keys simulate provisioning. */
  get mode(): KeyMode {
    return this.#config.mode
  }

  /**
   * Sends any request below the API base (`api.request`): its answer is read as JSON without a
   * schema and resolves to its `data`. Bad arguments reject with a `TypeError` before sending.
   */
  request<T>(
    method: string,
    path: string,
    input: RawInput | undefined,
    options?: RequestOptions,
  ): ApiPromise<T> {
    let prepared: Prepared
    try {
      if (options?.headers) refuseAuthorization(options.headers)
      prepared = prepareRaw(method, path, input, this.#config.apiUrl)
    } catch (error) {
      return new ApiPromise(Promise.reject(error))
    }
    return new ApiPromise(this.#send<unknown, T>(prepared, undefined, rawDataOf, options))
  }

  /** Calls an endpoint returning one resource; resolves to its `data`. */
  call<T>(ep: Endpoint<T>, input: CallInput = {}, options?: RequestOptions): ApiPromise<T> {
    return new ApiPromise(this.#run(ep, input, options, dataOf))
  }

  /** Calls a list endpoint; resolves to a {@link Page} that knows how to fetch the next one. */
  list<T>(ep: ListEndpoint<T>, input: CallInput = {}, options?: RequestOptions): PagePromise<T> {
    const next = (page: number) =>
      this.list(ep, { ...input, query: { ...(input.query as object | undefined), page } }, options)
    const pageOf = (body: { data: T[]; meta: PageMeta }, response: Response): WithResponse<Page<T>> => ({
      data: new Page(body.data, body.meta, next),
      response,
    })
    return new PagePromise(this.#run(ep, input, options, pageOf))
  }

  /** Checks the call, then sends it; a refused call rejects without sending. */
  #run<B, T>(
    ep: (Endpoint<unknown> | ListEndpoint<unknown>) & { readonly envelope: z.ZodMiniType<B> },
    input: CallInput,
    options: RequestOptions | undefined,
    shape: Shape<B, T>,
  ): Promise<WithResponse<T>> {
    let prepared: Prepared
    try {
      if (options?.headers) refuseAuthorization(options.headers)
      prepared = prepare(ep, input, this.#config.apiUrl)
    } catch (error) {
      return Promise.reject(error)
    }
    return this.#send(prepared, ep.envelope, shape, options)
  }

  /**
   * Sends with the retry policy: each attempt's failure is converted, then retried or thrown. One
   * async function holds the whole attempt (send, read, check), so a call costs one promise layer
   * of its own beside ky's.
   */
  async #send<B, T>(
    req: Prepared,
    schema: z.ZodMiniType<B> | undefined,
    shape: Shape<B, T>,
    options: RequestOptions | undefined,
  ): Promise<WithResponse<T>> {
    const maxRetries = options?.maxRetries ?? this.#config.maxRetries
    for (let retry = 0; ; retry++) {
      try {
        let response: Response
        const attempt = retry + 1
        // Without hooks or debug logging, an attempt costs nothing more than it did before hooks.
        const started = this.#traced ? this.#beforeAttempt(req, attempt, options) : 0
        try {
          response = await this.#http(req.url, this.#options(req, options))
        } catch (error) {
          const failure = convertFailure(error, req, options?.timeoutMs ?? this.#config.timeoutMs)
          if (this.#traced) this.#afterAttempt(req, attempt, started, undefined, failure)
          throw failure
        }
        if (this.#traced) this.#afterAttempt(req, attempt, started, response)
        // Read by #exchange, always: ky answers with the Response its fetch gave.
        const text = (response as ReadResponse)[BODY] ?? ''
        return shape(this.#read(req, schema, response, text), response)
      } catch (error) {
        if (options?.signal?.aborted) throw options.signal.reason
        const wait = retry < maxRetries ? this.#retryWait(req.method, error, retry) : undefined
        if (wait === undefined) throw error
        this.log('warn', `reseller-api: retrying ${req.method} ${req.url} in ${Math.round(wait)} ms`, {
          attempt: retry + 2,
          maxAttempts: maxRetries + 1,
          reason: error instanceof Error ? error.message : String(error),
        })
        await sleep(wait, options?.signal)
      }
    }
  }

  /**
   * Before an attempt: the `debug` line (headers redacted) and `onRequest`; returns the start time.
   * The line lists the headers the attempt carries: the client's, and the call's over them.
   */
  #beforeAttempt({ method, url }: Prepared, attempt: number, options: RequestOptions | undefined): number {
    if (this.#debug) {
      // As the request carries them: a call's header replaces the client's of the same name, in any case.
      const merged = new Headers(this.#config.headers)
      for (const [name, value] of Object.entries(options?.headers ?? {})) merged.set(name, value)
      const headers = redactHeaders(merged)
      this.log('debug', `reseller-api: → ${method} ${url}`, { attempt, headers })
    }
    this.#hook('onRequest', { method, url, attempt })
    return performance.now()
  }

  /** After an attempt: the `debug` line and `onResponse`, with its answer or its failure when none came. */
  #afterAttempt(
    { method, url }: Prepared,
    attempt: number,
    started: number,
    response?: Response,
    error: unknown = null,
  ) {
    const status = response ? response.status : null
    const requestId = response ? response.headers.get('x-request-id') : null
    const durationMs = performance.now() - started
    const info = { method, url, attempt, status, requestId, durationMs, error }
    if (this.#debug)
      this.log('debug', `reseller-api: ${response ? `← ${status}` : '✗'} ${method} ${url}`, info)
    this.#hook('onResponse', info)
  }

  /**
   * Calls one hook, on the hooks object. What it throws, or its promise rejects with, is logged at
   * `error` and never reaches the call; the promise is not awaited.
   */
  #hook(name: keyof RequestHooks, info: ResponseHookInfo | RequestHookInfo): void {
    const hooks = this.#hooks
    const hook = hooks?.[name] as ((info: unknown) => unknown) | undefined
    if (!hook) return
    const failed = (error: unknown) =>
      this.log('error', `reseller-api: the ${name} hook failed: ${error}`, { error })
    try {
      const result = hook.call(hooks, info)
      // A promise (or thenable) it returns is watched for a rejection, never awaited.
      if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function')
        Promise.resolve(result).then(undefined, failed)
    } catch (error) {
      failed(error)
    }
  }

  /** Milliseconds before the next attempt, or `undefined` when this failure is not retried. */
  #retryWait(method: HttpMethod, error: unknown, retry: number): number | undefined {
    if (error instanceof ApiError) {
      if (!shouldRetry(method, error.status)) return undefined
      return retryDelay(retry, parseRetryAfter(error.headers?.get('retry-after')))
    }
    if (error instanceof ConnectionError) {
      return shouldRetry(method, undefined) ? retryDelay(retry, undefined) : undefined
    }
    return undefined
  }

  /** What one attempt passes to ky: only what differs from the prepared instance. */
  #options(req: Prepared, options: RequestOptions | undefined): Options | undefined {
    if (req.json === undefined && options?.timeoutMs === undefined && !options?.signal && !options?.headers) {
      return METHOD_ONLY[req.method]
    }
    const sent: Options = { method: req.method }
    // ky reads an explicit `undefined` as "remove": only defined options are set.
    if (req.json !== undefined) sent.json = req.json
    if (options?.timeoutMs !== undefined) sent.timeout = options.timeoutMs
    if (options?.signal) sent.signal = options.signal
    if (options?.headers) sent.headers = options.headers
    if (sent.headers || sent.json !== undefined) {
      sent.fetch = (request, init) => this.#exchange(this.#withHeaders(request as Request), init)
    }
    return sent
  }

  /**
   * The answer's validated body; throws the error an error status, an empty or unreadable body makes.
   * Without a schema (`api.request`), the body as JSON, and an empty one as `undefined`.
   */
  #read<B>(req: Prepared, schema: z.ZodMiniType<B> | undefined, response: Response, text: string): B {
    if (!response.ok) {
      throw errorFromResponse({
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
        body: errorBody(text),
        method: req.method,
        url: req.url,
      })
    }
    if (text === '') {
      if (schema === undefined) return undefined as B
      throw invalidAnswer(req, response, { body: ['is empty: expected a JSON envelope'] })
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw invalidAnswer(req, response, { body: ['is not valid JSON'] })
    }
    if (schema === undefined) return json as B
    const policy = this.#config.strictResponses ? STRICT : this.#unknowns.policy(req.endpoint)
    const result = readAnswer(schema, json, policy)
    if (!result.success) throw invalidAnswer(req, response, fieldErrors(result.issues))
    return result.data
  }

  /** @internal Logs a line when the client has a logger and its level lets `level` through. */
  log(level: Exclude<LogLevel, 'off'>, message: string, details: Record<string, unknown>): void {
    const { logger, logLevel } = this.#config
    if (logger && logs(logLevel, level)) logger[level](message, details)
  }
}
