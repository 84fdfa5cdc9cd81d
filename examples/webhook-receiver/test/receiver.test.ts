/**
 * The mock delivers to the real receivers over HTTP: the SDK talks to the mock in-process
 * (`mock.fetch`), the mock's dispatcher POSTs signed events to the receiver on 127.0.0.1, and
 * `await mock.clock.advance(ms)` lets the test decide when deliveries (and their retries) happen.
 */
import { createMockApi, type MockApi, type SeedInput } from '@reseller-api/mock'
import { ResellerApi } from '@reseller-api/sdk'
import { SIGNATURE_HEADER, signPayload, type WebhookEvent } from '@reseller-api/sdk/webhooks'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { type Framework, type RunningReceiver, startReceiver } from '../src/start-receiver.ts'

/** A small seed: one reseller, no webhook configured yet (the receiver registers itself). */
const seed: SeedInput = {
  resellers: [
    {
      id: 1,
      wallet_balance: 50,
      whm: { status: 'online', accounts_limit: 3, disk_limit_mb: 10240, bandwidth_limit_mb: 102400 },
      packages: [
        { name: 'starter', quota: 1024, bandwidth: 10240, maxsql: 1, maxpop: 5, maxftp: 1, maxsub: 1 },
      ],
      clients: [{ id: 501, name: 'Client One', email: 'one@example.com' }],
      api_keys: [{ key: 'svc_live_shop' }],
    },
  ],
}

describe.each<Framework>(['express', 'hono'])('%s receiver', (framework) => {
  let mock: MockApi
  let api: ResellerApi
  let receiver: RunningReceiver
  let events: WebhookEvent[]
  let refused: unknown[]
  /** Set to make the receiver's onEvent throw (the receiver then answers 500). */
  let failNext = false

  beforeEach(async () => {
    // `insecureWebhooks`: general webhooks may target http://127.0.0.1 (refused otherwise, as the spec says).
    mock = createMockApi({ seed, insecureWebhooks: true })
    api = new ResellerApi({ apiKey: 'svc_live_shop', baseUrl: mock.baseUrl, fetch: mock.fetch })
    events = []
    refused = []
    failNext = false
    receiver = await startReceiver({
      framework,
      api,
      events: ['ticket.created', 'ticket.replied'],
      onEvent: (event) => {
        if (failNext) {
          failNext = false
          throw new Error('database is down')
        }
        events.push(event)
      },
      onError: (error) => refused.push(error),
    })
  })

  afterEach(() => receiver.close())

  test('receives verified, typed events for a new ticket and a provisioning', async () => {
    await api.tickets.create({ subject: 'Hello', message: 'First message', department: 'sales' })
    await api.hosting.create(501, { domain: 'shop.example', whm_package: 'starter', register_domain: true })
    // Deliveries are queued, never sent inside the request: run the ones due now.
    await mock.clock.advance(0)

    expect(events.map((e) => e.event).sort()).toEqual([
      'domain.registered',
      'hosting.created',
      'ticket.created',
      'wallet.debited',
    ])
    for (const event of events) {
      // The union narrows on `event`: `data` is typed for each name.
      if (event.event === 'ticket.created') {
        expect(event.data).toMatchObject({ subject: 'Hello', department: 'sales', status: 'open' })
        expect(event.created_at).toMatch(/\+00:00$/) // general style
      } else if (event.event === 'hosting.created') {
        expect(event.data).toMatchObject({ client_id: 501, domain: 'shop.example', whm_package: 'starter' })
        expect(event.sandbox).toBe(false) // reseller style
      } else if (event.event === 'wallet.debited') {
        expect(event.data).toMatchObject({ amount: 12.5, balance: 37.5 })
      }
    }

    const deliveries = await api.webhooks.deliveries(receiver.generalWebhookId)
    expect(deliveries.data).toEqual([
      expect.objectContaining({ event: 'ticket.created', status: 'success', http_status: 200, retries: 0 }),
    ])
  })

  test('receives ticket.replied when support answers (control endpoint)', async () => {
    const ticket = await api.tickets.create({
      subject: 'Slow site',
      message: 'Help',
      department: 'technical',
    })
    await mock.fetch(`${mock.baseUrl}/__mock/tickets/${ticket.ticket_id}/replies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Looking into it.' }),
    })
    await mock.clock.advance(0)

    const replied = events.find((e) => e.event === 'ticket.replied')
    expect(replied?.event === 'ticket.replied' && replied.data).toMatchObject({
      ticket_id: ticket.ticket_id,
      message: 'Looking into it.',
    })
  })

  test('the reseller webhook test endpoint reaches it', async () => {
    const result = await api.resellerWebhook.test()
    expect(result).toMatchObject({ status_code: 200, delivered: true, error: null })
    expect(events).toEqual([expect.objectContaining({ event: 'hosting.created', sandbox: true })])
  })

  test('a failed delivery is retried one minute later (mock time)', async () => {
    failNext = true
    await api.tickets.create({ subject: 'Retry me', message: 'Hi', department: 'general' })
    await mock.clock.advance(0)
    expect(events).toEqual([])
    const [failed] = (await api.webhooks.deliveries(receiver.generalWebhookId)).data
    expect(failed).toMatchObject({ status: 'failed', http_status: 500, retries: 0 })
    expect(failed?.next_attempt_at).not.toBeNull()

    // No need to wait a real minute.
    await mock.clock.advance(60_000)
    expect(events.map((e) => e.event)).toEqual(['ticket.created'])
    const [retried] = (await api.webhooks.deliveries(receiver.generalWebhookId)).data
    expect(retried).toMatchObject({ status: 'success', http_status: 200, retries: 1, next_attempt_at: null })
  })

  test('a forged signature gets 401 and never reaches onEvent', async () => {
    const body = JSON.stringify({
      event: 'ticket.created',
      created_at: '2026-01-01T00:00:00+00:00',
      data: {
        ticket_id: crypto.randomUUID(),
        subject: 'Forged',
        department: 'sales',
        priority: 'normal',
        status: 'open',
      },
    })
    for (const path of ['/webhooks/general', '/webhooks/reseller']) {
      const wrongSecret = await fetch(`${receiver.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: await signPayload(body, 'not-the-secret'),
        },
        body,
      })
      expect(wrongSecret.status).toBe(401)
      const unsigned = await fetch(`${receiver.url}${path}`, { method: 'POST', body })
      expect(unsigned.status).toBe(401)
    }
    expect(events).toEqual([])
    expect(refused).toHaveLength(4)
  })
})
