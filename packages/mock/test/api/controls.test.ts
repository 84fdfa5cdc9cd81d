// The typed in-process controls: mock.state(), mock.tickets.*, mock.emit, and
// POST /__mock/events, which emits any event of the API through the real delivery path.
import {
  GENERAL_EVENTS,
  GeneralEvent,
  RESELLER_EVENTS,
  ResellerEvent,
  type WebhookEvent,
} from '@reseller-api/sdk/schemas'
import { constructEvent } from '@reseller-api/sdk/webhooks'
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest'
import { isMockApiError, type MockApi, MockApiError } from '../../src/index.js'
import { call, expectError, newMock, state, testSeed, ticketUuid } from '../helpers/mock.js'
import { startReceiver } from '../helpers/webhooks.js'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

function fresh(): MockApi {
  const mock = newMock(testSeed(), { insecureWebhooks: true })
  cleanups.push(() => mock.clock.stop())
  return mock
}

async function rejection(promise: Promise<unknown>): Promise<MockApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (e: unknown) => e,
  )
  expect(isMockApiError(error)).toBe(true)
  return error as MockApiError
}

describe('mock.state()', () => {
  it('returns exactly the data of GET /__mock/state', async () => {
    const mock = fresh()
    await call(mock, 'POST', '/support/tickets', {
      body: { subject: 's', message: 'm', department: 'sales' },
    })
    expect(mock.state()).toEqual(await state(mock))
    const snapshot = mock.state()
    expect(snapshot.tables.tickets.some((t) => t.subject === 's')).toBe(true)
    // A copy: changing it changes nothing in the mock.
    snapshot.tables.tickets.length = 0
    expect(mock.state().tables.tickets.length).toBeGreaterThan(0)
  })
})

describe('mock.tickets', () => {
  it('staffReply moves an open ticket to in_progress and emits ticket.replied, like the endpoint', async () => {
    const mock = fresh()
    const uuid = await ticketUuid(mock, 'First')
    const reply = await mock.tickets.staffReply(uuid, { message: 'On it.' })
    expect(reply).toMatchObject({ message: 'On it.', from: 'staff', internal: false })
    const detail = await call(mock, 'GET', `/support/tickets/${uuid}`)
    expect(detail.body.data.status).toBe('in_progress')
    const events = mock.state().tables.events
    expect(events.at(-1)).toMatchObject({ event: 'ticket.replied', style: 'general' })
  })

  it('an internal note changes nothing the API shows and emits nothing', async () => {
    const mock = fresh()
    const uuid = await ticketUuid(mock, 'Resolved one')
    const before = mock.state().tables.events.length
    expect(await mock.tickets.staffReply(uuid, { message: 'note', internal: true })).toMatchObject({
      internal: true,
    })
    expect(mock.state().tables.events.length).toBe(before)
    expect((await call(mock, 'GET', `/support/tickets/${uuid}`)).body.data.status).toBe('resolved')
  })

  it('setStatus sets any status and resolves the ticket', async () => {
    const mock = fresh()
    const uuid = await ticketUuid(mock, 'Closed one')
    expect(await mock.tickets.setStatus(uuid, 'resolved')).toMatchObject({ uuid, status: 'resolved' })
  })

  it('rejects as the endpoint answers: 404 unknown ticket, 422 closed ticket, 422 bad status', async () => {
    const mock = fresh()
    const unknown = await rejection(
      mock.tickets.staffReply('00000000-0000-4000-8000-000000000000', { message: 'x' }),
    )
    expect(unknown).toBeInstanceOf(MockApiError)
    expect({ status: unknown.status, code: unknown.code }).toEqual({ status: 404, code: 'not_found' })
    const closed = await rejection(
      mock.tickets.staffReply(await ticketUuid(mock, 'Closed one'), { message: 'x' }),
    )
    expect({ status: closed.status, code: closed.code }).toEqual({ status: 422, code: 'invalid_state' })
    const uuid = await ticketUuid(mock, 'First')
    const bad = await rejection(mock.tickets.setStatus(uuid, 'archived' as never))
    expect(bad.fields).toHaveProperty('status')
    const empty = await rejection(mock.tickets.staffReply(uuid, { message: '' }))
    expect(empty.fields).toHaveProperty('message')
  })
})

