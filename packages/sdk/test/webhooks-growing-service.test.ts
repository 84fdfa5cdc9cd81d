// A receiver for a service that grows (docs/webhooks.md, "A service that grows" and "Rotating a
// secret"): signed, well-formed events of a type this SDK version does not know, and several
// secrets for one receiver. Runs once per `#crypto` binding (vitest.config.ts).
import { describe, expect, expectTypeOf, it, vi } from 'vitest'
import { type HmacBackend, verifyWith } from '../src/webhooks/core.js'
import * as api from '../src/webhooks/index.js'
import { useServer } from './helpers/webhook-server.js'
import { BINDING, BINDING_LABEL } from './helpers/webhooks-binding.js'

const SECRET = 'whsec_growing'
const OLD_SECRET = 'whsec_rotated_out'
const OTHER = 'whsec_someone_else'

/** A reseller-style event of a type added after this SDK version, with a field added to the envelope. */
const resellerStyle = {
  event: 'vps.migrated',
  sandbox: false,
  timestamp: '2026-11-22T10:15:30.123456Z',
  data: { server_id: 42, from_region: 'eu-west', to_region: 'eu-central' },
  api_version: '2027-01-01',
}
/** A general-style event of a type added after this SDK version. */
const generalStyle = {
  event: 'service.migrated',
  created_at: '2026-11-22T10:15:30+00:00',
  data: { service_id: 'svc_9', region: 'eu-central' },
}
const known = {
  event: 'ticket.created',
  created_at: '2026-11-22T10:15:30+00:00',
  data: { ticket_id: 'a6c2', subject: 'Hello' },
}

const signed = async (value: unknown, secret = SECRET) => {
  const body = typeof value === 'string' ? value : JSON.stringify(value)
  return { body, signature: await api.signPayload(body, secret) }
}

describe(`unknown event types through constructEvent (${BINDING_LABEL})`, () => {
  it.each([
    ['reseller', resellerStyle],
    ['general', generalStyle],
  ])(
    'rejects a signed, well-formed %s-style event of an unknown type with WebhookUnknownEventError',
    async (_style, value) => {
      const { body, signature } = await signed(value)
      const error = await api.constructEvent(body, signature, SECRET).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(api.WebhookUnknownEventError)
      // A WebhookPayloadError too, so `catch` code written before it existed keeps working.
      expect(error).toBeInstanceOf(api.WebhookPayloadError)
      expect(api.isWebhookUnknownEventError(error)).toBe(true)
      expect(api.isWebhookPayloadError(error)).toBe(true)
      const unknown = error as api.WebhookUnknownEventError
      expect(unknown.name).toBe('WebhookUnknownEventError')
      expect(unknown.eventName).toBe(value.event)
      expect(unknown.payload).toEqual(value)
      expect(unknown.fields).toEqual({ event: [`unknown event "${value.event}"`] })
      expect(unknown.message).toContain(`"${value.event}" is unknown to this SDK version`)
    },
  )

  it('checks the signature first: an unknown event with a bad signature is a WebhookVerificationError', async () => {
    const { body } = await signed(resellerStyle)
    const error = await api.constructEvent(body, await api.signPayload(body, OTHER), SECRET).catch((e) => e)
    expect(api.isWebhookVerificationError(error)).toBe(true)
    expect(api.isWebhookUnknownEventError(error)).toBe(false)
  })

  it.each([
    ['an unknown name without the fields of a style', { event: 'vps.migrated', data: {} }, 'body'],
    [
      'an unknown reseller-style event whose timestamp is not UTC',
      { ...resellerStyle, timestamp: '2026-11-22T10:15:30+02:00' },
      'timestamp',
    ],
    [
      'an unknown reseller-style event whose sandbox is not a boolean',
      { ...resellerStyle, sandbox: 'no' },
      'sandbox',
    ],
    ['an unknown general-style event whose data is not an object', { ...generalStyle, data: [1] }, 'data'],
    ['an unknown event without data', { ...generalStyle, data: undefined }, 'data'],
    ['an empty event name', { ...generalStyle, event: '' }, 'event'],
    ['a known event with a broken envelope', { ...known, created_at: 'yesterday' }, 'created_at'],
  ])('keeps %s a bad payload (WebhookPayloadError, not an unknown event)', async (_case, value, field) => {
    const { body, signature } = await signed(value)
    const error = await api.constructEvent(body, signature, SECRET).catch((e: unknown) => e)
    expect(api.isWebhookPayloadError(error)).toBe(true)
    expect(api.isWebhookUnknownEventError(error)).toBe(false)
    expect((error as api.WebhookPayloadError).name).toBe('WebhookPayloadError')
    expect(Object.keys((error as api.WebhookPayloadError).fields)).toContain(field)
  })

  it('recognises an unknown-event error from another copy of the package by name', () => {
    const foreign = Object.assign(new Error('x'), { name: 'WebhookUnknownEventError' })
    expect(api.isWebhookUnknownEventError(foreign)).toBe(true)
    expect(api.isWebhookPayloadError(foreign)).toBe(true)
    expect(api.isWebhookUnknownEventError({ name: 'WebhookPayloadError' })).toBe(false)
    expect(api.isWebhookUnknownEventError(undefined)).toBe(false)
  })

  it('types the payload as an event of either style with unknown data', () => {
    expectTypeOf<api.WebhookUnknownEventError['payload']>().toEqualTypeOf<api.UnknownWebhookEvent>()
    expectTypeOf<api.UnknownWebhookEvent['event']>().toEqualTypeOf<string>()
    expectTypeOf<api.UnknownWebhookEvent['data']>().toEqualTypeOf<Record<string, unknown>>()
  })
})

