// What both adapters share: their options, and the path from a raw body to a status code.
import type { WebhookEvent } from '../schemas/events.js'
import { constructWith, type HmacBackend, type Payload } from './core.js'
import { isWebhookVerificationError, WebCryptoUnavailableError } from './errors.js'

/** The default body limit of the adapters: 1 MiB, far above any event this API sends. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/**
 * Options of {@link createFetchHandler} and {@link createNodeHandler}; `Context` is what the
 * adapter received (a `Request`, or a `node:http` request).
 */
export interface WebhookHandlerOptions<Context> {
  /** The webhook's secret: the one you set with `resellerWebhook.update`, or the one `webhooks.create` returned. */
  secret: string
  /**
   * Called once per verified, well-formed event. The adapter answers 200 once it resolves and 500
   * if it throws or rejects, so the sender retries. General deliveries must be answered within 5
   * seconds: queue long work instead of awaiting it here.
   */
  onEvent: (event: WebhookEvent, context: Context) => void | Promise<void>
  /** The largest body accepted, in bytes; larger ones are answered 413. Default 1 MiB. */
  maxBodyBytes?: number
  /**
   * Told about every refused or failed delivery: a {@link WebhookVerificationError} (401), a
   * {@link WebhookPayloadError} (400), or whatever `onEvent` threw (500). Without it, only what
   * `onEvent` throws is logged, with `console.error`; refusals are expected noise on a public URL.
   */
  onError?: (error: unknown, context: Context) => void
}

/** Checked options, with defaults applied. */
export interface ResolvedOptions<Context> {
  secret: string
  onEvent: WebhookHandlerOptions<Context>['onEvent']
  maxBodyBytes: number
  onError: ((error: unknown, context: Context) => void) | undefined
}

/** Validates adapter options when the adapter is created, so a missing secret fails at start-up. */
export function resolveOptions<Context>(
  options: WebhookHandlerOptions<Context>,
  caller: string,
): ResolvedOptions<Context> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${caller}: expected an options object { secret, onEvent }`)
  }
  const { secret, onEvent, maxBodyBytes = DEFAULT_MAX_BODY_BYTES, onError } = options
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError(`${caller}: options.secret must be a non-empty string`)
  }
  if (typeof onEvent !== 'function') throw new TypeError(`${caller}: options.onEvent must be a function`)
  if (typeof maxBodyBytes !== 'number' || !(maxBodyBytes > 0) || !Number.isSafeInteger(maxBodyBytes)) {
    throw new TypeError(`${caller}: options.maxBodyBytes must be a positive integer`)
  }
  if (onError !== undefined && typeof onError !== 'function') {
    throw new TypeError(`${caller}: options.onError must be a function`)
  }
  return { secret, onEvent, maxBodyBytes, onError }
}

/** An answer for the sender: status, plain-text body, extra headers. */
export interface Outcome {
  status: number
  text: string
  headers?: Record<string, string>
}

export const METHOD_NOT_ALLOWED: Outcome = {
  status: 405,
  text: 'method not allowed',
  headers: { allow: 'POST' },
}
export const TOO_LARGE: Outcome = { status: 413, text: 'payload too large', headers: { connection: 'close' } }
export const UNREADABLE: Outcome = { status: 400, text: 'could not read the request body' }

/** The declared `content-length`, or `undefined` when absent or not a plain decimal. */
export function declaredLength(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || !/^\d{1,15}$/.test(value)) return undefined
  return Number(value)
}

/** The chunks of a body as one array of `size` bytes (the only chunk itself when there is one). */
export function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!
  const all = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    all.set(chunk, offset)
    offset += chunk.byteLength
  }
  return all
}

function report<Context>(options: ResolvedOptions<Context>, error: unknown, context: Context, log: boolean) {
  try {
    if (options.onError) options.onError(error, context)
    else if (log)
      console.error('[@reseller-api/sdk/webhooks] onEvent failed; answered 500 so the sender retries', error)
  } catch {
    // A failing error hook must not change the answer.
  }
}

/** Verifies and parses `body`, runs `onEvent`, and says what to answer. Never rejects. */
export async function receive<Context>(
  backend: HmacBackend,
  options: ResolvedOptions<Context>,
  body: Payload,
  signature: string | null | undefined,
  context: Context,
): Promise<Outcome> {
  let event: WebhookEvent
  try {
    event = await constructWith(backend, body, signature, options.secret)
  } catch (error) {
    report(options, error, context, false)
    if (isWebhookVerificationError(error)) return { status: 401, text: 'invalid signature' }
    // The receiver cannot check anything here: its fault, not the sender's; 500 so it retries.
    if (error instanceof WebCryptoUnavailableError) return { status: 500, text: error.message }
    // The sender proved it holds the secret, so telling it which field is wrong is safe.
    return { status: 400, text: `invalid payload: ${error instanceof Error ? error.message : String(error)}` }
  }
  try {
    await options.onEvent(event, context)
  } catch (error) {
    report(options, error, context, true)
    return { status: 500, text: 'event handler failed' }
  }
  return { status: 200, text: 'ok' }
}
