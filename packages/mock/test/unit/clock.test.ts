import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createClock } from '../../src/state/clock.js'
import { createDispatcher } from '../../src/webhooks/dispatcher.js'
import { call, KEYS, newMock } from '../helpers/mock.js'
import { memoryDeliveryStore } from '../helpers/webhooks.js'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

/** A receiver that answers `status` after `delayMs` of real time, and records when each attempt came. */
async function slowReceiver(delayMs: number, status = 500) {
  const hits: number[] = []
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      hits.push(Date.now())
      setTimeout(() => res.writeHead(status).end(), delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits }
}

const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

describe('clock: fake-timer semantics', () => {
  it('stands still while an advance runs, however long its tasks take in real time', async () => {
    let real = 1_000_000
    const clock = createClock({ realNow: () => real })
    const seen: number[] = []
    clock.schedule(1_000_000 + 5_000, async () => {
      seen.push(clock.nowMs())
      real += 300 // the task takes 300 ms of real time
      await new Promise((r) => setTimeout(r, 1))
      seen.push(clock.nowMs())
      clock.schedule(clock.nowMs() + 60_000, () => seen.push(clock.nowMs()))
    })
    const result = await clock.advance(65_000)
    // The task ran at its time and mock time did not move during it; the task it scheduled ran at
    // exactly 60 s after the first one's start, inside the same advance.
    expect(seen).toEqual([1_005_000, 1_005_000, 1_065_000])
    // The offset moved by exactly the advance; real time passed meanwhile counts again afterwards.
    expect(result).toEqual({ now: new Date(1_065_300).toISOString().replace('Z', '000Z'), offset_ms: 65_000 })
    expect(clock.nowMs()).toBe(real + 65_000)
    clock.stop()
  })

  it('advance(ms) moves offset_ms by exactly ms and resolves { now, offset_ms } in ISO 8601 UTC', async () => {
    const clock = createClock()
    cleanups.push(() => clock.stop())
    const first = await clock.advance(1_234)
    expect(first.offset_ms).toBe(1_234)
    expect(first.now).toMatch(ISO_MICROS)
    const second = await clock.advance(60_000)
    expect(second.offset_ms).toBe(61_234)
    expect(Date.parse(second.now)).toBeGreaterThanOrEqual(Date.parse(first.now) + 60_000)
    expect(clock.state().offset_ms).toBe(61_234)
  })

  it('two advances started together run one after the other, each adding its own amount', async () => {
    const clock = createClock()
    cleanups.push(() => clock.stop())
    const [a, b] = await Promise.all([clock.advance(1_000), clock.advance(2_000)])
    expect([a.offset_ms, b.offset_ms]).toEqual([1_000, 3_000])
  })

  it('refuses a negative or non-finite advance and leaves the offset alone', async () => {
    const clock = createClock()
    cleanups.push(() => clock.stop())
    await expect(clock.advance(-1)).rejects.toThrow(RangeError)
    await expect(clock.advance(Number.NaN)).rejects.toThrow(RangeError)
    expect(clock.offsetMs).toBe(0)
  })
})

