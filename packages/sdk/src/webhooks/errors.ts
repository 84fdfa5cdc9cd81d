import type { UnknownWebhookEvent } from './events.js'

/** Why a signature was refused: no header, a header of the wrong form, or a wrong MAC. */
export type SignatureFailure = 'missing' | 'malformed' | 'mismatch'

const FAILURE_MESSAGES: Record<SignatureFailure, string> = {
  missing: 'the x-service-signature header is missing',
  malformed: 'the x-service-signature header is not "sha256=" followed by 64 hexadecimal digits',
  mismatch: 'the signature does not match the payload and secret',
}

/**
 * The platform has no Web Crypto (`crypto.subtle`), so nothing can be signed or verified. Browsers
 * only offer it in a secure context: a page served over HTTPS, or from `localhost` / `127.0.0.1`.
 * Not a verdict on the delivery: `verifySignature` rejects with it rather than resolving `false`.
 */
export class WebCryptoUnavailableError extends Error {
  /** Always `'WebCryptoUnavailableError'`, so the error is recognisable across bundle copies. */
  override readonly name = 'WebCryptoUnavailableError' as const

  /** Makes the error; the message says what is missing and how to get it. */
  constructor() {
    super(
      'Web Crypto (crypto.subtle) is not available here, so webhook signatures cannot be checked: ' +
        'browsers only offer it in a secure context (a page served over HTTPS, or from localhost). ' +
        'Serve the page over HTTPS or from localhost, or verify the delivery on a server.',
    )
  }
}

/**
 * The signature of a webhook delivery could not be verified: the header is missing or malformed, or
 * it does not match the raw body under the secret. Answer 401; never process the payload.
 *
 * Test for it with {@link isWebhookVerificationError}, which also recognises instances made by
 * another copy of this package.
 */
export class WebhookVerificationError extends Error {
  /** Always `'WebhookVerificationError'`, so the error is recognisable across bundle copies. */
  override readonly name = 'WebhookVerificationError' as const
  /** Which check failed. Reported after the constant-time comparison, so it leaks nothing. */
  readonly reason: SignatureFailure

  /**
   * Makes the error for a failed check.
   *
   * @param reason - which check failed; the message is derived from it
   */
  constructor(reason: SignatureFailure) {
    super(`Webhook signature verification failed: ${FAILURE_MESSAGES[reason]}`)
    this.reason = reason
  }
}

/**
 * A correctly signed webhook body is not an event: it is not UTF-8 JSON, or it does not match any
 * event schema. The message and {@link WebhookPayloadError.fields} name the failing fields.
 *
 * Test for it with {@link isWebhookPayloadError}, which also recognises instances made by another
 * copy of this package.
 */
export class WebhookPayloadError extends Error {
  /**
   * `'WebhookPayloadError'`, or `'WebhookUnknownEventError'` for that subclass, so the error is
   * recognisable across bundle copies.
   */
  override readonly name: 'WebhookPayloadError' | 'WebhookUnknownEventError' = 'WebhookPayloadError'
  /**
   * Messages by dot-separated field path (`data.client_id`), or under `body` when the body as a
   * whole is not a JSON object. Same shape as the SDK's `ValidationError.fields`.
   */
  readonly fields: Record<string, string[]>

  /**
   * Makes the error for a signed body that is not an event.
   *
   * @param message - what is wrong, naming the failing fields
   * @param fields - messages by field path
   * @param options - `cause`: the underlying error, e.g. the `SyntaxError` of `JSON.parse`
   */
  constructor(message: string, fields: Record<string, string[]>, options?: { cause?: unknown }) {
    super(message, options)
    this.fields = fields
  }
}

/**
 * A correctly signed, well-formed event whose name this version of the SDK does not know: the
 * service added an event type in a compatible release. A subclass of {@link WebhookPayloadError}, so
 * code that catches that keeps working; but it is not a bad payload, and answering it with an error
 * makes the sender retry it (docs/webhooks.md, "A service that grows"). The adapters answer it 200.
 *
 * Test for it with {@link isWebhookUnknownEventError}, which also recognises instances made by
 * another copy of this package.
 */
export class WebhookUnknownEventError extends WebhookPayloadError {
  /** Always `'WebhookUnknownEventError'`, so the error is recognisable across bundle copies. */
  override readonly name = 'WebhookUnknownEventError' as const
  /** The `event` field of the delivery: the name this SDK version does not know. */
  readonly eventName: string
  /** The whole event as delivered (parsed JSON): its envelope is checked, its `data` is not. */
  readonly payload: UnknownWebhookEvent

  /**
   * Makes the error for a verified event of an unknown type.
   *
   * @param payload - the parsed event, its envelope already checked
   */
  constructor(payload: UnknownWebhookEvent) {
    const shown = JSON.stringify(payload.event.length > 64 ? `${payload.event.slice(0, 64)}…` : payload.event)
    super(
      `Webhook event ${shown} is unknown to this SDK version (signed and well formed: a newer event type)`,
      { event: [`unknown event ${shown}`] },
    )
    this.eventName = payload.event
    this.payload = payload
  }
}

function hasName(error: unknown, name: string): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name
}

/**
 * Whether `error` is a {@link WebhookVerificationError}, made by this copy of the package or any
 * other (checked with `instanceof`, then by `name`).
 */
export function isWebhookVerificationError(error: unknown): error is WebhookVerificationError {
  return error instanceof WebhookVerificationError || hasName(error, 'WebhookVerificationError')
}

/**
 * Whether `error` is a {@link WebhookPayloadError}, made by this copy of the package or any other
 * (checked with `instanceof`, then by `name`).
 */
export function isWebhookPayloadError(error: unknown): error is WebhookPayloadError {
  return (
    error instanceof WebhookPayloadError ||
    hasName(error, 'WebhookPayloadError') ||
    hasName(error, 'WebhookUnknownEventError')
  )
}

/**
 * Whether `error` is a {@link WebhookUnknownEventError}, made by this copy of the package or any
 * other (checked with `instanceof`, then by `name`).
 */
export function isWebhookUnknownEventError(error: unknown): error is WebhookUnknownEventError {
  return error instanceof WebhookUnknownEventError || hasName(error, 'WebhookUnknownEventError')
}