describe(`generateTestDelivery of an unknown event (${BINDING_LABEL})`, () => {
  it('signs a whole event object of any well-formed name, as the service would send it', async () => {
    const delivery = api.generateTestDelivery({ event: resellerStyle, secret: SECRET })
    expect(delivery.body).toBe(JSON.stringify(resellerStyle))
    expect(delivery.headers['x-service-event']).toBe('vps.migrated')
    const error = await api
      .constructEvent(delivery.body, delivery.headers['x-service-signature'], SECRET)
      .catch((e: unknown) => e)
    expect(api.isWebhookUnknownEventError(error)).toBe(true)
  })

  it('refuses a name outside ^[a-z]+(\\.[a-z_]+)+$ and an unknown name given without the event object', () => {
    const gen = api.generateTestDelivery as (options: unknown) => unknown
    for (const event of ['Vps.Migrated', 'vps', 'vps.migrated!', 'vps..migrated']) {
      expect(() => gen({ event: { ...generalStyle, event }, secret: SECRET })).toThrow(
        /neither a known event/,
      )
    }
    expect(() => gen({ event: 'vps.migrated', secret: SECRET })).toThrow(/unknown event "vps.migrated"/)
  })
})

/** The adapters, each wrapped to take a body and a signature and give back the status and text. */
function adapters() {
  const server = useServer()
  return [
    {
      name: 'createFetchHandler',
      make: (options: api.FetchHandlerOptions) => {
        const handler = api.createFetchHandler(options)
        return async (body: string, signature: string) => {
          const response = await handler(
            new Request('https://receiver.test/hooks', {
              method: 'POST',
              body,
              headers: { [api.SIGNATURE_HEADER]: signature },
            }),
          )
          return { status: response.status, text: await response.text() }
        }
      },
    },
    {
      name: 'createNodeHandler',
      make: (options: api.FetchHandlerOptions) => {
        const handler = api.createNodeHandler(options as unknown as api.NodeHandlerOptions)
        return async (body: string, signature: string) => {
          server.use(handler)
          const response = await server.send(body, signature)
          return { status: response.status, text: await response.text() }
        }
      },
    },
  ] as const
}

