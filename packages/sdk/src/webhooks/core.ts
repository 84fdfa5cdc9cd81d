// The runtime-neutral core: header rules, payload checks, event parsing. The HMAC itself comes from
// a backend that the caller passes in (`api.ts` passes `#crypto`'s); nothing here imports a runtime
// module.

import { checkEventEnvelope, isKnownEventName } from '../schemas/event-envelope.js'
import type { WebhookEvent } from '../schemas/events.js'
import { describeFieldErrors } from '../schemas/issues.js'
import {
  type SignatureFailure,
  WebCryptoUnavailableError,
  WebhookPayloadError,
  WebhookUnknownEventError,
  WebhookVerificationError,
} from './errors.js'
import type { UnknownWebhookEvent } from './events.js'

/** The header that carries a delivery's signature, in the lower case that `Headers` and `node:http` use. */
export const SIGNATURE_HEADER = 'x-service-signature'

/** The raw body of a delivery: the exact bytes received, or a string holding them as UTF-8. */
export type Payload = string | Uint8Array

/**
 * The secret(s) a delivery may be signed with: one non-empty string, or a non-empty array of them,
 * any one of which verifies (while a secret is rotated, or when one URL receives the deliveries of
 * webhooks with different secrets).
 */
export type WebhookSecret = string | readonly string[]

/**
 * An HMAC-SHA256 (and SHA-256) implementation. Both backends give the same answers for the same inputs; they
 * differ only in speed and in where they run.
 */
export interface HmacBackend {
  /** The lowercase hex HMAC-SHA256 of `payload` (strings as UTF-8) keyed with `secret` (UTF-8). */
  signHex(payload: Payload, secret: string): string | Promise<string>
  /**
   * Whether `header` (already known to be 71 characters starting with `sha256=` in any case) holds
   * the HMAC of `payload`: decodes the 64 characters after the prefix, answers `false` if any is not
   * a hex digit, else compares in constant time.
   */
  verifyHeader(payload: Payload, header: string, secret: string): boolean | Promise<boolean>
  /** The lowercase hex SHA-256 of `payload` (strings as UTF-8): a delivery's `dedupe` key. */
  sha256Hex(payload: Payload): string | Promise<string>
}

/** The lowercase hex HMAC-SHA256 of `payload` keyed with `secret`, computed synchronously. */
export type SyncHmacHex = (payload: Payload, secret: string) => string

/** `sha256=` followed by the 64 hex digits of a 32-byte MAC. */
const PREFIX_LENGTH = 7
const HEADER_LENGTH = PREFIX_LENGTH + 64
const MAC_BYTES = 32

// Resolved promises are immutable, so every call may share them: no allocation on the hot path.
const RESOLVED_TRUE: Promise<boolean> = Promise.resolve(true)
const RESOLVED_FALSE: Promise<boolean> = Promise.resolve(false)

const PREFIX = 'sha256='

/** Whether `value` has the shape `sha256=` + 64 characters, the prefix in any letter case. */
function hasHeaderShape(value: unknown): value is string {
  if (typeof value !== 'string' || value.length !== HEADER_LENGTH) return false
  // `| 0x20` lower-cases an ASCII letter and maps only 'S'/'s' to 's' (etc.), so it is exact for the
  // three letters; the digits and `=` must match as they are.
  for (let i = 0; i < PREFIX_LENGTH; i++) {
    if ((value.charCodeAt(i) | (i < 3 ? 0x20 : 0)) !== PREFIX.charCodeAt(i)) return false
  }
  return true
}

/** 0–15 for a hex digit of either case, -1 for anything else. */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30
  const lower = code | 0x20
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10
  return -1
}

/**
 * Decodes the 64 hex digits after the `sha256=` prefix of `header` into `out` (32 bytes). Returns
 * `false` as soon as a character is not a hex digit; the time this takes depends only on the
 * attacker's own input, never on the expected MAC.
 */
export function decodeHeaderMac(header: string, out: Uint8Array): boolean {
  for (let i = 0; i < MAC_BYTES; i++) {
    const high = hexValue(header.charCodeAt(PREFIX_LENGTH + 2 * i))
    const low = hexValue(header.charCodeAt(PREFIX_LENGTH + 2 * i + 1))
    if (high < 0 || low < 0) return false
    out[i] = (high << 4) | low
  }
  return true
}

/** What is wrong with a header, for error messages only; called after verification failed. */
function classifyHeader(header: unknown): SignatureFailure {
  if (header === undefined || header === null || header === '') return 'missing'
  if (!hasHeaderShape(header) || !decodeHeaderMac(header, new Uint8Array(MAC_BYTES))) return 'malformed'
  return 'mismatch'
}

