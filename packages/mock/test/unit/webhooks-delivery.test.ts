import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { verifySignature } from '@reseller-api/sdk/webhooks'
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { afterEach, describe, expect, it } from 'vitest'
import { createClock } from '../../src/state/clock.js'
import { DELIVERY_TIMEOUT_MS } from '../../src/webhooks/attempt.js'
import {
  createDispatcher,
  type DeliveryNotice,
  type DispatcherOptions,
} from '../../src/webhooks/dispatcher.js'
import { memoryDeliveryStore, startReceiver, startVerifyingReceiver } from '../helpers/webhooks.js'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

function setup(url: string, secret: string, options: Partial<DispatcherOptions> = {}) {
  const clock = createClock()
  const mem = memoryDeliveryStore()
  mem.generalHooks.set('wh_1', { reseller_id: 1, events: ['ticket.created'], url, secret })
  const dispatcher = createDispatcher({ clock, store: mem.store, insecureWebhooks: true, ...options })
  cleanups.push(
    () => dispatcher.stop(),
    () => clock.stop(),
  )
  let n = 0
  const emit = (data: unknown = { subject: 'Hello — ünïcode ✓' }) =>
    dispatcher.enqueue({
      id: ++n,
      reseller_id: 1,
      style: 'general',
      event: 'ticket.created',
      payload: { event: 'ticket.created', created_at: '2026-01-01T00:00:00+00:00', data },
    })
  return { clock, mem, dispatcher, emit }
}

describe('signed deliveries', () => {
  it('a receiver with its own HMAC check (node:crypto, no SDK) verifies every signature', async () => {
    const secret = 'whsec_receiver_ünï'
    const verifier = await startVerifyingReceiver(secret)
    cleanups.push(() => verifier.close())
    const { clock, mem, emit } = setup(verifier.url, secret)
    const records = [...emit(), ...emit({ n: 2 }), ...emit({ nested: { a: [1, 2, 3] } })]
    await clock.advance(0)
    await verifier.waitFor(3)
    expect(verifier.seen.map((s) => s.valid)).toEqual([true, true, true])
    expect(new Set(verifier.seen.map((s) => s.delivery))).toEqual(new Set(records.map((r) => r.delivery_id)))
    for (const r of records) expect(mem.deliveries.get(r.delivery_id)?.status).toBe('success')
  })

  it('a receiver using the SDK verifySignature accepts every delivery, and the headers are as documented', async () => {
    const secret = 'sdk-secret'
    const results: boolean[] = []
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const { clock, emit } = setup(receiver.url, secret)
    const [record] = emit()
    await clock.advance(0)
    expect(receiver.received).toHaveLength(1)
    const got = receiver.received[0]!
    results.push(await verifySignature(got.body, got.headers['x-service-signature'] as string, secret))
    results.push(await verifySignature(got.body, got.headers['x-service-signature'] as string, 'wrong'))
    expect(results).toEqual([true, false])
    expect(got.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/)
    expect(got.headers['content-type']).toBe('application/json')
    expect(got.headers['user-agent']).toMatch(/^reseller-mock-webhooks\//)
    expect(got.headers['x-service-delivery']).toBe(record!.delivery_id)
    expect(got.headers['x-service-event']).toBe('ticket.created')
    // In-process deliveries carry MSW's bypass mark (MSW may intercept even the platform fetch).
    expect(got.headers.accept).toMatch(/^\*\/\*(, msw\/passthrough)?$/)
    // The body is the event JSON, exactly the bytes that were signed.
    expect(got.body).toBe(record!.payload)
    expect(JSON.parse(got.body)).toEqual({
      event: 'ticket.created',
      created_at: '2026-01-01T00:00:00+00:00',
      data: { subject: 'Hello — ünïcode ✓' },
    })
  })

  it('the real answer limit is 5 s', () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(5000)
  })

  it('a connection refused fails the attempt with no http_status', async () => {
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const { port } = closed.address() as AddressInfo
    await new Promise<void>((r) => closed.close(() => r()))
    const { clock, mem, emit } = setup(`http://127.0.0.1:${port}/hook`, 's')
    const [record] = emit()
    await clock.advance(0)
    expect(mem.deliveries.get(record!.delivery_id)).toMatchObject({
      status: 'failed',
      http_status: null,
      error: 'connection failed: ECONNREFUSED',
    })
  })

  it('an injected fetch gets the bypass mark by default (it may be an interceptor), unless bypassMsw: false', async () => {
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const injected: typeof fetch = (input, init) => fetch(input, init)
    const marked = setup(receiver.url, 's', { fetch: injected })
    marked.emit()
    await marked.clock.advance(0)
    const plain = setup(receiver.url, 's', { fetch: injected, bypassMsw: false })
    plain.emit()
    await plain.clock.advance(0)
    expect(receiver.received.map((r) => r.headers.accept)).toEqual(['*/*, msw/passthrough', '*/*'])
  })

  it('a redirect is not followed and counts as a failure', async () => {
    const receiver = await startReceiver(() => 302)
    cleanups.push(() => receiver.close())
    const { clock, mem, emit } = setup(receiver.url, 's')
    const [record] = emit()
    await clock.advance(0)
    expect(mem.deliveries.get(record!.delivery_id)).toMatchObject({ status: 'failed', http_status: 302 })
  })
})