describe.each(adapters())(`$name and unknown event types (${BINDING_LABEL})`, ({ make }) => {
  it('answers 200 without calling onEvent, and calls onUnknownEvent with the payload and the request', async () => {
    const onEvent = vi.fn()
    const seen: unknown[] = []
    const deliver = make({
      secret: SECRET,
      onEvent,
      onUnknownEvent: async (event, request) => {
        await Promise.resolve()
        seen.push(event, typeof request)
      },
    })
    for (const value of [resellerStyle, generalStyle]) {
      const { body, signature } = await signed(value)
      expect(await deliver(body, signature)).toEqual({ status: 200, text: 'ok' })
    }
    expect(onEvent).not.toHaveBeenCalled()
    expect(seen).toEqual([resellerStyle, 'object', generalStyle, 'object'])
  })

  it('without onUnknownEvent: answers 200 and warns once per event name and handler', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const onEvent = vi.fn()
      const first = make({ secret: SECRET, onEvent })
      const migrated = await signed(resellerStyle)
      for (let i = 0; i < 3; i++) {
        expect((await first(migrated.body, migrated.signature)).status).toBe(200)
      }
      expect(warn).toHaveBeenCalledOnce()
      expect(String(warn.mock.calls[0]![0])).toContain('"vps.migrated"')
      // Another name warns once more; so does the same name at another handler.
      const general = await signed(generalStyle)
      expect((await first(general.body, general.signature)).status).toBe(200)
      expect(warn).toHaveBeenCalledTimes(2)
      const second = make({ secret: SECRET, onEvent })
      expect((await second(migrated.body, migrated.signature)).status).toBe(200)
      expect(warn).toHaveBeenCalledTimes(3)
      expect(onEvent).not.toHaveBeenCalled()
    } finally {
      warn.mockRestore()
    }
  })

  it('without onUnknownEvent but with onError: tells onError once per name, and does not warn', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const onError = vi.fn()
      const deliver = make({ secret: SECRET, onEvent: vi.fn(), onError })
      const { body, signature } = await signed(generalStyle)
      await deliver(body, signature)
      await deliver(body, signature)
      expect(onError).toHaveBeenCalledOnce()
      expect(api.isWebhookUnknownEventError(onError.mock.calls[0]![0])).toBe(true)
      expect(warn).not.toHaveBeenCalled()
    } finally {
      warn.mockRestore()
    }
  })

  it('answers 500 when onUnknownEvent throws, so the sender retries', async () => {
    const onError = vi.fn()
    const deliver = make({
      secret: SECRET,
      onEvent: vi.fn(),
      onUnknownEvent: () => {
        throw new Error('queue full')
      },
      onError,
    })
    const { body, signature } = await signed(resellerStyle)
    expect((await deliver(body, signature)).status).toBe(500)
    expect(onError).toHaveBeenCalledWith(new Error('queue full'), expect.anything())
  })

  it("answers 400 under unknownEvents: 'reject', without calling onUnknownEvent", async () => {
    const onUnknownEvent = vi.fn()
    const deliver = make({ secret: SECRET, onEvent: vi.fn(), onUnknownEvent, unknownEvents: 'reject' })
    const { body, signature } = await signed(resellerStyle)
    const answer = await deliver(body, signature)
    expect(answer.status).toBe(400)
    expect(answer.text).toContain('"vps.migrated" is unknown to this SDK version')
    expect(onUnknownEvent).not.toHaveBeenCalled()
  })

  it('keeps its answers to a broken envelope, a body that is not JSON, and a bad signature (400, 400, 401)', async () => {
    const onUnknownEvent = vi.fn()
    const deliver = make({ secret: SECRET, onEvent: vi.fn(), onUnknownEvent })
    const broken = await signed({ ...known, data: 'x' })
    expect((await deliver(broken.body, broken.signature)).status).toBe(400)
    const brokenUnknown = await signed({ ...resellerStyle, timestamp: 'now' })
    expect((await deliver(brokenUnknown.body, brokenUnknown.signature)).status).toBe(400)
    const notJson = await signed('{"event":')
    expect((await deliver(notJson.body, notJson.signature)).status).toBe(400)
    const forged = await signed(resellerStyle, OTHER)
    expect((await deliver(forged.body, forged.signature)).status).toBe(401)
    expect(onUnknownEvent).not.toHaveBeenCalled()
  })

  it('refuses bad options when it is made', () => {
    const onEvent = vi.fn()
    expect(() => make({ secret: SECRET, onEvent, unknownEvents: 'skip' as 'reject' })).toThrow(
      /unknownEvents must be 'accept' or 'reject'/,
    )
    expect(() => make({ secret: SECRET, onEvent, onUnknownEvent: 'log' as never })).toThrow(
      /onUnknownEvent must be a function/,
    )
  })
})

