// What the mock says about its deliveries as they happen: the `X-Mock-Deliveries` header of the
// answer that caused them, the delivery stream of the served mock (`GET /__mock/deliveries/stream`),
// the request log's lines, and the reseller webhook's test delivery in the history.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi, type MockApi } from '../../src/node.js'
import type { RunningServer } from '../../src/server/http/listen.js'
import { call, newMock } from '../helpers/mock.js'
import { startReceiver } from '../helpers/webhooks.js'

let receiver: Awaited<ReturnType<typeof startReceiver>>
beforeAll(async () => {
  receiver = await startReceiver((_n, req) => (req.body.includes('"fail"') ? 500 : 200))
})
afterAll(() => receiver.close())

const ids = (answer: { headers: Headers }) =>
  (answer.headers.get('x-mock-deliveries') ?? '').split(', ').filter(Boolean)

describe('X-Mock-Deliveries: the deliveries a request caused', () => {
  let mock: MockApi
  beforeAll(() => {
    mock = newMock(undefined, { insecureWebhooks: true })
  })
  afterEach(() => mock.reset())

  it('names every delivery an API request queued, in an answer of mock.fetch', async () => {
    await call(mock, 'PUT', '/reseller/webhook', { body: { url: receiver.url, secret: 's' } })
    const none = await call(mock, 'GET', '/reseller/whm/usage')
    expect(none.headers.has('x-mock-deliveries')).toBe(false)
    const created = await call(mock, 'POST', '/reseller/clients/501/hosting', {
      body: { domain: 'header.example', whm_package: 'starter', register_domain: true },
    })
    expect(created.status).toBe(201)
    const caused = ids(created)
    expect(caused).toHaveLength(3)
    const list = await call(mock, 'GET', '/__mock/deliveries', { key: null })
    const byId = new Map(list.body.data.map((d: { delivery_id: string }) => [d.delivery_id, d]))
    expect(caused.map((id) => (byId.get(id) as { event: string }).event).sort()).toEqual([
      'domain.registered',
      'hosting.created',
      'wallet.debited',
    ])
  })

  it('names the deliveries of a control request too, and none when no webhook hears the event', async () => {
    const unheard = await call(mock, 'POST', '/__mock/events', {
      key: null,
      body: { reseller_id: 1, event: 'vps.activated' },
    })
    expect(unheard.status).toBe(201)
    expect(unheard.headers.has('x-mock-deliveries')).toBe(false)
    await call(mock, 'PUT', '/reseller/webhook', { body: { url: receiver.url, secret: 's' } })
    const heard = await call(mock, 'POST', '/__mock/events', {
      key: null,
      body: { reseller_id: 1, event: 'vps.activated' },
    })
    expect(ids(heard)).toHaveLength(1)
    // A refused request queues nothing.
    const refused = await call(mock, 'POST', '/reseller/clients/501/hosting', {
      body: { domain: 'existing.example', whm_package: 'starter' },
    })
    expect(refused.status).toBe(422)
    expect(refused.headers.has('x-mock-deliveries')).toBe(false)
  })
})

describe('the reseller webhook test', () => {
  it('is recorded in /__mock/deliveries, attempted once: a failure schedules no retry', async () => {
    const mock = newMock(undefined, { insecureWebhooks: true })
    const closed = await startReceiver()
    await closed.close()
    await call(mock, 'PUT', '/reseller/webhook', { body: { url: closed.url, secret: 's' } })
    const test = await call(mock, 'POST', '/reseller/webhook/test')
    expect(test.body.data).toMatchObject({ url: closed.url, delivered: false, status_code: null })
    const [delivery] = ids(test)
    const list = await call(mock, 'GET', '/__mock/deliveries', { key: null })
    const record = list.body.data.find((d: { delivery_id: string }) => d.delivery_id === delivery)
    expect(record).toMatchObject({
      webhook_id: 'reseller',
      event: 'hosting.created',
      event_id: null,
      status: 'failed',
      attempts: 1,
      next_attempt_at: null,
      url: closed.url,
    })
    expect(JSON.parse(record.payload)).toMatchObject({ event: 'hosting.created', sandbox: true })
    expect(test.body.data.error).toBe(record.error)
  })
})

describe('the refusal of a local general webhook', () => {
  it('names the flag that allows it, where the flag would', async () => {
    const mock = newMock()
    const local = await call(mock, 'POST', '/webhooks', {
      body: { url: 'http://127.0.0.1:3000/hook', events: ['ticket.created'] },
    })
    expect(local.status).toBe(422)
    expect(local.body.error.fields.url[0]).toMatch(/^must be an https:\/\/ URL.*--insecure-webhooks/)
    const never = await call(mock, 'POST', '/webhooks', {
      body: { url: 'ftp://hooks.example.com/', events: ['ticket.created'] },
    })
    expect(never.status).toBe(422)
    expect(never.body.error.message).not.toContain('--insecure-webhooks')
  })
})

