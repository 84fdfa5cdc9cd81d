// A browser page that is not a secure context (plain http from a host other than localhost) has no
// `crypto.subtle`. Verification must say so, not resolve `false` as if every delivery were forged.
import { afterEach, describe, expect, it, vi } from 'vitest'
// Runs in the `sdk:webcrypto` project only, where `#crypto` is Web Crypto (vitest.config.ts).
import * as web from '../src/webhooks/index.js'

const body = '{"event":"ticket.created","created_at":"2026-11-22T10:15:30+00:00","data":{}}'

/** A secret no other test used: the Web Crypto file caches imported keys per secret. */
let n = 0
const freshSecret = () => `whsec_secure_context_${++n}`

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('without Web Crypto (an insecure browser context)', () => {
  it('verifySignature rejects with WebCryptoUnavailableError, naming the secure-context rule', async () => {
    const secret = freshSecret()
    const signature = await web.signPayload(body, secret)
    vi.stubGlobal('crypto', {})
    const verdict = web.verifySignature(body, signature, secret)
    await expect(verdict).rejects.toBeInstanceOf(web.WebCryptoUnavailableError)
    await expect(verdict).rejects.toThrow(/secure context \(a page served over HTTPS, or from localhost\)/)
  })

  it('malformed input still resolves false: nothing needed the platform to say so', async () => {
    vi.stubGlobal('crypto', {})
    const secret = freshSecret()
    await expect(web.verifySignature(body, 'sha256=zz', secret)).resolves.toBe(false)
    await expect(web.verifySignature(body, null, secret)).resolves.toBe(false)
    await expect(web.verifySignature(body, `sha256=${'a'.repeat(64)}`, '')).resolves.toBe(false)
  })

  it('signPayload and constructEvent reject with the same error', async () => {
    const secret = freshSecret()
    const signature = await web.signPayload(body, secret)
    vi.stubGlobal('crypto', undefined)
    await expect(web.signPayload(body, secret)).rejects.toBeInstanceOf(web.WebCryptoUnavailableError)
    await expect(web.constructEvent(body, signature, secret)).rejects.toMatchObject({
      name: 'WebCryptoUnavailableError',
    })
  })

  it('verifies again once Web Crypto is there', async () => {
    const secret = freshSecret()
    const signature = await web.signPayload(body, secret)
    vi.stubGlobal('crypto', {})
    await expect(web.verifySignature(body, signature, secret)).rejects.toThrow()
    vi.unstubAllGlobals()
    await expect(web.verifySignature(body, signature, secret)).resolves.toBe(true)
  })
})

describe('createFetchHandler without Web Crypto', () => {
  it('answers 500 (the receiver cannot check, the sender should retry), not 400 or 401', async () => {
    const secret = freshSecret()
    const signature = await web.signPayload(body, secret)
    const events: unknown[] = []
    const handler = web.createFetchHandler({ secret, onEvent: (event) => void events.push(event) })
    vi.stubGlobal('crypto', {})
    const response = await handler(
      new Request('https://receiver.example/hook', {
        method: 'POST',
        headers: { [web.SIGNATURE_HEADER]: signature },
        body,
      }),
    )
    expect(response.status).toBe(500)
    expect(await response.text()).toMatch(/secure context/)
    expect(events).toHaveLength(0)
  })
})
