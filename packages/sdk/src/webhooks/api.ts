// The public functions of `@reseller-api/sdk/webhooks`, declared once. Their HMAC comes from
// `#crypto` (package.json "imports"): node:crypto under the `node` condition, Web Crypto under
// `default`. tsup builds the entry twice, resolving `#crypto` once per condition (tsup.config.ts),
// so each build holds one backend and these functions are bound to it without an indirection a
// bundler could not tree-shake.
import { hmacBackend, hmacHexSync } from '#crypto'
import type { WebhookEvent } from '../schemas/events.js'
import { constructWith, signWith, verifyWith, type WebhookSecret } from './core.js'
import type { DedupeStore } from './dedupe.js'
import type { WebhookEventName } from './events.js'
import { createFetchHandlerWith, type FetchHandler, type FetchHandlerOptions } from './fetch-handler.js'
import {
  createNodeHandlerWith,
  type NodeHandler,
  type NodeHandlerOptions,
  type NodeWebhookRequest,
} from './node-handler.js'
import {
  generateTestDeliveryWith,
  type TestDelivery,
  type TestDeliveryOfEventOptions,
  type TestDeliveryOptions,
} from './test-delivery.js'

/**
 * Signs a payload as the service does: `'sha256='` followed by the lowercase hex HMAC-SHA256 of the
 * raw body, keyed with `secret`. Use it in tests, and to sign deliveries (the mock does).
 *
 * @param payload - the exact body: a string (hashed as UTF-8) or bytes
 * @param secret - the webhook secret, a non-empty string (hashed as UTF-8)
 * @returns the `x-service-signature` header value
 * @throws TypeError (as a rejection) when `secret` is empty or not a string, or `payload` is
 *   neither a string nor a `Uint8Array`; {@link WebCryptoUnavailableError} when the platform has
 *   no `crypto.subtle`
 */
export function signPayload(payload: string | Uint8Array, secret: string): Promise<string> {
  return signWith(hmacBackend, payload, secret)
}

/**
 * Checks a delivery's `x-service-signature` header against its raw body, comparing in constant time.
 *
 * Never throws on malformed input: a missing, empty, truncated, non-hex, wrong-algorithm or
 * oversized header, a payload of the wrong type, or an empty secret all resolve `false`. The header
 * must be exactly `sha256=` followed by 64 hex digits; letter case is ignored (the service sends
 * lowercase), and nothing else (no whitespace, no list of signatures) is accepted.
 *
 * A platform without Web Crypto is not malformed input: there it rejects with
 * {@link WebCryptoUnavailableError} (a browser page that is not a secure context: plain `http://`
 * from another host than `localhost`) rather than claim that a good delivery is forged.
 *
 * @param payload - the raw body exactly as received: a string or bytes, never re-serialized JSON
 * @param signature - the header value, e.g. `request.headers.get(SIGNATURE_HEADER)`
 * @param secret - the webhook secret, or a non-empty array of secrets (while one is rotated, or for
 *   one URL that several webhooks deliver to): the header is compared with the MAC of each, in
 *   constant time, and verifies when any matches. An empty string or array resolves `false`
 * @returns `true` only if the header is the HMAC of `payload` under `secret` (one of them)
 * @throws {@link WebCryptoUnavailableError} (as a rejection) when the platform has no `crypto.subtle`
 */
export function verifySignature(
  payload: string | Uint8Array,
  signature: string | null | undefined,
  secret: WebhookSecret,
): Promise<boolean> {
  return verifyWith(hmacBackend, payload, signature, secret)
}

/**
 * Verifies a delivery and parses it into a typed event: narrow it with `switch (event.event)`.
 *
 * @param payload - the raw body exactly as received
 * @param signature - the `x-service-signature` header value
 * @param secret - the webhook secret, a non-empty string, or a non-empty array of them any one of
 *   which verifies
 * @returns the event: reseller style (`sandbox`, `timestamp`) or general style (`created_at`)
 * @throws {@link WebhookVerificationError} (as a rejection) when the signature is missing,
 *   malformed or wrong: answer 401. {@link WebhookUnknownEventError} (a `WebhookPayloadError`) when
 *   the event is signed and well formed but of a type this SDK version does not know: answer 2xx, so
 *   that the sender does not retry it (its `payload` holds the event). {@link WebhookPayloadError}
 *   when the signed body is not JSON or not an event, its message naming the failing field: answer
 *   400. `TypeError` when `secret` is empty or `payload` is not a string or bytes (a programming
 *   error).
 */
