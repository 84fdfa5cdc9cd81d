import { afterEach, describe, expect, it } from 'vitest'
import { createClock } from '../../src/state/clock.js'
import { createDispatcher, RESELLER_WEBHOOK_ID } from '../../src/webhooks/dispatcher.js'
import { memoryDeliveryStore, startReceiver } from '../helpers/webhooks.js'

const MINUTE = 60_000
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function setup(answer: Parameters<typeof startReceiver>[0], options: { timeoutMs?: number } = {}) {
  const receiver = await startReceiver(answer)
  const clock = createClock()
  const mem = memoryDeliveryStore()
  mem.generalHooks.set('wh_1', {
    reseller_id: 1,
    events: ['ticket.created'],
    url: receiver.url,
    secret: 's3cret',
  })
  const changes: string[] = []
  const dispatcher = createDispatcher({
    clock,
    store: mem.store,
    insecureWebhooks: true,
    onChange: () => changes.push('change'),
    ...options,
  })
  cleanups.push(
    () => receiver.close(),
    () => dispatcher.stop(),
    () => clock.stop(),
  )
  const emit = () =>
    dispatcher.enqueue({
      id: 1,
      reseller_id: 1,
      style: 'general',
      event: 'ticket.created',
      payload: { event: 'ticket.created', created_at: '2026-01-01T00:00:00+00:00', data: { n: 1 } },
    })
  return { receiver, clock, mem, dispatcher, emit, changes }
}

