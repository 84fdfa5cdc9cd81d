import { GeneralEvent } from '@reseller-api/sdk/schemas'
import { constructEvent, verifySignature } from '@reseller-api/sdk/webhooks'
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { afterEach, describe, expect, it } from 'vitest'
import { createMockApi, type MockApi, type SeedInput } from '../../src/index.js'
import { startReceiver, startVerifyingReceiver } from '../helpers/webhooks.js'

const KEY = 'svc_live_hooks'
const SANDBOX = 'svc_test_hooks'
const OTHER = 'svc_live_other'
const seed: SeedInput = {
  resellers: [
    {
      id: 1,
      name: 'Hooks Inc',
      api_keys: [
        { key: KEY, scopes: ['reseller:webhooks', 'support:read', 'support:write', 'reseller:hosting'] },
        { key: SANDBOX, scopes: ['reseller:webhooks', 'support:read', 'support:write'] },
      ],
    },
    { id: 2, name: 'Other', api_keys: [{ key: OTHER, scopes: ['reseller:webhooks'] }] },
  ],
}

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

function newMock(options: { insecureWebhooks?: boolean } = { insecureWebhooks: true }) {
  const mock = createMockApi({ seed, ...options })
  cleanups.push(() => mock.clock.advance(0))
  const call = async (method: string, path: string, body?: unknown, key: string | null = KEY) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (key) headers.authorization = `Bearer ${key}`
    const res = await mock.fetch(`${mock.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: await res.json() }
  }
  return { mock, call }
}

async function createWebhook(
  call: ReturnType<typeof newMock>['call'],
  url: string,
  events = ['ticket.created'],
) {
  const created = await call('POST', '/api/v1/webhooks', { url, events })
  expect(created.status).toBe(201)
  return created.body.data as { id: string; secret: string }
}

const ticket = { subject: 'Help', message: 'Please', department: 'technical' }

async function settle(mock: MockApi) {
  await mock.clock.advance(0)
}

describe('events reach their webhooks', () => {
  it('a created ticket is delivered, signed, to every subscribed general webhook', async () => {
    const { mock, call } = newMock()
    const node = await startReceiver()
    cleanups.push(() => node.close())
    const hookA = await createWebhook(call, node.url)
    const hookB = await createWebhook(call, 'http://127.0.0.1:9/unused', ['ticket.replied'])

    const created = await call('POST', '/api/v1/support/tickets', ticket)
    expect(created.status).toBe(201)
    // Queued, not sent inside the request.
    expect(node.received).toHaveLength(0)
    await settle(mock)
    expect(node.received).toHaveLength(1)
    const got = node.received[0]!
    expect(await verifySignature(got.body, got.headers['x-service-signature'] as string, hookA.secret)).toBe(
      true,
    )
    const event = await constructEvent(got.body, got.headers['x-service-signature'] as string, hookA.secret)
    expect(event).toMatchObject({ event: 'ticket.created', data: { ticket_id: created.body.data.ticket_id } })

    const list = await call('GET', `/api/v1/webhooks/${hookA.id}/deliveries`)
    expect(list.status).toBe(200)
    expect(list.body.meta).toEqual({ total: 1, per_page: 20, current_page: 1 })
    expect(list.body.data[0]).toMatchObject({
      event: 'ticket.created',
      status: 'success',
      http_status: 200,
      retries: 0,
      next_attempt_at: null,
    })
    expect(list.body.data[0].delivery_id).toBe(got.headers['x-service-delivery'])
    expect(list.body.data[0]).not.toHaveProperty('payload')
    expect(list.body.data[0]).not.toHaveProperty('error')
    // The webhook subscribed to ticket.replied only got nothing.
    expect((await call('GET', `/api/v1/webhooks/${hookB.id}/deliveries`)).body.meta.total).toBe(0)
  })

  it('a receiver with its own HMAC check (node:crypto, no SDK) verifies deliveries made through the API', async () => {
    const { mock, call } = newMock()
    const verifier = await startVerifyingReceiver()
    cleanups.push(() => verifier.close())
    const hook = await createWebhook(call, verifier.url, ['ticket.created', 'ticket.replied'])
    verifier.setSecret(hook.secret)
    const created = await call('POST', '/api/v1/support/tickets', ticket)
    await call('POST', `/__mock/tickets/${created.body.data.ticket_id}/replies`, { message: 'On it' }, null)
    await call('POST', `/api/v1/webhooks/${hook.id}/test`, { event: 'test' })
    await settle(mock)
    await verifier.waitFor(3)
    expect(verifier.seen.map((s) => s.valid)).toEqual([true, true, true])
    expect(verifier.seen.map((s) => JSON.parse(s.body).event).sort()).toEqual([
      'test',
      'ticket.created',
      'ticket.replied',
    ])
    const list = await call('GET', `/api/v1/webhooks/${hook.id}/deliveries`)
    expect(list.body.data.map((d: { status: string }) => d.status)).toEqual(['success', 'success', 'success'])
  })

  it('reseller-style events go to the URL set with PUT /reseller/webhook', async () => {
    const { mock, call } = newMock()
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    expect((await call('PUT', '/api/v1/reseller/webhook', { url: receiver.url, secret: 'rs' })).status).toBe(
      200,
    )
    const test = await call('POST', '/api/v1/reseller/webhook/test')
    expect(test).toEqual({
      status: 200,
      body: { success: true, data: { url: receiver.url, status_code: 200, delivered: true, error: null } },
    })
    expect(receiver.received).toHaveLength(1)
    const got = receiver.received[0]!
    expect(await verifySignature(got.body, got.headers['x-service-signature'] as string, 'rs')).toBe(true)
    const event = await constructEvent(got.body, got.headers['x-service-signature'] as string, 'rs')
    expect(event).toMatchObject({ event: 'hosting.created', sandbox: true })
    await settle(mock)
  })
})

describe('POST /reseller/webhook/test', () => {
  it('answers 404 when no reseller webhook is configured', async () => {
    const { call } = newMock()
    const res = await call('POST', '/api/v1/reseller/webhook/test')
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('not_found')
  })

  it('reports a failing receiver: status_code, delivered false, error', async () => {
    const { call } = newMock()
    const receiver = await startReceiver(() => 503)
    cleanups.push(() => receiver.close())
    await call('PUT', '/api/v1/reseller/webhook', { url: receiver.url, secret: 'rs' })
    const res = await call('POST', '/api/v1/reseller/webhook/test')
    expect(res.body.data).toEqual({
      url: receiver.url,
      status_code: 503,
      delivered: false,
      error: 'receiver answered HTTP 503',
    })
  })

  it('reports no HTTP answer as status_code null', async () => {
    const { call } = newMock()
    await call('PUT', '/api/v1/reseller/webhook', { url: 'http://127.0.0.1:9/none', secret: 'rs' })
    const res = await call('POST', '/api/v1/reseller/webhook/test')
    expect(res.body.data).toMatchObject({ status_code: null, delivered: false })
    expect(res.body.data.error).toMatch(/^connection failed/)
  })

  it('needs the reseller:webhooks scope and a key', async () => {
    const { call } = newMock()
    expect((await call('POST', '/api/v1/reseller/webhook/test', undefined, null)).status).toBe(401)
  })
})

describe('POST /webhooks/{id}/test', () => {
  it('delivers a test event at once and answers the delivery record; default event "test"', async () => {
    const { call } = newMock()
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const hook = await createWebhook(call, receiver.url)
    const res = await call('POST', `/api/v1/webhooks/${hook.id}/test`)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      event: 'test',
      status: 'success',
      http_status: 200,
      retries: 0,
      next_attempt_at: null,
    })
    expect(res.body.data.duration_ms).toBeGreaterThanOrEqual(0)
    expect(receiver.received).toHaveLength(1)
    const event = await constructEvent(
      receiver.received[0]!.body,
      receiver.received[0]!.headers['x-service-signature'] as string,
      hook.secret,
    )
    expect(event.event).toBe('test')
  })

  it('sends any general event name with data of that event’s shape', async () => {
    const { call } = newMock()
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const hook = await createWebhook(call, receiver.url)
    for (const name of ['ticket.created', 'ticket.replied', 'payment.completed']) {
      const res = await call('POST', `/api/v1/webhooks/${hook.id}/test`, { event: name })
      expect(res.body.data.status).toBe('success')
    }
    expect(receiver.received).toHaveLength(3)
    const events = []
    for (const r of receiver.received) {
      events.push(await constructEvent(r.body, r.headers['x-service-signature'] as string, hook.secret))
    }
    expect(events.map((e) => e.event)).toEqual(['ticket.created', 'ticket.replied', 'payment.completed'])
    // The SDK's own schema of each general event accepts what was sent (its `data` included).
    for (const event of events) expect(GeneralEvent.safeParse(event).success).toBe(true)
  })

  it('a failing test enters the history and the retry schedule', async () => {
    const { mock, call } = newMock()
    const receiver = await startReceiver((n) => (n === 1 ? 500 : 200))
    cleanups.push(() => receiver.close())
    const hook = await createWebhook(call, receiver.url)
    const res = await call('POST', `/api/v1/webhooks/${hook.id}/test`, { event: 'test' })
    expect(res.body.data).toMatchObject({ status: 'failed', http_status: 500, retries: 0 })
    expect(res.body.data.error).toBe('receiver answered HTTP 500')
    expect(res.body.data.next_attempt_at).not.toBeNull()
    const advanced = await call('POST', '/__mock/clock/advance', { seconds: 60 }, null)
    expect(advanced.status).toBe(200)
    expect(advanced.body.data.offset_ms).toBeGreaterThanOrEqual(60_000)
    const list = await call('GET', `/api/v1/webhooks/${hook.id}/deliveries`)
    expect(list.body.data[0]).toMatchObject({ status: 'success', retries: 1, http_status: 200 })
    expect(list.body.data[0]).not.toHaveProperty('error')
    await settle(mock)
  })

  it('validates: unknown event 422, unknown webhook 404, another reseller’s webhook 404, sandbox 403', async () => {
    const { call } = newMock()
    const hook = await createWebhook(call, 'http://127.0.0.1:9/x')
    const bad = await call('POST', `/api/v1/webhooks/${hook.id}/test`, { event: 'nope' })
    expect(bad.status).toBe(422)
    expect(bad.body.error.fields.event).toBeDefined()
    expect((await call('POST', '/api/v1/webhooks/wh_999/test', {})).status).toBe(404)
    expect((await call('POST', `/api/v1/webhooks/${hook.id}/test`, {}, OTHER)).status).toBe(404)
    expect((await call('GET', `/api/v1/webhooks/${hook.id}/deliveries`, undefined, OTHER)).status).toBe(404)
    const sandbox = await call('POST', `/api/v1/webhooks/${hook.id}/test`, {}, SANDBOX)
    expect(sandbox.status).toBe(403)
    expect(sandbox.body.error.code).toBe('sandbox_read_only')
  })
})

describe('GET /webhooks/{id}/deliveries', () => {
  it('pages newest first, 20 a page, with meta', async () => {
    const { mock, call } = newMock()
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const hook = await createWebhook(call, receiver.url)
    for (let i = 0; i < 23; i++)
      await call('POST', '/api/v1/support/tickets', { ...ticket, subject: `T${i}` })
    await settle(mock)
    const first = await call('GET', `/api/v1/webhooks/${hook.id}/deliveries`)
    expect(first.body.meta).toEqual({ total: 23, per_page: 20, current_page: 1 })
    expect(first.body.data).toHaveLength(20)
    const second = await call('GET', `/api/v1/webhooks/${hook.id}/deliveries?page=2`)
    expect(second.body.data).toHaveLength(3)
    const subjects = [...first.body.data, ...second.body.data].map(
      (d: { delivery_id: string }) =>
        JSON.parse(receiver.received.find((r) => r.headers['x-service-delivery'] === d.delivery_id)!.body)
          .data.subject,
    )
    expect(subjects[0]).toBe('T22')
    expect(subjects.at(-1)).toBe('T0')
    expect((await call('GET', `/api/v1/webhooks/${hook.id}/deliveries?page=0`)).status).toBe(422)
  })
})

describe('POST /__mock/clock/advance', () => {
  it.each([
    [{ seconds: -1 }],
    [{ seconds: 'soon' }],
    [{}],
    [{ seconds: 1, extra: true }],
    [{ seconds: 1e12 }],
  ])('refuses %j with 422', async (body) => {
    const { call } = newMock()
    const res = await call('POST', '/__mock/clock/advance', body, null)
    expect(res.status).toBe(422)
    expect(res.body.error.code).toBe('validation_error')
  })

  it('a failing receiver sees exactly 4 attempts as the clock moves 1 min, 10 min, 1 h; none at 59 s', async () => {
    const { mock, call } = newMock()
    const receiver = await startReceiver(() => 500)
    cleanups.push(() => receiver.close())
    const hook = await createWebhook(call, receiver.url)
    await call('POST', '/api/v1/support/tickets', ticket)
    await settle(mock)
    expect(receiver.received).toHaveLength(1)
    const advance = (seconds: number) => call('POST', '/__mock/clock/advance', { seconds }, null)
    await advance(59)
    expect(receiver.received).toHaveLength(1)
    await advance(1)
    expect(receiver.received).toHaveLength(2)
    await advance(600)
    expect(receiver.received).toHaveLength(3)
    await advance(3600)
    expect(receiver.received).toHaveLength(4)
    await advance(86_400)
    expect(receiver.received).toHaveLength(4)
    const [delivery] = (await call('GET', `/api/v1/webhooks/${hook.id}/deliveries`)).body.data
    expect(delivery).toMatchObject({ status: 'failed', retries: 3, http_status: 500, next_attempt_at: null })
  })

  it('mock.clock.advance runs due retries before it resolves', async () => {
    const { mock, call } = newMock()
    const receiver = await startReceiver((n) => (n < 3 ? 500 : 200))
    cleanups.push(() => receiver.close())
    const hook = await createWebhook(call, receiver.url)
    await call('POST', '/api/v1/support/tickets', ticket)
    await mock.clock.advance(0)
    await mock.clock.advance(60_000)
    await mock.clock.advance(600_000)
    expect(receiver.received).toHaveLength(3)
    const [delivery] = (await call('GET', `/api/v1/webhooks/${hook.id}/deliveries`)).body.data
    expect(delivery).toMatchObject({ status: 'success', retries: 2 })
  })

  it('reset() drops pending retries', async () => {
    const { mock, call } = newMock()
    const receiver = await startReceiver(() => 500)
    cleanups.push(() => receiver.close())
    await createWebhook(call, receiver.url)
    await call('POST', '/api/v1/support/tickets', ticket)
    await settle(mock)
    expect(receiver.received).toHaveLength(1)
    mock.reset()
    await mock.clock.advance(2 * 3600_000)
    expect(receiver.received).toHaveLength(1)
  })
})

describe('with setupServer(...mock.handlers) in the same process', () => {
  it('the mock’s own deliveries reach the receiver, not MSW', async () => {
    const mock = createMockApi({ seed, insecureWebhooks: true })
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const swallowed: string[] = []
    const msw = setupServer(
      ...mock.handlers,
      http.all('*', ({ request }) => {
        swallowed.push(request.url)
        return HttpResponse.text('swallowed by MSW')
      }),
    )
    msw.listen({ onUnhandledFrame: 'error' })
    cleanups.push(() => msw.close())
    const post = (path: string, body: unknown) =>
      fetch(`${mock.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const hook = await (
      await post('/api/v1/webhooks', { url: receiver.url, events: ['ticket.created'] })
    ).json()
    expect((await post('/api/v1/support/tickets', ticket)).status).toBe(201)
    await mock.clock.advance(0)
    const test = await (await post(`/api/v1/webhooks/${hook.data.id}/test`, {})).json()
    expect(test.data.status).toBe('success')
    expect(swallowed).toEqual([])
    expect(receiver.received.map((r) => JSON.parse(r.body).event)).toEqual(['ticket.created', 'test'])
    // Every in-process delivery carries MSW's bypass mark; MSW strips it where it intercepts.
    for (const r of receiver.received) expect(r.headers.accept).toMatch(/^\*\/\*(, msw\/passthrough)?$/)
  })
})

describe('target safety through the API', () => {
  it('without insecureWebhooks an http:// or loopback webhook is refused at creation', async () => {
    const { call } = newMock({ insecureWebhooks: false })
    for (const url of ['http://example.com/hook', 'https://127.0.0.1/hook', 'https://192.168.1.2/hook']) {
      const res = await call('POST', '/api/v1/webhooks', { url, events: ['ticket.created'] })
      expect(res.status).toBe(422)
      expect(res.body.error.fields.url).toBeDefined()
    }
  })
})