/** A string, or bytes (any `Uint8Array`, `Buffer` included, from this realm or another). */
export function isPayload(value: unknown): value is Payload {
  return (
    typeof value === 'string' ||
    value instanceof Uint8Array ||
    (ArrayBuffer.isView(value) &&
      (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'Uint8Array')
  )
}

/** The secrets of a valid {@link WebhookSecret}, or `undefined`: an empty string or array, or not strings. */
function secretsOf(value: unknown): readonly string[] | undefined {
  if (typeof value === 'string') return value.length > 0 ? [value] : undefined
  if (!Array.isArray(value) || value.length === 0) return undefined
  for (const item of value) if (typeof item !== 'string' || item.length === 0) return undefined
  return value as readonly string[]
}

/**
 * Throws a `TypeError` naming `what` (e.g. `constructEvent: the webhook secret`) unless `secret` is
 * a {@link WebhookSecret}: a missing secret is a configuration error that should surface at once.
 */
export function requireSecret(secret: unknown, what: string): asserts secret is WebhookSecret {
  if (secretsOf(secret)) return
  const got = !Array.isArray(secret)
    ? describeValue(secret)
    : secret.length === 0
      ? 'an empty array'
      : 'an array with an empty or non-string item'
  throw new TypeError(`${what} must be a non-empty string or a non-empty array of them, got ${got}`)
}

function describeValue(value: unknown): string {
  if (value === '') return 'an empty string'
  if (value === null) return 'null'
  if (value === undefined) return 'undefined'
  return typeof value === 'object' ? 'an object' : typeof value
}

/** No Web Crypto: not malformed input but a platform that cannot check anything (rejected, not `false`). */
function isMissingPlatform(error: unknown): boolean {
  return error instanceof WebCryptoUnavailableError
}

/** Any of `results` true: every comparison has run (none is skipped once one matched). */
function anyTrue(results: (boolean | Promise<boolean>)[]): boolean | Promise<boolean> {
  if (results.every((result) => typeof result === 'boolean')) return results.includes(true)
  return Promise.all(results).then((all) => all.includes(true))
}

/**
 * {@link verifySignature} over a given backend: resolves a boolean for any input, never throws;
 * rejects only with {@link WebCryptoUnavailableError} when the platform has no Web Crypto. With
 * several secrets, the header is compared (in constant time) with the MAC of each.
 */
export function verifyWith(
  backend: HmacBackend,
  payload: unknown,
  signature: unknown,
  secret: unknown,
): Promise<boolean> {
  try {
    if (!isPayload(payload) || !hasHeaderShape(signature)) return RESOLVED_FALSE
    let result: boolean | Promise<boolean>
    if (typeof secret === 'string') {
      if (secret.length === 0) return RESOLVED_FALSE
      result = backend.verifyHeader(payload, signature, secret)
    } else {
      const secrets = secretsOf(secret)
      if (secrets === undefined) return RESOLVED_FALSE
      result = anyTrue(secrets.map((one) => backend.verifyHeader(payload, signature, one)))
    }
    if (typeof result === 'boolean') return result ? RESOLVED_TRUE : RESOLVED_FALSE
    return result.then(
      (ok) => ok === true,
      (error: unknown) => (isMissingPlatform(error) ? Promise.reject(error) : false),
    )
  } catch (error) {
    return isMissingPlatform(error) ? Promise.reject(error) : RESOLVED_FALSE
  }
}

/** {@link signPayload} over a given backend. */
export async function signWith(backend: HmacBackend, payload: unknown, secret: unknown): Promise<string> {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError(
      `signPayload: the webhook secret must be a non-empty string, got ${describeValue(secret)}`,
    )
  }
  if (!isPayload(payload)) {
    throw new TypeError(
      `signPayload: the payload must be a string or a Uint8Array, got ${describeValue(payload)}`,
    )
  }
  return `sha256=${await backend.signHex(payload, secret)}`
}

/** {@link constructEvent} over a given backend. */
export async function constructWith(
  backend: HmacBackend,
  payload: unknown,
  signature: unknown,
  secret: unknown,
): Promise<WebhookEvent> {
  requireSecret(secret, 'constructEvent: the webhook secret')
  if (!isPayload(payload)) {
    throw new TypeError(
      `constructEvent: the payload must be the raw body as a string or a Uint8Array, got ${describeValue(payload)}`,
    )
  }
  if (!(await verifyWith(backend, payload, signature, secret))) {
    throw new WebhookVerificationError(classifyHeader(signature))
  }
  return parseEvent(payload)
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

function payloadError(fields: Record<string, string[]>, cause?: unknown): WebhookPayloadError {
  return new WebhookPayloadError(
    `Webhook payload is not an event: ${describeFieldErrors(fields)}`,
    fields,
    cause === undefined ? undefined : { cause },
  )
}

/**
 * Parses a verified raw body into a typed event. Throws {@link WebhookPayloadError} when it is not a
 * well-formed event, and {@link WebhookUnknownEventError} (a subclass) when it is one whose name this
 * version does not know.
 */
export function parseEvent(payload: Payload): WebhookEvent {
  let text: string
  let value: unknown
  try {
    text = typeof payload === 'string' ? payload : utf8.decode(payload)
  } catch (cause) {
    throw payloadError({ body: ['must be UTF-8 text'] }, cause)
  }
  try {
    value = JSON.parse(text)
  } catch (cause) {
    throw payloadError({ body: ['must be valid JSON'] }, cause)
  }
  // The envelope is checked without zod to keep receivers' bundles small; the signature already
  // proved the sender, so `data` is trusted to have its documented shape (as Stripe and Octokit do).
  const fields = checkEventEnvelope(value, 'allow')
  if (fields) throw payloadError(fields)
  const event = value as WebhookEvent | UnknownWebhookEvent
  if (!isKnownEventName(event.event)) throw new WebhookUnknownEventError(event as UnknownWebhookEvent)
  return event as WebhookEvent
}
