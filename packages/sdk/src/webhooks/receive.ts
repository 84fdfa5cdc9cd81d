// What both adapters share: their options, and the path from a raw body to a status code.
import type { WebhookEvent } from '../schemas/events.js'
import { constructWith, type HmacBackend, type Payload, requireSecret, type WebhookSecret } from './core.js'
import { type DedupeStore, memoryDedupeStore } from './dedupe.js'
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
  /**
   * Deliveries come at least once (a retry after a lost answer, a resend): with `dedupe`, a copy of
   * a delivery already handled is answered 200 without calling `onEvent` or `onUnknownEvent`.
   * `true` remembers the 10,000 most recently handled deliveries in this process's memory; a
   * {@link DedupeStore} (Redis, SQL) remembers them where you choose, across processes. The key is
   * the lowercase hex SHA-256 of the raw body. Only a verified, well-formed delivery is recorded
   * (an unknown event type included); a key is forgotten when its hook fails (answered 500), so
   * that the sender's retry is handled. Two copies arriving at once call the hook once. It does
   * not stop a replay that comes after the store forgot the key: the signature carries no
   * timestamp (docs/webhooks.md, "Replays, retries and deduplication"). Default: off.
   */
  dedupe?: boolean | DedupeStore
  /**
   * With `dedupe`: called with each copy answered without the hooks (its event, known or not).
   * Its failure is answered 500, as a hook's is.
   */
  onDuplicate?: (event: WebhookEvent | UnknownWebhookEvent, context: Context) => void | Promise<void>
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
  /** The store of `dedupe`; `false` or `undefined`: none. */
  dedupe: DedupeStore | false | undefined
  onDuplicate: WebhookHandlerOptions<Context>['onDuplicate']
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
    onDuplicate,
  } = options
  const bad = (rule: string): never => {
    throw new TypeError(`${caller}: options.${rule}`)
  }
  requireSecret(secret, `${caller}: options.secret`)
  if (typeof onEvent !== 'function') bad('onEvent must be a function')
  for (const [name, hook] of Object.entries({ onUnknownEvent, onDuplicate, onError })) {
    if (hook !== undefined && typeof hook !== 'function') bad(`${name} must be a function`)
  }
  if (unknownEvents !== 'accept' && unknownEvents !== 'reject')
    bad("unknownEvents must be 'accept' or 'reject'")
  // Not a number, a fraction, NaN, ±Infinity: not a safe integer.
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    bad('maxBodyBytes must be a positive integer')
  }
  let dedupe = options.dedupe
  if (dedupe === true) dedupe = memoryDedupeStore()
  else if (
    dedupe !== undefined &&
    dedupe !== false &&
    (typeof dedupe?.claim !== 'function' || typeof dedupe.release !== 'function')
  ) {
    bad('dedupe must be a boolean or a store { claim, release }')
  }
  return {
    // A copy: the caller's array may change later, the handler's secrets do not.
    secret: typeof secret === 'string' ? secret : [...secret],
    onEvent,
    onUnknownEvent,
    dedupe: dedupe as DedupeStore | false | undefined,
    onDuplicate,
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
        `[@reseller-api/sdk/webhooks] ${error.message}: answered 200, skipped (warned once per name; see onUnknownEvent)`,
      )
  } catch {
    // A failing error hook must not change the answer.
  }
}

const OK: Outcome = { status: 200, text: 'ok' }
const FAILED: Outcome = { status: 500, text: 'event handler failed' }

/** Runs a hook: 200 once it resolves, 500 (reported) if it throws or rejects. */
async function run<Context, E>(
  options: ResolvedOptions<Context>,
  hook: (event: E, context: Context) => void | Promise<void>,
  event: E,
  context: Context,
): Promise<Outcome> {
  try {
    await hook(event, context)
  } catch (failure) {
    report(options, failure, context, true)
    return FAILED
  }
  return OK
}

/** Answers an unknown event: `onUnknownEvent`'s outcome, or 200 with a warning once per name. */
function receiveUnknown<Context>(
  options: ResolvedOptions<Context>,
  error: WebhookUnknownEventError,
  context: Context,
): Outcome | Promise<Outcome> {
  if (options.onUnknownEvent === undefined) {
    warnOnce(options, error, context)
    return { status: 200, text: 'ok: unknown event, skipped' }
  }
  return run(options, options.onUnknownEvent, error.payload, context)
}

/**
 * Verifies and parses `body`, runs `onEvent` (or `onUnknownEvent`), and says what to answer. Never
 * rejects. Under `dedupe`, a verified, well-formed delivery claims its key first: a copy of a
 * claimed one is answered 200 (after `onDuplicate`), and a failed one's key is released so that
 * the sender's retry is handled.
 */
export async function receive<Context>(
  backend: HmacBackend,
  options: ResolvedOptions<Context>,
  body: Payload,
  signature: string | null | undefined,
  context: Context,
): Promise<Outcome> {
  let event: WebhookEvent | UnknownWebhookEvent
  let unknown: WebhookUnknownEventError | undefined
  try {
    event = await constructWith(backend, body, signature, options.secret)
  } catch (error) {
    if (options.rejectUnknown || !isWebhookUnknownEventError(error)) {
      report(options, error, context, false)
      if (isWebhookVerificationError(error)) return { status: 401, text: 'invalid signature' }
      // The receiver cannot check anything here: its fault, not the sender's; 500 so it retries.
      if (error instanceof WebCryptoUnavailableError) return { status: 500, text: error.message }
      // The sender proved it holds the secret, so telling it which field is wrong is safe.
      return {
        status: 400,
        text: `invalid payload: ${error instanceof Error ? error.message : String(error)}`,
      }
    }
    unknown = error
    event = error.payload
  }
  const store = options.dedupe
  let key: string | undefined
  try {
    if (store) {
      key = await backend.sha256Hex(body)
      if (!(await (store as DedupeStore).claim(key))) {
        return options.onDuplicate ? run(options, options.onDuplicate, event, context) : OK
      }
    }
    // Neither rejects: a hook's failure is its 500.
    const outcome = unknown
      ? await receiveUnknown(options, unknown, context)
      : await run(options, options.onEvent, event as WebhookEvent, context)
    if (key && outcome.status >= 500) await (store as DedupeStore).release(key)
    return outcome
  } catch (failure) {
    // The store failed: it cannot say whether this is a copy, or forget one. The sender retries.
    report(options, failure, context, true)
    return FAILED
  }
}