describe('retry schedule against a slow receiver', () => {
  it('ONE advance of 1 min + 10 min + 1 h runs all three retries of a receiver answering in 300 ms', async () => {
    const receiver = await slowReceiver(300)
    const mock = newMock(undefined, { insecureWebhooks: true })
    cleanups.push(() => mock.clock.stop())
    const created = await call(mock, 'POST', '/webhooks', {
      body: { url: receiver.url, events: ['ticket.created'] },
    })
    expect(created.status).toBe(201)
    await call(mock, 'POST', '/support/tickets', {
      body: { subject: 'Hi', message: 'Hello', department: 'sales' },
    })

    await mock.clock.advance(60_000 + 600_000 + 3_600_000)

    expect(receiver.hits).toHaveLength(4)
    const [delivery] = (await call(mock, 'GET', `/webhooks/${created.body.data.id}/deliveries`)).body.data
    expect(delivery).toMatchObject({ status: 'failed', http_status: 500, retries: 3 })
    expect(delivery.next_attempt_at).toBeNull()
  })

  it('records each attempt at exactly its due time: first + 1 min, + 11 min, + 71 min', async () => {
    const receiver = await slowReceiver(300)
    const mock = newMock(undefined, { insecureWebhooks: true })
    cleanups.push(() => mock.clock.stop())
    const created = await call(mock, 'POST', '/webhooks', {
      body: { url: receiver.url, events: ['ticket.created'] },
    })
    await call(mock, 'POST', '/support/tickets', {
      body: { subject: 'Hi', message: 'Hello', department: 'sales' },
    })
    const attemptTimes: number[] = []
    const deliveries = async () =>
      (await call(mock, 'GET', `/webhooks/${created.body.data.id}/deliveries`)).body.data[0]
    await mock.clock.advance(0)
    attemptTimes.push(Date.parse((await deliveries()).attempted_at))
    for (const step of [60_000, 600_000, 3_600_000]) {
      await mock.clock.advance(step)
      attemptTimes.push(Date.parse((await deliveries()).attempted_at))
    }
    const gaps = attemptTimes.slice(1).map((t, i) => t - attemptTimes[i]!)
    // Exact: a 300 ms receiver adds nothing (the advances themselves are exact too).
    expect(gaps).toEqual([60_000, 600_000, 3_600_000])
  })
})

describe('retry schedule outside an advance (real time running)', () => {
  it('counts the retry from the attempt start, not from the end of a slow answer', async () => {
    let real = Date.UTC(2026, 0, 1)
    const clock = createClock({ realNow: () => real })
    const mem = memoryDeliveryStore()
    mem.generalHooks.set('wh_1', {
      reseller_id: 1,
      events: ['ticket.created'],
      url: 'http://x.test/h',
      secret: 's',
    })
    // The receiver takes 300 ms of real time, then answers 500.
    const slowFetch = (async () => {
      real += 300
      return new Response(null, { status: 500 })
    }) as typeof fetch
    const dispatcher = createDispatcher({ clock, store: mem.store, insecureWebhooks: true, fetch: slowFetch })
    cleanups.push(
      () => dispatcher.stop(),
      () => clock.stop(),
    )
    const start = real
    const [record] = dispatcher.enqueue({
      id: 1,
      reseller_id: 1,
      style: 'general',
      event: 'ticket.created',
      payload: { event: 'ticket.created', created_at: '2026-01-01T00:00:00+00:00', data: {} },
    })
    await clock.runDue()
    const after = mem.deliveries.get(record!.delivery_id)!
    expect(Date.parse(after.attempted_at!)).toBe(start)
    expect(Date.parse(after.next_attempt_at!)).toBe(start + 60_000)
  })
})

describe('GET /__mock/clock and POST /__mock/clock/advance', () => {
  it('GET answers { now, offset_ms }; advance answers the same object, moved by exactly the seconds', async () => {
    const mock = newMock()
    cleanups.push(() => mock.clock.stop())
    const before = await call(mock, 'GET', '/__mock/clock', { key: null })
    expect(before.status).toBe(200)
    expect(before.body).toEqual({
      success: true,
      data: { now: expect.stringMatching(ISO_MICROS), offset_ms: 0 },
    })
    const moved = await call(mock, 'POST', '/__mock/clock/advance', { key: null, body: { seconds: 90 } })
    expect(moved.status).toBe(200)
    expect(Object.keys(moved.body.data).sort()).toEqual(['now', 'offset_ms'])
    expect(moved.body.data.offset_ms).toBe(90_000)
    expect(Date.parse(moved.body.data.now) - Date.parse(before.body.data.now)).toBeGreaterThanOrEqual(90_000)
    const after = await call(mock, 'GET', '/__mock/clock', { key: null })
    expect(after.body.data.offset_ms).toBe(90_000)
    // A key is not needed, and a key given is not checked.
    expect((await call(mock, 'GET', '/__mock/clock', { key: KEYS.a })).status).toBe(200)
  })
})