/** A mock whose reseller 1 has a reseller webhook and a general webhook subscribed to every general event. */
async function withReceivers() {
  const mock = fresh()
  const reseller = await startReceiver()
  const general = await startReceiver()
  cleanups.push(reseller.close, general.close)
  expect(
    (await call(mock, 'PUT', '/reseller/webhook', { body: { url: reseller.url, secret: 'reseller-secret' } }))
      .status,
  ).toBe(200)
  const created = await call(mock, 'POST', '/webhooks', {
    body: { url: general.url, events: [...GENERAL_EVENTS] },
  })
  expect(created.status).toBe(201)
  return { mock, reseller, general, generalSecret: created.body.data.secret as string }
}

describe('mock.emit and POST /__mock/events', () => {
  it('every reseller-style event arrives signed at the reseller webhook, only there', async () => {
    const { mock, reseller, general } = await withReceivers()
    for (const event of RESELLER_EVENTS) {
      const style = event === 'domain.registered' ? ({ style: 'reseller' } as const) : {}
      const emitted = await mock.emit({ reseller_id: 1, event, ...style } as never)
      expect(ResellerEvent.parse(emitted)).toMatchObject({ event, sandbox: false })
    }
    await mock.clock.advance(0)
    expect(general.received).toHaveLength(0)
    // Due together, the attempts run concurrently: compare as sets.
    expect(reseller.received.map((r) => r.headers['x-service-event']).sort()).toEqual(
      [...RESELLER_EVENTS].sort(),
    )
    for (const r of reseller.received) {
      const event = await constructEvent(
        r.body,
        r.headers['x-service-signature'] as string,
        'reseller-secret',
      )
      expect(ResellerEvent.safeParse(event).success).toBe(true)
    }
  })

  it('every general-style event arrives signed at the subscribed general webhook, only there', async () => {
    const { mock, reseller, general, generalSecret } = await withReceivers()
    for (const event of GENERAL_EVENTS) {
      const answer = await call(mock, 'POST', '/__mock/events', {
        key: null,
        body: { reseller_id: 1, event, style: 'general' },
      })
      expect(answer.status).toBe(201)
      expect(GeneralEvent.parse(answer.body.data).event).toBe(event)
    }
    await mock.clock.advance(0)
    expect(reseller.received).toHaveLength(0)
    expect(general.received.map((r) => r.headers['x-service-event']).sort()).toEqual(
      [...GENERAL_EVENTS].sort(),
    )
    for (const r of general.received) {
      await expect(
        constructEvent(r.body, r.headers['x-service-signature'] as string, generalSecret),
      ).resolves.toBeTruthy()
    }
  })

  it('a general event goes only to webhooks subscribed to it, and only to that reseller’s', async () => {
    const mock = fresh()
    const subscribed = await startReceiver()
    const other = await startReceiver()
    cleanups.push(subscribed.close, other.close)
    await call(mock, 'POST', '/webhooks', { body: { url: subscribed.url, events: ['payment.failed'] } })
    await call(mock, 'POST', '/webhooks', { body: { url: other.url, events: ['payment.completed'] } })
    await mock.emit({ reseller_id: 1, event: 'payment.failed' })
    await mock.emit({ reseller_id: 2, event: 'payment.failed' })
    await mock.clock.advance(0)
    expect(subscribed.received).toHaveLength(1)
    expect(other.received).toHaveLength(0)
  })

  it('sends the data given and the sandbox form when asked', async () => {
    const { mock, reseller } = await withReceivers()
    const data = { client_id: 501, order_uuid: 'ord-1', server_id: 7, ipv4: '198.51.100.4', status: 'active' }
    const emitted = await mock.emit({ reseller_id: 1, event: 'vps.activated', data, sandbox: true })
    expect(emitted).toMatchObject({ event: 'vps.activated', sandbox: true, data })
    await mock.clock.advance(0)
    expect(JSON.parse(reseller.received[0]!.body)).toEqual(emitted)
  })

  it('domain.registered needs a style; each style reaches its own webhook', async () => {
    const { mock, reseller, general } = await withReceivers()
    const missing = await rejection(mock.emit({ reseller_id: 1, event: 'domain.registered' } as never))
    expect(missing.fields).toEqual({ style: [expect.stringMatching(/is required.*both styles/)] })
    await mock.emit({ reseller_id: 1, event: 'domain.registered', style: 'general' })
    await mock.emit({ reseller_id: 1, event: 'domain.registered', style: 'reseller' })
    await mock.clock.advance(0)
    expect(JSON.parse(general.received[0]!.body)).toHaveProperty('created_at')
    expect(JSON.parse(reseller.received[0]!.body)).toHaveProperty('timestamp')
  })

  it('refuses a bad input with every field named (422 over HTTP, MockApiError in-process), emitting nothing', async () => {
    const mock = fresh()
    const before = mock.state().tables.events.length
    const http = await call(mock, 'POST', '/__mock/events', {
      key: null,
      body: { reseller_id: 99, event: 'vps.activated', data: { client_id: 'x', ipv4: 4 } },
    })
    expectError(http, 422, 'validation_error')
    expect(Object.keys(http.body.error.fields).sort()).toEqual(
      [
        'data.client_id',
        'data.ipv4',
        'data.order_uuid',
        'data.server_id',
        'data.status',
        'reseller_id',
      ].sort(),
    )
    // A field left out is missing, not of the wrong type; one of the wrong type says which type.
    expect(http.body.error.fields['data.order_uuid']).toEqual(['is required'])
    expect(http.body.error.fields['data.ipv4']).not.toEqual(['is required'])
    const inProcess = await rejection(
      mock.emit({ reseller_id: 1, event: 'ticket.created', data: { subject: 1 } } as never),
    )
    expect(inProcess).toMatchObject({ status: 422, code: 'validation_error' })
    expect(inProcess.fields).toHaveProperty(['data.subject'])
    expect(inProcess.message).toMatch(/data\.ticket_id/)
    const cases: Array<[unknown, string]> = [
      [{ reseller_id: 1, event: 'nope' }, 'event'],
      [{ reseller_id: 1, event: 'test' }, 'event'],
      [{ reseller_id: 1, event: 'ticket.created', style: 'reseller' }, 'style'],
      [{ reseller_id: 1, event: 'payment.failed', sandbox: true }, 'sandbox'],
      [{ reseller_id: 1, event: 'payment.failed', extra: 1 }, 'extra'],
      [{ event: 'payment.failed' }, 'reseller_id'],
    ]
    for (const [body, field] of cases) {
      const answer = await call(mock, 'POST', '/__mock/events', { key: null, body })
      expectError(answer, 422, 'validation_error')
      expect(answer.body.error.fields).toHaveProperty([field])
    }
    expect(mock.state().tables.events.length).toBe(before)
  })

  it('is typed by event name', () => {
    const mock = fresh()
    expectTypeOf(mock.emit({ reseller_id: 1, event: 'vps.activated' })).resolves.toEqualTypeOf<
      Extract<WebhookEvent, { event: 'vps.activated' }>
    >()
    expectTypeOf(
      mock.emit({ reseller_id: 1, event: 'domain.registered', style: 'general' }),
    ).resolves.toEqualTypeOf<Extract<GeneralEvent, { event: 'domain.registered' }>>()
    const typeOnly = (f: () => unknown) => f
    typeOnly(() => {
      // @ts-expect-error: domain.registered belongs to both styles: style is required
      void mock.emit({ reseller_id: 1, event: 'domain.registered' })
      // @ts-expect-error: ipv4 must be a string
      void mock.emit({
        reseller_id: 1,
        event: 'vps.activated',
        data: { client_id: 1, order_uuid: 'o', server_id: 1, ipv4: 4, status: 's' },
      })
      // @ts-expect-error: general events have no sandbox form
      void mock.emit({ reseller_id: 1, event: 'payment.failed', sandbox: true })
      // @ts-expect-error: not an event
      void mock.emit({ reseller_id: 1, event: 'nope' })
    })
  })
})