export function constructEvent(
  payload: string | Uint8Array,
  signature: string | null | undefined,
  secret: WebhookSecret,
): Promise<WebhookEvent> {
  return constructWith(hmacBackend, payload, signature, secret)
}

/**
 * Makes a Fetch API handler for Hono, Next.js route handlers, Cloudflare Workers, Deno and Bun. It
 * reads the raw body (at most `maxBodyBytes`), verifies and parses it, and answers:
 * 405 for a method other than POST, 413 for a body over the limit, 401 for a bad signature,
 * 400 for a bad payload, 200 once `onEvent` resolves, 500 if `onEvent` throws (so the sender retries).
 * An event of a type this SDK version does not know is answered 200: `onUnknownEvent` is called
 * when given, else the event is skipped with one warning per name (`unknownEvents: 'reject'`
 * answers it 400 instead). With `dedupe`, a copy of a delivery already handled is answered 200
 * without calling the hooks (`onDuplicate` when given).
 *
 * @param options - `secret` (one, or an array any of which verifies), `onEvent`, optional
 *   `onUnknownEvent`, `unknownEvents`, `dedupe`, `onDuplicate`, `maxBodyBytes` and `onError`
 * @returns `(request) => Promise<Response>`
 * @throws TypeError at once when `secret` is empty, `onEvent` is not a function, or `dedupe` is
 *   neither a boolean nor a {@link DedupeStore}
 */
export function createFetchHandler(options: FetchHandlerOptions): FetchHandler {
  return createFetchHandlerWith(hmacBackend, options)
}

/**
 * Makes a `node:http` request listener that also works as Express middleware with no body parser
 * in front of it (it reads the raw stream itself; a `Buffer` left in `req.body` by `express.raw()`
 * is used as is). Same answers as {@link createFetchHandler}, unknown event types and `dedupe`
 * included.
 *
 * @typeParam Req - the request type `onEvent` sees: inferred from its annotation
 *   (`(event, req: IncomingMessage) => …`), else the structural {@link NodeWebhookRequest}
 * @param options - `secret` (one, or an array any of which verifies), `onEvent`, optional
 *   `onUnknownEvent`, `unknownEvents`, `dedupe`, `onDuplicate`, `maxBodyBytes` and `onError`
 * @returns `(req, res, next?) => void`
 * @throws TypeError at once when `secret` is empty, `onEvent` is not a function, or `dedupe` is
 *   neither a boolean nor a {@link DedupeStore}
 */
export function createNodeHandler<Req extends NodeWebhookRequest = NodeWebhookRequest>(
  options: NodeHandlerOptions<Req>,
): NodeHandler<Req> {
  return createNodeHandlerWith(hmacBackend, options)
}

/**
 * Makes a signed delivery for a receiver's unit tests, as the service sends it (Stripe's
 * `generateTestHeaderString` is the idea): the exact JSON body and its headers, signature
 * (`x-service-signature`), delivery id (`x-service-delivery`) and event name (`x-service-event`)
 * included. {@link constructEvent}, {@link createFetchHandler} and {@link createNodeHandler}
 * accept it as they accept a real delivery. Synchronous.
 *
 * @example
 * ```ts
 * const { body, headers } = generateTestDelivery({ event: 'vps.activated', secret })
 * const response = await handler(new Request('http://localhost/webhooks', { method: 'POST', body, headers }))
 * ```
 *
 * @param options - `event`: an event name, with optional `data` (default: sample data of that
 *   event, see {@link sampleEventData}); the style is the name's, general for `domain.registered`;
 *   times are now, in the spec's formats (`timestamp` `…000Z`, `created_at` `…+00:00`). Or a whole
 *   event object, sent as it is: its name may be one this SDK version does not know (matching
 *   `^[a-z]+(\.[a-z_]+)+$`), to test what a receiver does with the event types a service adds.
 *   `secret`: the webhook secret.
 * @returns `{ body, headers }`: `body` a string, `headers` a plain object of lower-case names
 * @throws TypeError when `secret` is empty, the event name is unknown, `data` is not an object, or
 *   a whole event lacks its style's fields (the message names them). `data`'s content is typed,
 *   not checked at run time
 */
export function generateTestDelivery<N extends WebhookEventName>(
  options: TestDeliveryOptions<N>,
): TestDelivery
export function generateTestDelivery(options: TestDeliveryOfEventOptions): TestDelivery
export function generateTestDelivery(
  options: TestDeliveryOptions | TestDeliveryOfEventOptions,
): TestDelivery {
  return generateTestDeliveryWith(hmacHexSync, options)
}
