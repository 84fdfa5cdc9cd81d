// The journal's `response` field and its redaction of secrets, through mock.fetch and the control endpoint.
import { describe, expect, test } from 'vitest'
import { JournalEntry } from '../../src/index.js'
import type { MockApi } from '../../src/node.js'
import { call, KEYS, newMock, ticketUuid } from '../helpers/mock.js'

const WEBHOOK = { url: 'https://hooks.example.com/general', events: ['ticket.created'] }

/** The journal as `GET /__mock/requests` answers it (what the inspector and curl see). */
async function served(mock: MockApi): Promise<JournalEntry[]> {
  const answer = await call(mock, 'GET', '/__mock/requests', { key: null })
  expect(answer.status).toBe(200)
  for (const entry of answer.body.data) expect(JournalEntry.safeParse(entry).success).toBe(true)
  return answer.body.data
}

describe('response', () => {
  test('holds the status, the lower-case headers and the parsed answer', async () => {
    const mock = newMock()
    const ok = await call(mock, 'GET', '/support/tickets?page=1')
    const refused = await call(mock, 'GET', '/support/tickets', { key: 'svc_live_unknown' })
    const missing = await call(mock, 'GET', '/no/such/route')
    const [a, b, c] = await served(mock)
    expect(a!.response).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json', 'x-request-id': ok.headers.get('x-request-id') },
      body: ok.body,
    })
    expect(b!.response).toMatchObject({ status: 401, body: refused.body })
    expect(b!.response!.body).toMatchObject({ success: false, error: { code: 'unauthenticated' } })
    expect(c!.response).toMatchObject({ status: 404, body: missing.body })
    for (const entry of [a, b, c]) {
      for (const name of Object.keys(entry!.response!.headers)) expect(name).toBe(name.toLowerCase())
    }
    expect(mock.requests.list()).toEqual([a, b, c])
  })

  test("a fault's answer is the one journaled, Retry-After included", async () => {
    const mock = newMock()
    mock.faults.add({ respond: { status: 429, retryAfter: 3 }, times: 1 })
    await call(mock, 'GET', '/services')
    const [entry] = mock.requests.list()
    expect(entry!.response).toMatchObject({
      status: 429,
      headers: { 'retry-after': '3' },
      body: { success: false, error: { code: 'rate_limited' } },
    })
  })

  test('dropped requests: status and response null, before or after the effect', async () => {
    const mock = newMock()
    mock.faults.add({ drop: 'before', times: 1 })
    mock.faults.add({ drop: 'after', times: 1 })
    for (let i = 0; i < 2; i++) {
      await expect(call(mock, 'GET', '/services')).rejects.toBeInstanceOf(TypeError)
    }
    const entries = await served(mock)
    expect(entries.map((e) => [e.status, e.response])).toEqual([
      [null, null],
      [null, null],
    ])
  })

  test('null while the request waits for its answer, filled once answered', async () => {
    const mock = newMock()
    mock.faults.add({ delayMs: 2_000, times: 1 })
    const pending = call(mock, 'GET', '/services')
    await expect.poll(() => mock.requests.list().length).toBe(1)
    expect(mock.requests.list()[0]).toMatchObject({ status: null, response: null })
    const answer = await pending
    expect(mock.requests.list()[0]!.response).toMatchObject({ status: 200, body: answer.body })
  })

  test('an answer over 64 KiB is listed as { truncated: true, bytes } with its size in UTF-8 bytes', async () => {
    const mock = newMock()
    const uuid = await ticketUuid(mock, 'First')
    // 14 replies of 5,000 two-byte characters: the ticket's answer is over 140,000 bytes.
    for (let i = 0; i < 14; i++) {
      const reply = await call(mock, 'POST', `/support/tickets/${uuid}/messages`, {
        body: { message: 'é'.repeat(5_000) },
      })
      expect(reply.status).toBe(201)
    }
    mock.requests.clear()
    const response = await mock.fetch(`${mock.baseUrl}/api/v1/support/tickets/${uuid}`, {
      headers: { authorization: `Bearer ${KEYS.a}` },
    })
    const text = await response.text()
    const bytes = new TextEncoder().encode(text).length
    // Counted in bytes, not characters.
    expect(bytes).toBeGreaterThan(140_000)
    expect(bytes).toBeGreaterThan(text.length + 60_000)
    const [entry] = await served(mock)
    expect(entry!.response).toMatchObject({ status: 200, body: { truncated: true, bytes } })
  })

  test('an answer of exactly 64 KiB or less is kept whole', async () => {
    const mock = newMock()
    const uuid = await ticketUuid(mock, 'First')
    for (let i = 0; i < 6; i++) {
      await call(mock, 'POST', `/support/tickets/${uuid}/messages`, { body: { message: 'x'.repeat(5_000) } })
    }
    mock.requests.clear()
    const answer = await call(mock, 'GET', `/support/tickets/${uuid}`)
    expect(JSON.stringify(answer.body).length).toBeGreaterThan(30_000)
    expect(mock.requests.list()[0]!.response!.body).toEqual(answer.body)
  })
})