describe('retry schedule: 1 min, 10 min, 1 h after the failed attempts, at most 4 attempts', () => {
  it('a failing receiver sees exactly 4 attempts, none early', async () => {
    const { receiver, clock, mem, emit, changes } = await setup(() => 500)
    const [record] = emit()
    expect(record?.status).toBe('pending')
    expect(receiver.received).toHaveLength(0)

    await clock.advance(0)
    expect(receiver.received).toHaveLength(1)
    const first = mem.deliveries.get(record!.delivery_id)!
    expect(first).toMatchObject({ status: 'failed', http_status: 500, retries: 0, attempts: 1 })
    expect(first.error).toMatch(/500/)
    expect(Date.parse(first.next_attempt_at!) - Date.parse(first.attempted_at!)).toBeGreaterThanOrEqual(
      MINUTE,
    )

    await clock.advance(59_000)
    expect(receiver.received).toHaveLength(1)
    await clock.advance(1_000)
    expect(receiver.received).toHaveLength(2)
    expect(mem.deliveries.get(record!.delivery_id)).toMatchObject({ retries: 1, status: 'failed' })

    await clock.advance(9 * MINUTE)
    expect(receiver.received).toHaveLength(2)
    await clock.advance(MINUTE)
    expect(receiver.received).toHaveLength(3)

    await clock.advance(59 * MINUTE)
    expect(receiver.received).toHaveLength(3)
    await clock.advance(MINUTE)
    expect(receiver.received).toHaveLength(4)

    await clock.advance(24 * 60 * MINUTE)
    expect(receiver.received).toHaveLength(4)
    expect(mem.deliveries.get(record!.delivery_id)).toMatchObject({
      status: 'failed',
      http_status: 500,
      retries: 3,
      attempts: 4,
      next_attempt_at: null,
    })
    // One state change per attempt, for the state file's write-through.
    expect(changes).toHaveLength(4)
    // Every attempt is the same delivery: same id, same bytes, same signature.
    const ids = new Set(receiver.received.map((r) => r.headers['x-service-delivery']))
    const bodies = new Set(receiver.received.map((r) => r.body))
    const signatures = new Set(receiver.received.map((r) => r.headers['x-service-signature']))
    expect([ids.size, bodies.size, signatures.size]).toEqual([1, 1, 1])
  })

  it.each([400, 401, 404, 410])(
    'a receiver answering %i has not taken the delivery: it is retried',
    async (status) => {
      const { receiver, clock, mem, emit } = await setup((n) => (n === 1 ? status : 200))
      const [record] = emit()
      await clock.advance(0)
      expect(mem.deliveries.get(record!.delivery_id)).toMatchObject({ status: 'failed', http_status: status })
      await clock.advance(MINUTE)
      expect(receiver.received).toHaveLength(2)
      expect(mem.deliveries.get(record!.delivery_id)).toMatchObject({
        status: 'success',
        http_status: 200,
        retries: 1,
      })
    },
  )

  it('a recovering receiver ends success with the retries counted', async () => {
    const { receiver, clock, mem, emit } = await setup((n) => (n <= 2 ? 503 : 204))
    const [record] = emit()
    await clock.advance(0)
    await clock.advance(MINUTE)
    await clock.advance(10 * MINUTE)
    expect(receiver.received).toHaveLength(3)
    const done = mem.deliveries.get(record!.delivery_id)!
    expect(done).toMatchObject({ status: 'success', http_status: 204, retries: 2, next_attempt_at: null })
    expect(done.error).toBeUndefined()
    expect(done.duration_ms).toBeGreaterThanOrEqual(0)
    await clock.advance(2 * 60 * MINUTE)
    expect(receiver.received).toHaveLength(3)
  })

  it('one long advance steps through every due retry, like a fake timer', async () => {
    const { receiver, clock, mem, emit } = await setup(() => 500)
    const [record] = emit()
    await clock.advance(2 * 60 * MINUTE)
    expect(receiver.received).toHaveLength(4)
    expect(mem.deliveries.get(record!.delivery_id)).toMatchObject({ retries: 3, next_attempt_at: null })
  })

  it('advance(ms) moves the offset by exactly ms, even when tasks ran on the way', async () => {
    const { clock, emit } = await setup(() => 500)
    emit()
    const before = clock.offsetMs
    await clock.advance(2 * 60 * MINUTE)
    expect(clock.offsetMs - before).toBe(2 * 60 * MINUTE)
    await expect(clock.advance(-1)).rejects.toThrow(RangeError)
    await expect(clock.advance(Number.NaN)).rejects.toThrow(RangeError)
  })

  it('the first attempt runs on its own in real time, outside the request that caused it', async () => {
    const { receiver, mem, emit } = await setup(() => 200)
    const [record] = emit()
    expect(receiver.received).toHaveLength(0)
    await expect
      .poll(() => mem.deliveries.get(record!.delivery_id))
      .toMatchObject({ status: 'success', retries: 0 })
  })

  it('a receiver that does not answer in time fails that attempt (5 s in production, shortened here)', async () => {
    const { clock, mem, emit } = await setup(() => 'hang', { timeoutMs: 200 })
    const [record] = emit()
    const started = performance.now()
    await clock.advance(0)
    expect(performance.now() - started).toBeGreaterThanOrEqual(150)
    expect(mem.deliveries.get(record!.delivery_id)).toMatchObject({
      status: 'failed',
      http_status: null,
      error: 'no answer within 0.2 s',
      retries: 0,
    })
    expect(mem.deliveries.get(record!.delivery_id)?.next_attempt_at).not.toBeNull()
  })

  it('reseller-style deliveries follow the same schedule', async () => {
    const { receiver, clock, mem, dispatcher } = await setup(() => 500)
    mem.resellerHooks.set(1, { url: receiver.url, secret: 'r' })
    const [record] = dispatcher.enqueue({
      id: 2,
      reseller_id: 1,
      style: 'reseller',
      event: 'hosting.created',
      payload: { event: 'hosting.created', sandbox: false, timestamp: '2026-01-01T00:00:00Z', data: {} },
    })
    expect(record?.webhook_id).toBe(RESELLER_WEBHOOK_ID)
    await clock.advance(2 * 60 * MINUTE)
    expect(receiver.received).toHaveLength(4)
  })

  it('resume() re-schedules pending attempts from the records (restore, restart)', async () => {
    const { receiver, clock, mem, emit, dispatcher } = await setup(() => 500)
    const [record] = emit()
    await clock.advance(0)
    expect(receiver.received).toHaveLength(1)
    // A new process: the same records, a new clock at the saved offset, a new dispatcher.
    dispatcher.stop()
    clock.stop()
    const clock2 = createClock({ offsetMs: clock.offsetMs })
    const dispatcher2 = createDispatcher({ clock: clock2, store: mem.store, insecureWebhooks: true })
    cleanups.push(
      () => dispatcher2.stop(),
      () => clock2.stop(),
    )
    dispatcher2.resume()
    await clock2.advance(59_000)
    expect(receiver.received).toHaveLength(1)
    await clock2.advance(1_000)
    expect(receiver.received).toHaveLength(2)
    expect(mem.deliveries.get(record!.delivery_id)).toMatchObject({ retries: 1 })
  })

  it('stop() drops what an attempt in flight would have written', async () => {
    const { receiver, clock, mem, emit, dispatcher } = await setup(() => 'hang', { timeoutMs: 300 })
    const [record] = emit()
    const advancing = clock.advance(0)
    await expect.poll(() => receiver.received).toHaveLength(1)
    dispatcher.stop()
    await advancing
    expect(mem.deliveries.get(record!.delivery_id)).toMatchObject({ status: 'pending', attempts: 0 })
  })
})
