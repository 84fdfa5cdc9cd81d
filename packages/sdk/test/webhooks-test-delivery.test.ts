// generateTestDelivery: signed deliveries for receivers' unit tests, under each `#crypto` binding,
// accepted by constructEvent and both adapters; the synchronous HMAC of the Web Crypto binding.
import { createHmac } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { GENERAL_EVENTS, RESELLER_EVENTS } from '../src/schemas/event-envelope.js'
import { GeneralEvent, ResellerEvent, WebhookEvent } from '../src/schemas/events.js'
import { hmacSha256Hex } from '../src/webhooks/hmac-sync.js'
import * as api from '../src/webhooks/index.js'
import { BINDING, BINDING_LABEL } from './helpers/webhooks-binding.js'

const entries = [[BINDING_LABEL, api]] as const
const SECRET = 'whsec_test_delivery'
const ALL_NAMES = [...new Set([...RESELLER_EVENTS, ...GENERAL_EVENTS, 'test' as const])]
const UTC_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const OFFSET_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/

// A plain function, independent of the binding: run once (in `sdk:unit`).
describe.runIf(BINDING === 'node')('the synchronous HMAC of the Web Crypto binding', () => {
  it('equals node:crypto for any body and secret (block edges, long keys, UTF-8)', () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000]) {
      for (const k of ['k', 'x'.repeat(64), 'y'.repeat(65), 'é'.repeat(40)]) {
        const body = 'a'.repeat(n)
        expect(hmacSha256Hex(body, k)).toBe(createHmac('sha256', k).update(body).digest('hex'))
      }
    }
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 200, unit: 'grapheme' }), fc.uint8Array({ maxLength: 200 })),
        fc.string({ minLength: 1, maxLength: 80, unit: 'grapheme' }),
        (body, secret) =>
          hmacSha256Hex(body, secret) === createHmac('sha256', secret).update(body).digest('hex'),
      ),
    )
  }, 30_000)
})