/** Server-sent events from the delivery stream, as they come. */
async function openDeliveryStream(url: string, query = '') {
  const controller = new AbortController()
  const response = await fetch(`${url}/__mock/deliveries/stream${query}`, { signal: controller.signal })
  const events: Array<{ name: string; data: Record<string, unknown> }> = []
  const waiters = new Set<() => void>()
  void (async () => {
    let buffer = ''
    try {
      for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
        buffer += chunk
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const name = /^event: (.+)$/m.exec(block)?.[1]
          const data = /^data: (.+)$/m.exec(block)?.[1]
          if (name && data) events.push({ name, data: JSON.parse(data) })
          for (const wake of waiters) wake()
        }
      }
    } catch {
      // aborted
    }
  })()
  return {
    response,
    events,
    /** Resolves once `count` events arrived. */
    waitFor: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (events.length < count) return
          waiters.delete(check)
          resolve()
        }
        waiters.add(check)
        check()
      }),
    close: () => controller.abort(),
  }
}

describe('GET /__mock/deliveries/stream (served mocks)', () => {
  let mock: MockApi
  let server: RunningServer
  const lines: string[] = []
  beforeAll(async () => {
    mock = createMockApi({ insecureWebhooks: true })
    server = await mock.listen({ port: 0, log: (line) => lines.push(line) })
  })
  afterAll(() => server.close())
  afterEach(() => mock.reset())

  it('tells of each delivery queued, then of each attempt, with its outcome and its retry', async () => {
    const stream = await openDeliveryStream(server.url)
    expect(stream.response.status).toBe(200)
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    await call(mock, 'PUT', '/reseller/webhook', {
      key: 'svc_live_acme_full',
      body: { url: receiver.url, secret: 's' },
    })
    await call(mock, 'POST', '/__mock/events', {
      key: null,
      body: { reseller_id: 1, event: 'wallet.credited', data: { amount: 1, balance: 2, reason: 'fail' } },
    })
    await mock.clock.advance(0)
    await stream.waitFor(2)
    const [queued, attempt] = stream.events
    expect(queued).toEqual({
      name: 'queued',
      data: {
        delivery_id: expect.stringMatching(/^dlv_[0-9a-f]{32}$/),
        redelivery_of: null,
        event: 'wallet.credited',
        webhook_id: 'reseller',
        reseller_id: 1,
        url: receiver.url,
        created_at: expect.any(String),
      },
    })
    expect(attempt!.name).toBe('attempt')
    expect(attempt!.data).toMatchObject({
      delivery_id: queued!.data.delivery_id,
      attempt: 1,
      status: 'failed',
      http_status: 500,
      error: 'receiver answered HTTP 500',
      url: receiver.url,
    })
    const { attempted_at, next_attempt_at } = attempt!.data as Record<string, string>
    expect(Date.parse(next_attempt_at!) - Date.parse(attempted_at!)).toBe(60_000)
    // The request log has the attempt's line.
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^webhook wallet\\.credited ${queued!.data.delivery_id} attempt 1: POST \\S+ 500 \\d+ms, retry due ${next_attempt_at}$`,
        ),
      ),
    )
    stream.close()
  })

  it('keeps only the deliveries to ?url= when given', async () => {
    const other = await startReceiver()
    const mine = await openDeliveryStream(server.url, `?url=${encodeURIComponent(other.url)}`)
    const all = await openDeliveryStream(server.url)
    await call(mock, 'PUT', '/reseller/webhook', {
      key: 'svc_live_acme_full',
      body: { url: receiver.url, secret: 's' },
    })
    await call(mock, 'POST', '/__mock/events', {
      key: null,
      body: { reseller_id: 1, event: 'vps.activated' },
    })
    await all.waitFor(2)
    await call(mock, 'PUT', '/reseller/webhook', {
      key: 'svc_live_acme_full',
      body: { url: other.url, secret: 's' },
    })
    await call(mock, 'POST', '/__mock/events', {
      key: null,
      body: { reseller_id: 1, event: 'email.activated' },
    })
    await mock.clock.advance(0)
    await all.waitFor(4)
    await mine.waitFor(2)
    expect(mine.events.map((e) => [e.name, e.data.event])).toEqual([
      ['queued', 'email.activated'],
      ['attempt', 'email.activated'],
    ])
    mine.close()
    all.close()
    await other.close()
  })

  it('is ended by close(), which does not wait for it', async () => {
    const own = await createMockApi().listen({ port: 0 })
    const stream = await openDeliveryStream(own.url)
    const started = performance.now()
    await own.close()
    expect(performance.now() - started).toBeLessThan(1000)
    stream.close()
  })

  it('is not served in-process: mock.fetch answers 404', async () => {
    const answer = await call(mock, 'GET', '/__mock/deliveries/stream', { key: null })
    expect(answer.status).toBe(404)
  })
})

describe('X-Mock-Deliveries across origins', () => {
  it('is readable by the pages of an allowed origin', async () => {
    const mock = createMockApi()
    const server = await mock.listen({ port: 0, allowedOrigins: ['http://localhost:5173'] })
    const answer = await fetch(`${server.url}/__mock/clock`, { headers: { origin: 'http://localhost:5173' } })
    expect(answer.headers.get('access-control-expose-headers')).toContain('x-mock-deliveries')
    await server.close()
  })
})
