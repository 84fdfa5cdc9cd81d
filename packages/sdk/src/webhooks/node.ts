/**
 * The `node` export condition of `@reseller-api/sdk/webhooks`: the same API as the default entry
 * (same types, same answers, same shared core), with HMAC computed by `node:crypto`, which is
 * synchronous and several times faster than Web Crypto in Node. Bun and Deno honour the `node`
 * condition and implement `node:crypto`, so they load this entry too.
 *
 * @packageDocumentation
 */
import type { WebhookEvent } from '../schemas/events.js'
import { constructWith, signWith, verifyWith } from './core.js'
import { nodeHmac } from './crypto-node.js'
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

// The exports both entries share; only the HMAC backend differs between them.
export * from './shared-exports.js'

// Each function below is documented in full in ./index.ts; keep the two lists identical
// (test/webhooks-entries.test.ts compares their types).

/** Signs a payload: `'sha256='` + lowercase hex HMAC-SHA256 (see the default entry). Rejects a TypeError on an empty secret. */
export function signPayload(payload: string | Uint8Array, secret: string): Promise<string> {
  return signWith(nodeHmac, payload, secret)
}

/** Checks an `x-service-signature` header in constant time; never throws (see the default entry). */
export function verifySignature(
  payload: string | Uint8Array,
  signature: string | null | undefined,
  secret: string,
): Promise<boolean> {
  return verifyWith(nodeHmac, payload, signature, secret)
}

/** Verifies and parses a delivery into a typed event (see the default entry). */
export function constructEvent(
  payload: string | Uint8Array,
  signature: string | null | undefined,
  secret: string,
): Promise<WebhookEvent> {
  return constructWith(nodeHmac, payload, signature, secret)
}

/** Makes a Fetch API webhook handler (see the default entry). */
export function createFetchHandler(options: FetchHandlerOptions): FetchHandler {
  return createFetchHandlerWith(nodeHmac, options)
}

/** Makes a `node:http` / Express webhook handler (see the default entry). */
export function createNodeHandler<Req extends NodeWebhookRequest = NodeWebhookRequest>(
  options: NodeHandlerOptions<Req>,
): NodeHandler<Req> {
  return createNodeHandlerWith(nodeHmac, options)
}

/** Makes a signed test delivery `{ body, headers }` for a receiver's unit tests (see the default entry). */
export function generateTestDelivery<N extends WebhookEventName>(
  options: TestDeliveryOptions<N>,
): TestDelivery
export function generateTestDelivery(options: TestDeliveryOfEventOptions): TestDelivery
export function generateTestDelivery(
  options: TestDeliveryOptions | TestDeliveryOfEventOptions,
): TestDelivery {
  // node:crypto signs synchronously.
  return generateTestDeliveryWith((payload, secret) => nodeHmac.signHex(payload, secret) as string, options)
}