describe('target safety', () => {
  it.each([
    // The loopback or private host first, even over http://: the rule a local receiver meets.
    ['http://127.0.0.1:9/hook', /^target refused: 127\.0\.0\.1 is a loopback address; /],
    ['https://127.0.0.1:9/hook', /^target refused: 127\.0\.0\.1 is a loopback address; /],
    ['https://10.1.2.3/hook', /^target refused: 10\.1\.2\.3 is a private address; /],
    ['https://localhost/hook', /^target refused: localhost names this machine; /],
    ['http://hooks.example.com/hook', /^target refused: url must be an https:\/\/ URL: HTTP is refused; /],
  ])('without insecureWebhooks a general delivery to %s is refused without a request', async (url, why) => {
    const { clock, mem, emit } = setup(url, 's', { insecureWebhooks: false })
    const [record] = emit()
    await clock.advance(0)
    const done = mem.deliveries.get(record!.delivery_id)!
    expect(done).toMatchObject({ status: 'failed', http_status: null })
    expect(done.error).toMatch(why)
    expect(done.error).toMatch(/only when started with --insecure-webhooks .*; nothing was sent$/)
  })
})

describe('MSW in the same process', () => {
  it.each(['dispatcher created before', 'dispatcher created after'])(
    'setupServer does not intercept the mock’s deliveries (%s server.listen)',
    async (order) => {
      const receiver = await startReceiver()
      cleanups.push(() => receiver.close())
      const intercepted: string[] = []
      const msw = setupServer(
        http.all('*', ({ request }) => {
          intercepted.push(request.url)
          return HttpResponse.text('swallowed', { status: 200 })
        }),
      )
      let ctx: ReturnType<typeof setup> | undefined
      if (order === 'dispatcher created before') ctx = setup(receiver.url, 's')
      msw.listen({ onUnhandledFrame: 'bypass' })
      cleanups.push(() => msw.close())
      ctx ??= setup(receiver.url, 's')
      const [record] = ctx.emit()
      await ctx.clock.advance(0)
      expect(intercepted).toEqual([])
      expect(receiver.received).toHaveLength(1)
      // Whether MSW intercepted the delivery or not, it reached the receiver and not a handler.
      expect(receiver.received[0]?.headers.accept).toMatch(/^\*\/\*(, msw\/passthrough)?$/)
      expect(ctx.mem.deliveries.get(record!.delivery_id)?.status).toBe('success')
    },
  )
})

