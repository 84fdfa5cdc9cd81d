// `#crypto` under the `default` condition (package.json "imports"): HMAC through Web Crypto
// (`crypto.subtle`) for browsers, Cloudflare Workers, Vercel Edge and any runtime without the `node`
// condition. `crypto.subtle.verify` compares in constant time.
import { decodeHeaderMac, type HmacBackend, type Payload, type SyncHmacHex } from './core.js'
import { WebCryptoUnavailableError } from './errors.js'
import { hmacSha256Hex } from './hmac-sync.js'

const encoder = new TextEncoder()

// Importing a key is asynchronous and not free: keep the promise per secret (see crypto-node.ts).
const MAX_CACHED_KEYS = 16
const keys = new Map<string, Promise<CryptoKey>>()

/** `crypto.subtle`, which a browser leaves out of pages that are not a secure context. */
function subtle(): SubtleCrypto {
  const found = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle
  if (!found) throw new WebCryptoUnavailableError()
  return found
}

function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret)
  if (key === undefined) {
    const webCrypto = subtle()
    if (keys.size >= MAX_CACHED_KEYS) keys.clear()
    key = webCrypto.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ])
    key.catch(() => keys.delete(secret))
    keys.set(secret, key)
  }
  return key
}

function bytesOf(payload: Payload): Uint8Array<ArrayBuffer> {
  return typeof payload === 'string' ? encoder.encode(payload) : (payload as Uint8Array<ArrayBuffer>)
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))

function toHex(buffer: ArrayBuffer): string {
  let hex = ''
  for (const byte of new Uint8Array(buffer)) hex += HEX[byte]
  return hex
}

/** Web Crypto only signs asynchronously: `generateTestDelivery` signs with a small JS HMAC instead. */
export const hmacHexSync: SyncHmacHex = hmacSha256Hex

/** HMAC-SHA256 with Web Crypto: `crypto.subtle.sign` and `crypto.subtle.verify`; SHA-256 with `digest`. */
export const hmacBackend: HmacBackend = {
  async signHex(payload, secret) {
    return toHex(await subtle().sign('HMAC', await keyFor(secret), bytesOf(payload)))
  },
  async verifyHeader(payload, header, secret) {
    const claimed = new Uint8Array(32)
    if (!decodeHeaderMac(header, claimed)) return false
    return subtle().verify('HMAC', await keyFor(secret), claimed, bytesOf(payload))
  },
  async sha256Hex(payload) {
    return toHex(await subtle().digest('SHA-256', bytesOf(payload)))
  },
}
