/**
 * The other way to use the mock: `setupServer(...mock.handlers)` from `msw/node` intercepts the
 * global fetch, and the SDK is built with no `fetch` option at all.
 */
import { createMockApi } from '@reseller-api/mock'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  AuthenticationError,
  NotFoundError,
  QuotaExceededError,
  ResellerApi,
  SandboxReadOnlyError,
  WhmUnavailableError,
} from '../../src/index.js'
import { SIGNATURE_HEADER, verifySignature } from '../../src/webhooks/index.js'
import { expectApiError, integrationSeed, KEYS, startReceiver } from './helpers.js'

const mock = createMockApi({ seed: integrationSeed() })
const server = setupServer(...mock.handlers)

/** No custom fetch: requests go through the global fetch that MSW intercepts. */
const client = (apiKey: string = KEYS.live) =>
  new ResellerApi({ apiKey, baseUrl: mock.baseUrl, maxRetries: 0, strictResponses: true })

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => {
  server.resetHandlers()
  mock.reset()
})
afterAll(() => server.close())

describe('setupServer(...mock.handlers) with the global fetch', () => {
  it('lists, creates and reads tickets', async () => {
    const api = client()
    const before = await api.tickets.list()
    expect(before.meta.total).toBe(2)
    const { data: created, response } = await api.tickets
      .create({ subject: 'Through MSW', message: 'hello', department: 'technical' })
      .withResponse()
    expect(response.status).toBe(201)
    const detail = await api.tickets.get(created.ticket_id)
    expect(detail).toMatchObject({ subject: 'Through MSW', status: 'open' })
    expect(detail.messages.map((m) => m.message)).toEqual(['hello'])
    const after = await api.tickets.list()
    expect(after.data[0]?.uuid).toBe(created.ticket_id)
  })

  it('reset() returns to the seed between tests', async () => {
    expect((await client().tickets.list()).meta.total).toBe(2)
  })

  it('provisions until the quota, with usage following', async () => {
    const api = client()
    const created = await api.hosting.create(501, { domain: 'msw.example', whm_package: 'starter' })
    expect(created).toMatchObject({ sandbox: false, domain: 'msw.example' })
    expect((await api.whm.usage()).accounts_used).toBe(2)
    await api.hosting.create(502, { domain: 'msw2.example', whm_package: 'pro' })
    await expectApiError(
      api.hosting.create(501, { domain: 'msw3.example', whm_package: 'starter' }),
      QuotaExceededError,
      422,
      'quota_exceeded',
    )
  })

  it('errors arrive as their classes', async () => {
    await expectApiError(client(KEYS.unknown).tickets.list(), AuthenticationError, 401, 'unauthenticated')
    await expectApiError(
      client(KEYS.sandbox).tickets.create({ subject: 's', message: 'm', department: 'sales' }),
      SandboxReadOnlyError,
      403,
      'sandbox_read_only',
    )
    await expectApiError(client().whm.accounts.get('nobody'), NotFoundError, 404, 'not_found')
    await expectApiError(client(KEYS.offline).whm.usage(), WhmUnavailableError, 503, 'whm_unavailable')
  })

  // The test endpoint delivers while MSW is answering the request, over a fresh connection to the
  // receiver: MSW must let the delivery through (it is no API call), even with `onUnhandledFrame: 'error'`.
  it('webhook deliveries reach a real receiver past the interception', async () => {
    const receiver = await startReceiver(200)
    try {
      const api = client()
      await api.resellerWebhook.update({ url: receiver.url, secret: 'msw-secret' })
      expect(await api.resellerWebhook.test()).toEqual({
        url: receiver.url,
        status_code: 200,
        delivered: true,
        error: null,
      })
      const [delivery] = receiver.received
      if (!delivery) throw new Error('nothing received')
      expect(
        await verifySignature(delivery.body, delivery.headers[SIGNATURE_HEADER] as string, 'msw-secret'),
      ).toBe(true)
    } finally {
      await receiver.close()
    }
  })
})
