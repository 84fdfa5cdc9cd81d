// `#crypto` under the `node` condition (package.json "imports"): HMAC through node:crypto,
// synchronous, native, and the fastest path in Node (and in Bun and Deno, which implement
// node:crypto). Only the `node` build of the webhooks entry contains it (tsup.config.ts).
import { Buffer } from 'node:buffer'
import type { KeyObject } from 'node:crypto'
import process from 'node:process'
import { decodeHeaderMac, type HmacBackend, type Payload, type SyncHmacHex } from './core.js'

// node:crypto is taken at the first signature, check or digest, not when the entry is imported:
// loading it was 2 ms of the 43 ms of CPU the mock's server takes to start, which imports this
// entry for its event samples and signs nothing before its ready line. `getBuiltinModule`: Node
// 22.3+, Bun, Deno.
let nodeCrypto: typeof import('node:crypto') | undefined
const cryptoModule = () => (nodeCrypto ??= process.getBuiltinModule('node:crypto'))

// A receiver uses one secret, maybe two during a rotation: a tiny cache saves turning the secret
// into key material on every delivery. Cleared wholesale if an app cycles through many secrets.
const MAX_CACHED_KEYS = 16
const keys = new Map<string, KeyObject>()

function keyFor(secret: string): KeyObject {
  let key = keys.get(secret)
  if (key === undefined) {
    if (keys.size >= MAX_CACHED_KEYS) keys.clear()
    key = cryptoModule().createSecretKey(Buffer.from(secret, 'utf8'))
    keys.set(secret, key)
  }
  return key
}

// Scratch space for the MAC decoded from the header. Safe to share: `verifyHeader` is synchronous,
// so no other call can run between the decode and the comparison.
const claimed = Buffer.alloc(32)

function hmac(payload: Payload, secret: string) {
  return cryptoModule().createHmac('sha256', keyFor(secret)).update(payload)
}

/** Lowercase hex HMAC-SHA256 with `node:crypto`, synchronously (for `generateTestDelivery`). */
export const hmacHexSync: SyncHmacHex = (payload, secret) => hmac(payload, secret).digest('hex')

/** HMAC-SHA256 with `node:crypto`: `createHmac` and `timingSafeEqual`; SHA-256 with `createHash`. */
export const hmacBackend: HmacBackend = {
  signHex: hmacHexSync,
  verifyHeader(payload, header, secret) {
    if (!decodeHeaderMac(header, claimed)) return false
    // Both sides are 32 bytes by construction: the length check is the decode above.
    return cryptoModule().timingSafeEqual(hmac(payload, secret).digest(), claimed)
  },
  sha256Hex: (payload) => cryptoModule().createHash('sha256').update(payload).digest('hex'),
}