describe(`several secrets (${BINDING_LABEL})`, () => {
  const body = JSON.stringify(known)

  it('verifySignature: true when the secret that signed is at any position of the array', async () => {
    const signature = await api.signPayload(body, SECRET)
    for (const secrets of [
      [SECRET],
      [SECRET, OLD_SECRET],
      [OLD_SECRET, SECRET],
      [OTHER, SECRET, OLD_SECRET],
    ]) {
      expect(await api.verifySignature(body, signature, secrets)).toBe(true)
    }
  })

  it('verifySignature: false when none matches, and for an empty array or an empty secret in it', async () => {
    const signature = await api.signPayload(body, SECRET)
    expect(await api.verifySignature(body, signature, [OLD_SECRET, OTHER])).toBe(false)
    expect(await api.verifySignature(body, signature, [])).toBe(false)
    expect(await api.verifySignature(body, signature, ['', SECRET])).toBe(false)
    expect(await api.verifySignature(body, signature, [SECRET, 42] as never)).toBe(false)
  })

  it('constructEvent: verifies with any secret of the array; an empty array is a TypeError', async () => {
    const signature = await api.signPayload(body, OLD_SECRET)
    expect(await api.constructEvent(body, signature, [SECRET, OLD_SECRET])).toEqual(known)
    const error = await api.constructEvent(body, signature, [SECRET, OTHER]).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'WebhookVerificationError', reason: 'mismatch' })
    await expect(api.constructEvent(body, signature, [])).rejects.toThrow(/got an empty array/)
    await expect(api.constructEvent(body, signature, [SECRET, ''])).rejects.toThrow(
      /got an array with an empty or non-string item/,
    )
  })

  it.each(adapters())(
    '$name: one URL takes deliveries signed with either secret; an empty array is refused at once',
    async ({ make }) => {
      const secrets = [SECRET, OLD_SECRET]
      const events: string[] = []
      const deliver = make({ secret: secrets, onEvent: (event) => void events.push(event.event) })
      secrets.length = 0 // the handler keeps its own copy
      expect((await deliver(body, await api.signPayload(body, SECRET))).status).toBe(200)
      expect((await deliver(body, await api.signPayload(body, OLD_SECRET))).status).toBe(200)
      expect((await deliver(body, await api.signPayload(body, OTHER))).status).toBe(401)
      expect(events).toEqual(['ticket.created', 'ticket.created'])
      expect(() => make({ secret: [], onEvent: vi.fn() })).toThrow(
        /options.secret must be a non-empty string or a non-empty array/,
      )
    },
  )

  it('types secret as one string or a readonly array of them', () => {
    expectTypeOf<api.WebhookSecret>().toEqualTypeOf<string | readonly string[]>()
    expectTypeOf<api.FetchHandlerOptions['secret']>().toEqualTypeOf<api.WebhookSecret>()
  })
})

// The comparison itself, with a recording backend: independent of the binding, so run once.
describe.runIf(BINDING === 'node')('verifying with several secrets compares with each', () => {
  it('runs every comparison, even after one matched, so the time does not tell which secret matched', async () => {
    const compared: string[] = []
    const backend: HmacBackend = {
      signHex: () => '',
      sha256Hex: () => '',
      verifyHeader: (_payload, _header, secret) => {
        compared.push(secret)
        return secret === 'b'
      },
    }
    const header = `sha256=${'a'.repeat(64)}`
    expect(await verifyWith(backend, 'body', header, ['a', 'b', 'c'])).toBe(true)
    expect(compared).toEqual(['a', 'b', 'c'])
    compared.length = 0
    const asyncBackend: HmacBackend = {
      ...backend,
      verifyHeader: async (p, h, s) => backend.verifyHeader(p, h, s),
    }
    expect(await verifyWith(asyncBackend, 'body', header, ['b', 'c'])).toBe(true)
    expect(compared).toEqual(['b', 'c'])
  })
})
