// Retention: the events outbox, the delivery history and the number of general
// webhooks are bounded by the documented limits; pages stay consistent after pruning.
import { describe, expect, it } from 'vitest'
import { assembleMock } from '../../src/mock-api.js'
import { RETENTION_LIMITS } from '../../src/state/retention.js'
import { call, expectError, KEYS, newMock, state, testSeed } from '../helpers/mock.js'

const { eventsPerReseller, deliveriesPerWebhook, webhooksPerReseller } = RETENTION_LIMITS

/** A mock whose deliveries are answered by `answer` (no network). */
function mockWithReceiver(answer: (n: number) => number) {
  const { mock, context } = assembleMock({ seed: testSeed(), insecureWebhooks: true })
  let n = 0
  context.dispatcher.configure({
    fetch: async () => new Response(null, { status: answer(++n) }),
  })
  return mock
}

async function allDeliveries(mock: ReturnType<typeof newMock>, id: string) {
  const pages = []
  for (let p = 1; ; p++) {
    const answer = await call(mock, 'GET', `/webhooks/${id}/deliveries?page=${p}`)
    expect(answer.status).toBe(200)
    pages.push(answer.body)
    if (answer.body.data.length === 0 || p * answer.body.meta.per_page >= answer.body.meta.total) break
  }
  return { total: pages[0].meta.total as number, rows: pages.flatMap((page) => page.data) }
}

describe('events outbox', () => {
  it(`keeps the newest ${eventsPerReseller} events per reseller; other resellers keep theirs`, async () => {
    const mock = newMock()
    for (let i = 0; i < 3; i++) await mock.emit({ reseller_id: 2, event: 'payment.failed' })
    const ids: number[] = []
    for (let i = 0; i < eventsPerReseller + 25; i++) {
      ids.push((await mock.emit({ reseller_id: 1, event: 'payment.failed' })) as never)
    }
    const events = (await state(mock)).tables.events!
    const ofAcme = events.filter((e) => e.reseller_id === 1)
    expect(ofAcme).toHaveLength(eventsPerReseller)
    expect(events.filter((e) => e.reseller_id === 2)).toHaveLength(3)
    // The oldest went: what is left is a contiguous run ending with the newest.
    const kept = ofAcme.map((e) => e.id as number)
    expect(kept[kept.length - 1]! - kept[0]!).toBe(eventsPerReseller - 1 + 0)
    expect(Math.max(...events.map((e) => e.id as number))).toBe(kept[kept.length - 1])
  })
})

describe('delivery history', () => {
  it(`keeps the newest ${deliveriesPerWebhook} deliveries per webhook; pages count what is kept`, async () => {
    const mock = mockWithReceiver(() => 200)
    const hook = await call(mock, 'POST', '/webhooks', {
      body: { url: 'http://receiver.test/hook', events: ['payment.failed'] },
    })
    const other = await call(mock, 'POST', '/webhooks', {
      body: { url: 'http://receiver.test/other', events: ['payment.completed'] },
    })
    await mock.emit({ reseller_id: 1, event: 'payment.completed' })
    for (let i = 0; i < deliveriesPerWebhook + 40; i++) {
      await mock.emit({ reseller_id: 1, event: 'payment.failed' })
      if (i % 50 === 0) await mock.clock.advance(0)
    }
    await mock.clock.advance(0)
    const { total, rows } = await allDeliveries(mock, hook.body.data.id)
    expect(total).toBe(deliveriesPerWebhook)
    expect(rows).toHaveLength(deliveriesPerWebhook)
    expect(new Set(rows.map((r) => r.delivery_id)).size).toBe(deliveriesPerWebhook)
    expect(rows.every((r) => r.status === 'success')).toBe(true)
    // The other webhook's history is its own.
    expect((await allDeliveries(mock, other.body.data.id)).total).toBe(1)
  })

  it('never drops a delivery with a retry still to come; it goes once it is finished', async () => {
    const failing = 10
    const mock = mockWithReceiver((n) => (n <= failing ? 503 : 200))
    const hook = await call(mock, 'POST', '/webhooks', {
      body: { url: 'http://receiver.test/hook', events: ['payment.failed'] },
    })
    const id = hook.body.data.id
    for (let i = 0; i < failing; i++) await mock.emit({ reseller_id: 1, event: 'payment.failed' })
    await mock.clock.advance(0)
    for (let i = 0; i < deliveriesPerWebhook + 20; i++)
      await mock.emit({ reseller_id: 1, event: 'payment.failed' })
    await mock.clock.advance(0)

    const before = await allDeliveries(mock, id)
    expect(before.total).toBe(deliveriesPerWebhook)
    const waiting = before.rows.filter((r) => r.next_attempt_at !== null)
    // The oldest deliveries of all, kept while 520 newer ones came: newest first, on the last page.
    expect(waiting).toHaveLength(failing)
    expect(before.rows.slice(-failing)).toEqual(waiting)

    await mock.clock.advance(60_000)
    const retried = await allDeliveries(mock, id)
    expect(retried.rows.slice(-failing).every((r) => r.status === 'success' && r.retries === 1)).toBe(true)
    // Finished now, they are the first to go when newer deliveries come.
    for (let i = 0; i < failing; i++) await mock.emit({ reseller_id: 1, event: 'payment.failed' })
    await mock.clock.advance(0)
    const after = await allDeliveries(mock, id)
    expect(after.total).toBe(deliveriesPerWebhook)
    expect(after.rows.every((r) => r.next_attempt_at === null && r.status === 'success')).toBe(true)
    expect(after.rows.slice(failing).map((r) => r.delivery_id)).toEqual(
      before.rows.slice(0, deliveriesPerWebhook - failing).map((r) => r.delivery_id),
    )
  })

  it('bounds each reseller’s reseller-webhook history separately', async () => {
    const mock = mockWithReceiver(() => 200)
    for (const key of [KEYS.a, KEYS.b]) {
      await call(mock, 'PUT', '/reseller/webhook', {
        key,
        body: { url: 'http://receiver.test/r', secret: 's' },
      })
    }
    await mock.emit({ reseller_id: 2, event: 'wallet.credited' })
    for (let i = 0; i < deliveriesPerWebhook + 5; i++)
      await mock.emit({ reseller_id: 1, event: 'wallet.credited' })
    await mock.clock.advance(0)
    const deliveries = (await state(mock)).tables.deliveries!
    expect(deliveries.filter((d) => d.reseller_id === 1)).toHaveLength(deliveriesPerWebhook)
    expect(deliveries.filter((d) => d.reseller_id === 2)).toHaveLength(1)
  })
})

describe('general webhooks per reseller', () => {
  it(`a reseller may have ${webhooksPerReseller}; one more is a 422 quota_exceeded that stores nothing`, async () => {
    const mock = newMock(undefined, { insecureWebhooks: true })
    const create = (key: string = KEYS.a) =>
      call(mock, 'POST', '/webhooks', {
        key,
        body: { url: 'http://receiver.test/h', events: ['ticket.created'] },
      })
    for (let i = 0; i < webhooksPerReseller; i++) expect((await create()).status).toBe(201)
    const before = await state(mock)
    const refused = await create()
    expectError(refused, 422, 'quota_exceeded')
    expect(refused.body.error.message).toBe(
      `a reseller may have at most ${webhooksPerReseller} general webhooks, and this one has ${webhooksPerReseller}`,
    )
    expect(await state(mock)).toEqual(before)
    // Another reseller is not affected.
    expect((await create(KEYS.b)).status).toBe(201)
  })
})
