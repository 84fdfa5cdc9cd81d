// Signing, verification and event parsing through the webhooks entry, once per `#crypto` binding
// (vitest.config.ts: node:crypto in `sdk:unit`, Web Crypto in `sdk:webcrypto`). Every vector and
// every property must hold for both, with the same results.
import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest'
import { signWith, verifyWith } from '../src/webhooks/core.js'
import * as nodeCrypto from '../src/webhooks/crypto-node.js'
import * as webCrypto from '../src/webhooks/crypto-web.js'
import * as api from '../src/webhooks/index.js'
import fixtures from './fixtures/webhook-vectors.json' with { type: 'json' }
import { codePoint } from './helpers/code-points.js'
import { BINDING, BINDING_LABEL } from './helpers/webhooks-binding.js'

const entries = [[BINDING_LABEL, api]] as const

const { vectors } = fixtures
const GITHUB = vectors[0]!
const utf8 = new TextEncoder()

/** A reference signature computed with node:crypto directly, independently of the SDK. */
function reference(payload: string | Uint8Array, secret: string): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(payload).digest('hex')}`
}

const vpsActivated = {
  event: 'vps.activated',
  sandbox: false,
  timestamp: '2026-11-22T10:15:30Z',
  data: {
    client_id: 501,
    order_uuid: '6f1c2f0e-8d3a-4b7e-9c2d-1a2b3c4d5e6f',
    server_id: 42,
    ipv4: '203.0.113.10',
    status: 'active',
  },
}

describe('SIGNATURE_HEADER', () => {
  it('is the lower-case signature header name', () => {
    expect(api.SIGNATURE_HEADER).toBe('x-service-signature')
  })
})

describe(`the entry under test is bound to ${BINDING_LABEL}`, () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it(BINDING === 'node' ? 'verifies without Web Crypto' : 'needs Web Crypto to verify', async () => {
    const secret = `whsec_binding_${BINDING}`
    const signature = reference(GITHUB.payload, secret)
    vi.stubGlobal('crypto', {})
    const verdict = api.verifySignature(GITHUB.payload, signature, secret)
    if (BINDING === 'node') await expect(verdict).resolves.toBe(true)
    else await expect(verdict).rejects.toBeInstanceOf(api.WebCryptoUnavailableError)
  })
})

describe.each(entries)('%s', (_name, api) => {
  describe('fixed vectors', () => {
    it('verifies the GitHub published example and refuses it with one byte changed', async () => {
      expect(GITHUB.signature).toBe('sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17')
      expect(await api.verifySignature('Hello, World!', GITHUB.signature, "It's a Secret to Everybody")).toBe(
        true,
      )
      expect(await api.verifySignature('Hello, World?', GITHUB.signature, GITHUB.secret)).toBe(false)
      expect(
        await api.verifySignature('Hello, World!', `${GITHUB.signature.slice(0, -1)}6`, GITHUB.secret),
      ).toBe(false)
      expect(await api.verifySignature('Hello, World!', GITHUB.signature, "It's a Secret to Everybodx")).toBe(
        false,
      )
    })

    it.each(vectors)('$name: signs and verifies, as a string and as bytes', async (vector) => {
      expect(await api.signPayload(vector.payload, vector.secret)).toBe(vector.signature)
      expect(await api.signPayload(utf8.encode(vector.payload), vector.secret)).toBe(vector.signature)
      expect(await api.verifySignature(vector.payload, vector.signature, vector.secret)).toBe(true)
      expect(await api.verifySignature(Buffer.from(vector.payload), vector.signature, vector.secret)).toBe(
        true,
      )
    })
  })

  describe('header form', () => {
    const { payload, secret, signature } = GITHUB
    const hex = signature.slice('sha256='.length)

    it('accepts upper-case hex digits and prefix (same MAC; the service sends lower case)', async () => {
      expect(await api.verifySignature(payload, `sha256=${hex.toUpperCase()}`, secret)).toBe(true)
      expect(await api.verifySignature(payload, `SHA256=${hex}`, secret)).toBe(true)
    })

    it.each([
      ['missing', undefined],
      ['null', null],
      ['empty', ''],
      ['prefix only', 'sha256='],
      ['hex without prefix', hex],
      ['truncated by one digit', signature.slice(0, -1)],
      ['one digit too many', `${signature}0`],
      ['non-hex digit', `${signature.slice(0, -1)}g`],
      ['non-hex in the middle', `sha256=${hex.slice(0, 30)}zz${hex.slice(32)}`],
      ['wrong algorithm', `sha1=${hex}`],
      ['sha512 prefix, same length', `sha512=${hex.slice(0, 63)}`],
      ['space instead of =', `sha256 ${hex}`],
      ['leading whitespace', ` ${signature}`],
      ['trailing whitespace', `${signature} `],
      ['two signatures', `${signature}, ${signature}`],
      ['huge header', `sha256=${'a'.repeat(1_000_000)}`],
      ['unicode look-alike digits', `sha256=${hex.slice(0, 63)}٣`],
    ])('resolves false for a %s header', async (_case, header) => {
      expect(await api.verifySignature(payload, header, secret)).toBe(false)
    })

    it('resolves false, never throws, on values of the wrong type', async () => {
      const odd: unknown[] = [
        42,
        {},
        [],
        Symbol('x'),
        () => signature,
        new ArrayBuffer(32),
        { toString: () => signature },
      ]
      for (const value of odd) {
        const verify = api.verifySignature as (...args: unknown[]) => Promise<boolean>
        await expect(verify(payload, value, secret)).resolves.toBe(false)
        await expect(verify(value, signature, secret)).resolves.toBe(false)
        await expect(verify(payload, signature, value)).resolves.toBe(false)
      }
    })

    it('resolves false for an empty secret, even with the signature of an empty key', async () => {
      const emptyKeySignature = reference(payload, '')
      expect(await api.verifySignature(payload, emptyKeySignature, '')).toBe(false)
    })
  })

  describe('signPayload', () => {
    it('rejects a TypeError for an empty or non-string secret, or a payload that is not text or bytes', async () => {
      await expect(api.signPayload('x', '')).rejects.toThrow(TypeError)
      await expect(api.signPayload('x', undefined as unknown as string)).rejects.toThrow(/non-empty string/)
      await expect(api.signPayload({} as unknown as string, 's')).rejects.toThrow(TypeError)
    })

    it('produces lower-case hex', async () => {
      expect(await api.signPayload('anything', 's')).toMatch(/^sha256=[0-9a-f]{64}$/)
    })
  })

  describe('constructEvent', () => {
    const secret = 'whsec_test'
    const sign = (body: string) => api.signPayload(body, secret)

    it('resolves the typed reseller-style event', async () => {
      const body = JSON.stringify(vpsActivated)
      const event = await api.constructEvent(body, await sign(body), secret)
      expect(event).toEqual(vpsActivated)
      if (event.event !== 'vps.activated') throw new Error('expected vps.activated')
      expect(event.data.ipv4).toBe('203.0.113.10')
    })

    it('resolves a general-style event, and a name both styles share by its shape', async () => {
      const general = {
        event: 'domain.registered',
        created_at: '2026-11-22T10:15:30+00:00',
        data: { domain: 'a.test' },
      }
      const reseller = {
        event: 'domain.registered',
        sandbox: true,
        timestamp: '2026-11-22T10:15:30Z',
        data: { client_id: 7, domain: 'a.test' },
      }
      for (const value of [general, reseller]) {
        const body = JSON.stringify(value)
        expect(await api.constructEvent(Buffer.from(body), await sign(body), secret)).toEqual(value)
      }
    })

    it('accepts every fixture event', async () => {
      for (const vector of vectors.filter((v) => v.payload.startsWith('{'))) {
        const event = await api.constructEvent(vector.payload, vector.signature, vector.secret)
        expect(event.event).toBe(JSON.parse(vector.payload).event)
      }
    })

    it('rejects a WebhookVerificationError, with its reason, before looking at the body', async () => {
      const body = 'not even json'
      const cases = [
        [undefined, 'missing'],
        ['', 'missing'],
        ['sha256=nope', 'malformed'],
        [`sha256=${'0'.repeat(64)}`, 'mismatch'],
      ] as const
      for (const [header, reason] of cases) {
        const error = await api.constructEvent(body, header, secret).catch((e: unknown) => e)
        expect(error).toBeInstanceOf(api.WebhookVerificationError)
        expect(api.isWebhookVerificationError(error)).toBe(true)
        expect(api.isWebhookPayloadError(error)).toBe(false)
        expect(error).toMatchObject({ name: 'WebhookVerificationError', reason })
      }
    })

    it.each([
      ['not JSON', '{"event":', 'body: must be valid JSON'],
      ['not UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), 'body: must be UTF-8 text'],
      ['a JSON array', '[]', 'body: must be a JSON object'],
      ['JSON null', 'null', 'body: must be a JSON object'],
      ['an object without event', '{}', 'event: is required'],
      [
        'an unknown event name without the fields of a style',
        '{"event":"vps.exploded"}',
        'body: must carry the fields of a style',
      ],
      [
        'an event whose data is not an object',
        JSON.stringify({ ...vpsActivated, data: 'x' }),
        'data: must be an object',
      ],
      ['an event without data', JSON.stringify({ ...vpsActivated, data: undefined }), 'data: is required'],
      [
        'a reseller event with a timestamp that is not UTC',
        JSON.stringify({ ...vpsActivated, timestamp: '2026-11-22T10:15:30+02:00' }),
        'timestamp: must be an ISO 8601 UTC timestamp ending in Z',
      ],
      [
        'a reseller event without sandbox',
        JSON.stringify({ ...vpsActivated, sandbox: undefined }),
        'sandbox',
      ],
      [
        'a general event with a bad created_at',
        JSON.stringify({ event: 'service.activated', created_at: 'yesterday', data: {} }),
        'created_at',
      ],
    ])('rejects a WebhookPayloadError naming the field for %s', async (_case, body, message) => {
      const error = await api
        .constructEvent(body, await api.signPayload(body, secret), secret)
        .catch((e: unknown) => e)
      expect(api.isWebhookPayloadError(error)).toBe(true)
      expect(error).toBeInstanceOf(api.WebhookPayloadError)
      expect((error as Error).name).toBe('WebhookPayloadError')
      expect((error as Error).message).toContain(message)
      expect(
        Object.keys((error as InstanceType<typeof api.WebhookPayloadError>).fields).length,
      ).toBeGreaterThan(0)
    })

    it('rejects a TypeError for an empty secret: a configuration mistake, not a bad delivery', async () => {
      await expect(api.constructEvent('{}', GITHUB.signature, '')).rejects.toThrow(TypeError)
    })
  })
})

// The two backends side by side; independent of the binding, so run once (in `sdk:unit`).
describe.runIf(BINDING === 'node')('both backends agree', () => {
  const secrets = fc.string({ minLength: 1, maxLength: 80, unit: codePoint({ loneSurrogates: true }) })
  const bodies = fc.oneof(
    fc.string({ maxLength: 300, unit: codePoint({ loneSurrogates: true }) }),
    fc.uint8Array({ maxLength: 300 }),
  )

  it('sign the same (random bodies and secrets, lone surrogates included) as node:crypto itself', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, secrets, async (body, secret) => {
        const expected = reference(body, secret)
        expect(await signWith(webCrypto.hmacBackend, body, secret)).toBe(expected)
        expect(await signWith(nodeCrypto.hmacBackend, body, secret)).toBe(expected)
      }),
      { numRuns: 200 },
    )
  })

  it('give the same verdict on arbitrary headers', async () => {
    const header = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.stringMatching(/^(sha256|SHA256|sha1)=[0-9a-fA-Fg]{63,65}$/),
    )
    await fc.assert(
      fc.asyncProperty(fc.string(), header, secrets, async (body, signature, secret) => {
        expect(await verifyWith(webCrypto.hmacBackend, body, signature, secret)).toBe(
          await verifyWith(nodeCrypto.hmacBackend, body, signature, secret),
        )
      }),
      { numRuns: 200 },
    )
  })
})

describe.each(entries)('properties, %s', (_name, api) => {
  const secrets = fc.string({ minLength: 1, maxLength: 64, unit: codePoint() })
  const bodies = fc.uint8Array({ minLength: 1, maxLength: 512 })

  it('round-trips: what signPayload signs, verifySignature accepts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(bodies, fc.string({ unit: codePoint() })), secrets, async (body, secret) => {
        expect(await api.verifySignature(body, await api.signPayload(body, secret), secret)).toBe(true)
      }),
      { numRuns: 150 },
    )
  })

  it('refuses a body with any single byte changed', async () => {
    await fc.assert(
      fc.asyncProperty(
        bodies,
        secrets,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (body, secret, at, delta) => {
          const signature = await api.signPayload(body, secret)
          const changed = Uint8Array.from(body)
          const i = at % changed.length
          changed[i] = (changed[i]! + delta) & 0xff
          expect(await api.verifySignature(changed, signature, secret)).toBe(false)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('refuses a signature with any single character changed (other than its letter case)', async () => {
    const ascii = fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code))
    await fc.assert(
      fc.asyncProperty(bodies, secrets, fc.nat(70), ascii, async (body, secret, i, char) => {
        const signature = await api.signPayload(body, secret)
        const changed = signature.slice(0, i) + char + signature.slice(i + 1)
        const sameValue = changed.toLowerCase() === signature
        expect(await api.verifySignature(body, changed, secret)).toBe(sameValue)
      }),
      { numRuns: 300 },
    )
  })

  it('refuses the signature made with any other secret', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, secrets, secrets, async (body, secret, other) => {
        fc.pre(secret !== other)
        expect(await api.verifySignature(body, await api.signPayload(body, other), secret)).toBe(false)
      }),
      { numRuns: 100 },
    )
  })

  it('never throws, synchronously or not, whatever the three arguments are', async () => {
    const verify = api.verifySignature as (...args: unknown[]) => Promise<boolean>
    await fc.assert(
      fc.asyncProperty(
        fc.anything(),
        fc.oneof(fc.string(), fc.anything()),
        fc.anything(),
        async (p, s, k) => {
          let result: Promise<boolean> | undefined
          expect(() => {
            result = verify(p, s, k)
          }).not.toThrow()
          expect(await result).toBe(false)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('constructEvent on any signed body resolves an event or rejects a WebhookPayloadError, nothing else', async () => {
    const json = fc.oneof(
      fc.json(),
      fc
        .record({
          event: fc.constantFrom('vps.activated', 'ticket.created', 'test', 'x'),
          data: fc.jsonValue(),
        })
        .map((v) => JSON.stringify(v)),
    )
    await fc.assert(
      fc.asyncProperty(json, async (body) => {
        const outcome = await api
          .constructEvent(body, await api.signPayload(body, 's'), 's')
          .catch((e: unknown) => e)
        if (outcome instanceof Error) expect(api.isWebhookPayloadError(outcome)).toBe(true)
        else expect(outcome).toHaveProperty('event')
      }),
      { numRuns: 150 },
    )
  })
})

describe('error guards', () => {
  it('recognise errors from another copy of the package by name', () => {
    const foreign = Object.assign(new Error('x'), { name: 'WebhookVerificationError', reason: 'mismatch' })
    expect(api.isWebhookVerificationError(foreign)).toBe(true)
    expect(api.isWebhookPayloadError(foreign)).toBe(false)
    expect(api.isWebhookPayloadError({ name: 'WebhookPayloadError' })).toBe(true)
    for (const value of [undefined, null, 'WebhookPayloadError', new Error('x')]) {
      expect(api.isWebhookPayloadError(value)).toBe(false)
      expect(api.isWebhookVerificationError(value)).toBe(false)
    }
  })
})

describe('types', () => {
  it('narrow the event union on `event`', async () => {
    const body = JSON.stringify(vpsActivated)
    const event = await api.constructEvent(body, await api.signPayload(body, 's'), 's')
    expectTypeOf(event).toEqualTypeOf<api.WebhookEvent>()
    if (event.event === 'vps.activated') {
      expectTypeOf(event.data).toEqualTypeOf<{
        client_id: number
        order_uuid: string
        server_id: number
        ipv4: string
        status: string
      }>()
      expectTypeOf(event.sandbox).toEqualTypeOf<boolean>()
      expectTypeOf(event).toEqualTypeOf<api.WebhookEventOf<'vps.activated'>>()
    }
    if (event.event === 'ticket.created') {
      expectTypeOf(event.created_at).toEqualTypeOf<string>()
      expectTypeOf(event.data.ticket_id).toEqualTypeOf<string>()
    }
    if (event.event === 'domain.registered') {
      // Both styles use this name: narrow further on the style's own fields.
      expectTypeOf(event).toEqualTypeOf<api.WebhookEventOf<'domain.registered'>>()
      if ('sandbox' in event) expectTypeOf(event.data.client_id).toEqualTypeOf<number>()
      else expectTypeOf(event.created_at).toEqualTypeOf<string>()
    }
    expectTypeOf<api.WebhookEventName>().toEqualTypeOf<
      api.ResellerEventName | api.GeneralEventName | 'test'
    >()
  })

  it('do not depend on the binding: both `#crypto` modules have the same type', () => {
    expectTypeOf<typeof nodeCrypto>().toEqualTypeOf<typeof webCrypto>()
    expectTypeOf(api.verifySignature).parameters.toEqualTypeOf<
      [payload: string | Uint8Array, signature: string | null | undefined, secret: api.WebhookSecret]
    >()
    expectTypeOf(api.verifySignature).returns.toEqualTypeOf<Promise<boolean>>()
  })
})