describe('synchronous sends (the test endpoints)', () => {
  it('deliverNow makes the first attempt before resolving, and a failure enters the retry schedule', async () => {
    const receiver = await startReceiver(() => 500)
    cleanups.push(() => receiver.close())
    const { clock, mem, dispatcher } = setup(receiver.url, 's')
    const record = await dispatcher.deliverNow(1, 'wh_1', 'test', {
      event: 'test',
      created_at: 'x',
      data: {},
    })
    expect(receiver.received).toHaveLength(1)
    expect(record).toMatchObject({ status: 'failed', http_status: 500, retries: 0, event_id: null })
    expect(record.next_attempt_at).not.toBeNull()
    await clock.advance(60_000)
    expect(receiver.received).toHaveLength(2)
    expect(mem.deliveries.get(record.delivery_id)?.retries).toBe(1)
  })

  it('deliverNow without retry records one failed attempt and schedules nothing (the reseller test)', async () => {
    const receiver = await startReceiver(() => 401)
    cleanups.push(() => receiver.close())
    const { clock, mem, dispatcher } = setup(receiver.url, 's')
    mem.resellerHooks.set(1, { url: receiver.url, secret: 'x' })
    const record = await dispatcher.deliverNow(1, 'reseller', 'hosting.created', { a: 1 }, { retry: false })
    expect(record).toMatchObject({
      status: 'failed',
      http_status: 401,
      error: 'receiver answered HTTP 401',
      attempts: 1,
      next_attempt_at: null,
      webhook_id: 'reseller',
      event_id: null,
    })
    expect(mem.deliveries.get(record.delivery_id)).toBeDefined()
    await clock.advance(3_600_000)
    expect(receiver.received).toHaveLength(1)
  })
})

describe('notices (the delivery stream and the request log)', () => {
  it('tells of each delivery queued, then of each attempt with the record as updated and where it went', async () => {
    const receiver = await startReceiver((n) => (n === 1 ? 503 : 200))
    cleanups.push(() => receiver.close())
    const notices: DeliveryNotice[] = []
    const { clock, emit } = setup(receiver.url, 's', { notify: (notice) => notices.push(notice) })
    const [record] = emit()
    expect(notices).toEqual([{ type: 'queued', delivery: record, url: receiver.url }])
    await clock.advance(0)
    await clock.advance(60_000)
    const attempts = notices.filter((n) => n.type === 'attempt')
    expect(attempts.map((n) => [n.delivery.delivery_id, n.delivery.attempts, n.delivery.status])).toEqual([
      [record!.delivery_id, 1, 'failed'],
      [record!.delivery_id, 2, 'success'],
    ])
    expect(attempts[0]).toMatchObject({
      url: receiver.url,
      result: { ok: false, httpStatus: 503 },
      delivery: { http_status: 503 },
    })
    // The retry's time is in the notice of the failed attempt: 1 min after it started.
    const first = attempts[0]!.delivery
    expect(Date.parse(first.next_attempt_at!) - Date.parse(first.attempted_at!)).toBe(60_000)
    expect(attempts[1]!.delivery.next_attempt_at).toBeNull()
  })
})

describe('redelivery', () => {
  it("keeps the first delivery's id in X-Service-Delivery, across redeliveries of redeliveries", async () => {
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const { clock, dispatcher, emit } = setup(receiver.url, 's')
    const [original] = emit()
    await clock.advance(0)
    const again = await dispatcher.redeliver(original!.delivery_id)
    const third = await dispatcher.redeliver(again!.delivery_id)
    expect(again!.delivery_id).not.toBe(original!.delivery_id)
    expect(third!.delivery_id).not.toBe(again!.delivery_id)
    expect(again!.redelivery_of).toBe(original!.delivery_id)
    expect(third!.redelivery_of).toBe(original!.delivery_id)
    expect(receiver.received.map((r) => r.headers['x-service-delivery'])).toEqual([
      original!.delivery_id,
      original!.delivery_id,
      original!.delivery_id,
    ])
  })
})
