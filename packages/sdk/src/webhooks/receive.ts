// What both adapters share: their options, and the path from a raw body to a status code.
import type { WebhookEvent } from '../schemas/events.js'
import { constructWith, type HmacBackend, type Payload, requireSecret, type WebhookSecret } from './core.js'
import {
  isWebhookUnknownEventError,
  isWebhookVerificationError,
  WebCryptoUnavailableError,
  type WebhookUnknownEventError,
} from './errors.js'
import type { UnknownWebhookEvent } from './events.js'

/** The default body limit of the adapters: 1 MiB, far above any event this API sends. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/**
 * Options of {@link createFetchHandler} and {@link createNodeHandler}; `Context` is what the
 * adapter received (a `Request`, or a `node:http` request).
 */
export interface WebhookHandlerOptions<Context> {
  /**
   * The webhook's secret: the one you set with `resellerWebhook.update`, or the one `webhooks.create`
   * returned. Or a non-empty array of secrets, any one of which verifies a delivery: the old and the
   * new one while a secret is rotated, or the secrets of several webhooks that deliver to one URL.
   */
  secret: WebhookSecret
  /**
   * Called once per verified, well-formed event. The adapter answers 200 once it resolves and 500
   * if it throws or rejects, so the sender retries. General deliveries must be answered within 5
   * seconds: queue long work instead of awaiting it here.
   */
  onEvent: (event: WebhookEvent, context: Context) => void | Promise<void>
  /**
   * Called once per verified, well-formed event whose name this SDK version does not know (the
   * service added an event type). The adapter answers 200 once it resolves and 500 if it throws, as
   * for `onEvent`. Without it such events are answered 200 and skipped, with one warning per event
   * name (docs/webhooks.md, "A service that grows").
   */
  onUnknownEvent?: (event: UnknownWebhookEvent, context: Context) => void | Promise<void>
  /**
   * What to answer an event of an unknown type: `'accept'` (the default) answers 200 as above;
   * `'reject'` answers 400 as for a bad payload, so the sender retries it until it gives up.
   */
  unknownEvents?: 'accept' | 'reject'
  /** The largest body accepted, in bytes; larger ones are answered 413. Default 1 MiB. */
  maxBodyBytes?: number
  /**
   * Told about every refused or failed delivery: a {@link WebhookVerificationError} (401), a
   * {@link WebhookPayloadError} (400), or whatever `onEvent` or `onUnknownEvent` threw (500); and,
   * once per event name, about a skipped unknown event (a {@link WebhookUnknownEventError}). Without
   * it, what the hooks throw is logged with `console.error` and a skipped unknown event name with
   * `console.warn`; refusals are expected noise on a public URL.
   */
  onError?: (error: unknown, context: Context) => void
}

/** Unknown event names a handler remembers having warned about; past this, it forgets them all. */
const MAX_WARNED_NAMES = 256

/** Checked options, with defaults applied, and the handler's own memory of warned names. */
export interface ResolvedOptions<Context> {
  secret: WebhookSecret
  onEvent: WebhookHandlerOptions<Context>['onEvent']
  onUnknownEvent: WebhookHandlerOptions<Context>['onUnknownEvent']
  rejectUnknown: boolean
  maxBodyBytes: number
  onError: ((error: unknown, context: Context) => void) | undefined
  warnedNames: Set<string>
}

/** Validates adapter options when the adapter is created, so a missing secret fails at start-up. */
export function resolveOptions<Context>(
  options: WebhookHandlerOptions<Context>,
  caller: string,
): ResolvedOptions<Context> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${caller}: expected an options object { secret, onEvent }`)
  }
  const {
    secret,
    onEvent,
    onUnknownEvent,
    unknownEvents = 'accept',
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    onError,
  } = options
  requireSecret(secret, `${caller}: options.secret`)
  if (typeof onEvent !== 'function') throw new TypeError(`${caller}: options.onEvent must be a function`)
  if (onUnknownEvent !== undefined && typeof onUnknownEvent !== 'function') {
    throw new TypeError(`${caller}: options.onUnknownEvent must be a function`)
  }
  if (unknownEvents !== 'accept' && unknownEvents !== 'reject') {
    throw new TypeError(`${caller}: options.unknownEvents must be 'accept' or 'reject'`)
  }
  if (typeof maxBodyBytes !== 'number' || !(maxBodyBytes > 0) || !Number.isSafeInteger(maxBodyBytes)) {
    throw new TypeError(`${caller}: options.maxBodyBytes must be a positive integer`)
  }
  if (onError !== undefined && typeof onError !== 'function') {
    throw new TypeError(`${caller}: options.onError must be a function`)
  }
  return {
    // A copy: the caller's array may change later, the handler's secrets do not.
    secret: typeof secret === 'string' ? secret : [...secret],
    onEvent,
    onUnknownEvent,
    rejectUnknown: unknownEvents === 'reject',
    maxBodyBytes,
    onError,
    warnedNames: new Set(),
  }
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
      console.error(
        '[@reseller-api/sdk/webhooks] the event hook failed; answered 500 so the sender retries',
        error,
      )
  } catch {
    // A failing error hook must not change the answer.
  }
}

/** The first skipped event of each unknown name: told to `onError`, else `console.warn`. */
function warnOnce<Context>(
  options: ResolvedOptions<Context>,
  error: WebhookUnknownEventError,
  context: Context,
) {
  const { warnedNames } = options
  if (warnedNames.has(error.eventName)) return
  if (warnedNames.size >= MAX_WARNED_NAMES) warnedNames.clear()
  warnedNames.add(error.eventName)
  try {
    if (options.onError) options.onError(error, context)
    else
      console.warn(
        `[@reseller-api/sdk/webhooks] ${error.message}: answered 200 and skipped (warned once per name; handle it with onUnknownEvent)`,
      )
  } catch {
    // A failing error hook must not change the answer.
  }
}

/** Answers an unknown event: `onUnknownEvent`'s outcome, or 200 with a warning once per name. */
async function receiveUnknown<Context>(
  options: ResolvedOptions<Context>,
  error: WebhookUnknownEventError,
  context: Context,
): Promise<Outcome> {
  if (options.onUnknownEvent === undefined) {
    warnOnce(options, error, context)
    return { status: 200, text: 'ok: unknown event type, skipped' }
  }
  try {
    await options.onUnknownEvent(error.payload, context)
  } catch (failure) {
    report(options, failure, context, true)
    return { status: 500, text: 'event handler failed' }
  }
  return { status: 200, text: 'ok' }
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
    if (!options.rejectUnknown && isWebhookUnknownEventError(error)) {
      return receiveUnknown(options, error, context)
    }
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
