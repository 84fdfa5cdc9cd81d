// An id the mock makes never repeats one its store already holds. A seed imported from another mock
// (`reseller-mock import`, `record`) holds that mock's ids, drawn from the same seeded streams and
// counters: a twin mock making the same calls draws exactly those ids next. Each test seeds a mock
// with the ids its twin made, makes the same calls, and expects new ids and no failure.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { assembleMock } from '../../src/mock-api.js'
import type { MockApi, SeedInput } from '../../src/node.js'
import { createMockApi } from '../../src/node.js'
import { createClock } from '../../src/state/clock.js'
import { createOutbox } from '../../src/state/events.js'
import { createStore } from '../../src/state/store.js'
import { call, testSeed } from '../helpers/mock.js'
import { startReceiver } from '../helpers/webhooks.js'

let receiver: Awaited<ReturnType<typeof startReceiver>>
beforeEach(async () => {
  receiver = await startReceiver()
})
afterEach(async () => {
  vi.restoreAllMocks()
  await receiver.close()
})

/** The test seed with a general webhook (to the local receiver) that hears `ticket.created`. */
function seedWithWebhook(): SeedInput {
  const seed = testSeed()
  seed.resellers[0]!.webhooks = [{ id: 'wh_1', url: receiver.url, events: ['ticket.created'] }]
  return seed
}

/** What one run makes: a ticket (uuid, id, first message id), its event's delivery and a test delivery. */
async function makeThings(mock: MockApi) {
  const created = await call(mock, 'POST', '/support/tickets', {
    body: { subject: 'New', message: 'Hello', department: 'billing' },
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  const uuid = created.body.data.ticket_id as string
  const tested = await call(mock, 'POST', '/webhooks/wh_1/test', { body: { event: 'test' } })
  expect(tested.status, JSON.stringify(tested.body)).toBe(200)
  const detail = await call(mock, 'GET', `/support/tickets/${uuid}`)
  const deliveries = await call(mock, 'GET', '/webhooks/wh_1/deliveries')
  return {
    uuid,
    id: detail.body.data.id as number,
    messageId: detail.body.data.messages[0].id as number,
    testDelivery: tested.body.data.delivery_id as string,
    deliveries: (deliveries.body.data as { delivery_id: string }[]).map((d) => d.delivery_id),
  }
}

/** `seed` with the ticket `twin` made (its uuid, id and first message id). */
function seedHoldingTicket(seed: SeedInput, twin: Awaited<ReturnType<typeof makeThings>>): SeedInput {
  const reseller = seed.resellers[0]!
  reseller.tickets = [
    ...(reseller.tickets ?? []),
    {
      id: twin.id,
      uuid: twin.uuid,
      subject: 'Made by the twin',
      department: 'billing',
      messages: [{ id: twin.messageId, message: 'Hello' }],
    },
  ]
  return seed
}

/** `seed` with the deliveries `twin` made, in its webhook's history. */
function seedHoldingDeliveries(seed: SeedInput, twin: Awaited<ReturnType<typeof makeThings>>): SeedInput {
  seed.resellers[0]!.webhooks![0]!.deliveries = twin.deliveries.map((delivery_id) => ({
    delivery_id,
    event: 'ticket.created',
    status: 'success' as const,
    http_status: 200,
    retries: 0,
    attempted_at: '2026-01-02T03:04:05.000000Z',
  }))
  return seed
}

/** A mock on `seed` that delivers to the local receiver. */
const mockOn = (seed: SeedInput) => createMockApi({ seed, insecureWebhooks: true })

describe('ids the mock makes skip the ids a seed holds', () => {
  it('a ticket: the twin’s uuid, id and message id are taken, so the mock makes others', async () => {
    const twin = await makeThings(mockOn(seedWithWebhook()))
    const mock = mockOn(seedHoldingTicket(seedWithWebhook(), twin))
    const made = await makeThings(mock)
    expect(made.uuid).not.toBe(twin.uuid)
    expect(made.id).not.toBe(twin.id)
    expect(made.messageId).not.toBe(twin.messageId)
    // The seeded ticket is still the twin's, untouched.
    const seeded = await call(mock, 'GET', `/support/tickets/${twin.uuid}`)
    expect(seeded.body.data).toMatchObject({ id: twin.id, subject: 'Made by the twin' })
  })

  it('deliveries: an event’s delivery and a test delivery get ids the history does not hold; no event listener fails', async () => {
    const twin = await makeThings(mockOn(seedWithWebhook()))
    expect(twin.deliveries).toHaveLength(2)
    const errors = vi.spyOn(console, 'error')
    const made = await makeThings(mockOn(seedHoldingDeliveries(seedWithWebhook(), twin)))
    expect(twin.deliveries).not.toContain(made.testDelivery)
    // The event's delivery was recorded too, beside the two seeded ones.
    expect(made.deliveries).toHaveLength(4)
    expect(new Set(made.deliveries).size).toBe(4)
    expect(errors).not.toHaveBeenCalled()
  })

  it('the same holds after reset(): the seed’s ids are still skipped', async () => {
    const twin = await makeThings(mockOn(seedWithWebhook()))
    const mock = mockOn(seedHoldingDeliveries(seedHoldingTicket(seedWithWebhook(), twin), twin))
    await makeThings(mock)
    mock.reset()
    const again = await makeThings(mock)
    expect(again.uuid).not.toBe(twin.uuid)
    expect(twin.deliveries).not.toContain(again.testDelivery)
  })

  it('a ticket uuid a seed gives is never drawn for a seeded ticket without one', () => {
    // The seed stream's first draw, as a twin without the explicit uuid resolves it.
    const plain = assembleMock({
      seed: { resellers: [{ id: 1, api_keys: [{ key: 'svc_live_collide' }], tickets: [ticket()] }] },
    })
    const drawn = plain.context.store.tickets.all().next().value!.uuid
    const { context } = assembleMock({
      seed: {
        resellers: [
          {
            id: 1,
            api_keys: [{ key: 'svc_live_collide' }],
            tickets: [{ ...ticket(), uuid: drawn }, ticket()],
          },
        ],
      },
    })
    const uuids = [...context.store.tickets.all()].map((t) => t.uuid)
    expect(uuids[0]).toBe(drawn)
    expect(uuids[1]).not.toBe(drawn)
  })

  it('events: an outbox whose store holds the next event id (a restored state) takes the one after', () => {
    const store = createStore(createClock())
    const outbox = createOutbox(store)
    const emit = () =>
      store.transact(() =>
        outbox.emit({
          resellerId: 1,
          style: 'general',
          event: 'ticket.created',
          sandbox: false,
          data: {
            ticket_id: '44444444-4444-4444-8444-444444444444',
            subject: 's',
            department: 'general',
            priority: 'normal',
            status: 'open',
          },
        }),
      )
    const first = emit()
    // The state as a file written by an older mock, or edited by hand, may hold rows past its counters.
    const snapshot = store.snapshot()
    snapshot.counters = {}
    store.restore(snapshot)
    expect(emit().id).not.toBe(first.id)
    expect(store.events.size).toBe(2)
  })
})

function ticket() {
  return { subject: 'Seeded', department: 'general' as const, messages: [{ message: 'm' }] }
}