describe('secrets are never journaled', () => {
  test("the reseller webhook's secret in the request body reads [redacted]", async () => {
    const mock = newMock()
    const secret = 'reseller-secret-value-123'
    const put = await call(mock, 'PUT', '/reseller/webhook', {
      body: { url: 'http://localhost:9000/hook', secret },
    })
    expect(put.status).toBe(200)
    const [entry] = await served(mock)
    expect(entry!.body).toEqual({ url: 'http://localhost:9000/hook', secret: '[redacted]' })
    expect(JSON.stringify(await served(mock))).not.toContain(secret)
    expect(JSON.stringify(mock.requests.list())).not.toContain(secret)
  })

  test("a general webhook's creation answer: its generated secret reads [redacted]", async () => {
    const mock = newMock()
    const created = await call(mock, 'POST', '/webhooks', { key: KEYS.aWebhooks, body: WEBHOOK })
    expect(created.status).toBe(201)
    const secret: string = created.body.data.secret
    expect(secret).toMatch(/^whsec_/)
    const [entry] = await served(mock)
    expect(entry!.response!.body).toEqual({
      ...created.body,
      data: { ...created.body.data, secret: '[redacted]' },
    })
    expect(JSON.stringify(await served(mock))).not.toContain(secret)
  })

  test('a secret field at any depth, in a refused body too', async () => {
    const mock = newMock()
    const body = { ...WEBHOOK, extra: [{ deep: { secret: 'nested-one' } }], secret: 'top-one' }
    const refused = await call(mock, 'POST', '/webhooks', { body })
    expect(refused.status).toBe(422)
    const [entry] = await served(mock)
    expect(entry!.body).toEqual({
      ...WEBHOOK,
      extra: [{ deep: { secret: '[redacted]' } }],
      secret: '[redacted]',
    })
    expect(JSON.stringify(entry)).not.toMatch(/nested-one|top-one/)
  })

  test('credential-named query parameters read [redacted]; the others stay as sent', async () => {
    const mock = newMock()
    await call(
      mock,
      'GET',
      '/support/tickets?page=1&api_key=k1&apiKey=k2&X-API-KEY=k3&token=k4&access_token=k5&secret=k6&client_secret=k7&password=k8&key=k9&q=a%20b',
    )
    const [entry] = await served(mock)
    expect(entry!.path).toBe(
      '/api/v1/support/tickets?page=1&api_key=[redacted]&apiKey=[redacted]&X-API-KEY=[redacted]&token=[redacted]&access_token=[redacted]&secret=[redacted]&client_secret=[redacted]&password=[redacted]&key=[redacted]&q=a%20b',
    )
    expect(entry!.path).not.toMatch(/k\d/)
    // The path filter still finds it: it compares the path without its query.
    expect(mock.requests.list({ path: '/api/v1/support/tickets' })).toHaveLength(1)
  })
})