describe.each(entries)('generateTestDelivery (%s)', (_name, api) => {
  it.each(ALL_NAMES)(
    '%s: signed, accepted by constructEvent, data valid against its SDK schema',
    async (name) => {
      const { body, headers } = api.generateTestDelivery({ event: name, secret: SECRET })
      expect(typeof body).toBe('string')
      expect(await api.verifySignature(body, headers['x-service-signature'], SECRET)).toBe(true)
      const event = await api.constructEvent(body, headers[api.SIGNATURE_HEADER], SECRET)
      expect(event.event).toBe(name)
      // The sample data matches the event's full schema (constructEvent checks the envelope only).
      expect(WebhookEvent.safeParse(JSON.parse(body)).success).toBe(true)
      if ('timestamp' in event) expect(event.timestamp).toMatch(UTC_MICROS)
      else expect(event.created_at).toMatch(OFFSET_MICROS)
    },
  )

  it('carries the headers of the mock’s deliveries, all lower case', () => {
    const { headers } = api.generateTestDelivery({ event: 'hosting.created', secret: SECRET })
    expect(Object.keys(headers).sort()).toEqual(
      ['content-type', 'user-agent', 'x-service-delivery', 'x-service-event', 'x-service-signature'].sort(),
    )
    expect(headers[api.EVENT_HEADER]).toBe('hosting.created')
    expect(headers[api.DELIVERY_ID_HEADER]).toMatch(/^dlv_[0-9a-f]{32}$/)
    expect(headers['content-type']).toBe('application/json')
    // A fresh delivery id each time: a receiver deduplicating on it sees two deliveries.
    expect(
      api.generateTestDelivery({ event: 'hosting.created', secret: SECRET }).headers['x-service-delivery'],
    ).not.toBe(headers['x-service-delivery'])
  })

  it('styles: reseller names get sandbox + timestamp, general ones created_at; domain.registered is general', () => {
    const reseller = JSON.parse(api.generateTestDelivery({ event: 'vps.activated', secret: SECRET }).body)
    expect(ResellerEvent.parse(reseller)).toMatchObject({ sandbox: false })
    const shared = JSON.parse(api.generateTestDelivery({ event: 'domain.registered', secret: SECRET }).body)
    expect(GeneralEvent.safeParse(shared).success).toBe(true)
    expect(shared).not.toHaveProperty('sandbox')
  })

  it('uses the data given, and sends a whole event object as it is', async () => {
    const data = { client_id: 7, order_uuid: 'o-1', server_id: 9, ipv4: '198.51.100.7', status: 'active' }
    const { body } = api.generateTestDelivery({ event: 'vps.activated', secret: SECRET, data })
    expect(JSON.parse(body).data).toEqual(data)
    const whole = {
      event: 'wallet.credited',
      sandbox: true,
      timestamp: '2026-11-22T10:15:30.123456Z',
      data: { amount: 5, balance: 10, reason: 'refund' },
    } as const
    const delivery = api.generateTestDelivery({ event: whole, secret: SECRET })
    expect(delivery.body).toBe(JSON.stringify(whole))
    expect(await api.constructEvent(delivery.body, delivery.headers['x-service-signature'], SECRET)).toEqual(
      whole,
    )
  })

  it('refuses what it cannot sign as an event, naming the problem', () => {
    const gen = api.generateTestDelivery as (o: unknown) => unknown
    expect(() => gen({ event: 'nope.event', secret: SECRET })).toThrow(/unknown event "nope.event"/)
    expect(() => gen({ event: 'vps.activated', secret: '' })).toThrow(TypeError)
    expect(() => gen({ event: 'vps.activated', secret: SECRET, data: [1] })).toThrow(/data must be an object/)
    expect(() => gen({ event: { event: 'vps.activated', data: {} }, secret: SECRET })).toThrow(
      /sandbox: is required/,
    )
  })

  it('typed by event name: data is the event’s data type', () => {
    expectTypeOf(api.generateTestDelivery<'vps.activated'>)
      .parameter(0)
      .toHaveProperty('data')
      .toEqualTypeOf<
        { client_id: number; order_uuid: string; server_id: number; ipv4: string; status: string } | undefined
      >()
    // @ts-expect-error: ipv4 belongs to vps.activated, not to ticket.created
    api.generateTestDelivery({ event: 'ticket.created', secret: SECRET, data: { ipv4: 'x' } })
  })

  it('createFetchHandler answers 200 and hands the typed event to onEvent', async () => {
    const seen: string[] = []
    const handler = api.createFetchHandler({
      secret: SECRET,
      onEvent: (event) => {
        if (event.event === 'ticket.replied') seen.push(event.data.message)
      },
    })
    const { body, headers } = api.generateTestDelivery({ event: 'ticket.replied', secret: SECRET })
    const response = await handler(
      new Request('http://receiver.test/webhooks', { method: 'POST', body, headers }),
    )
    expect(response.status).toBe(200)
    expect(seen).toEqual(['Certificate issued.'])
    // Signed with another secret: 401.
    const forged = api.generateTestDelivery({ event: 'ticket.replied', secret: 'other' })
    const refused = await handler(
      new Request('http://receiver.test/webhooks', {
        method: 'POST',
        body: forged.body,
        headers: forged.headers,
      }),
    )
    expect(refused.status).toBe(401)
  })

  it('createNodeHandler behind node:http answers 200 to it', async () => {
    const seen: string[] = []
    const server = createServer(
      api.createNodeHandler({ secret: SECRET, onEvent: (event) => void seen.push(event.event) }),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { body, headers } = api.generateTestDelivery({ event: 'payment.failed', secret: SECRET })
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
      const response = await fetch(url, { method: 'POST', body, headers })
      expect(response.status).toBe(200)
      expect(seen).toEqual(['payment.failed'])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('sampleEventData', () => {
  it('gives a fresh copy valid against the event’s schema, for every name of each style', () => {
    for (const name of RESELLER_EVENTS) {
      const data = api.sampleEventData('reseller', name)
      expect(
        ResellerEvent.safeParse({ event: name, sandbox: false, timestamp: '2026-01-01T00:00:00Z', data })
          .success,
      ).toBe(true)
    }
    for (const name of GENERAL_EVENTS) {
      const data = api.sampleEventData('general', name)
      expect(
        GeneralEvent.safeParse({ event: name, created_at: '2026-01-01T00:00:00+00:00', data }).success,
      ).toBe(true)
    }
    const a = api.sampleEventData('reseller', 'vps.activated')
    a.ipv4 = 'changed'
    expect(api.sampleEventData('reseller', 'vps.activated').ipv4).toBe('203.0.113.10')
    expect(api.sampleEventData('reseller', 'ticket.created')).toBeUndefined()
  })
})
