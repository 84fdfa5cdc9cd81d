/**
 * Pattern 1: MSW. `setupServer(...mock.handlers)` answers the global `fetch`, so the code under test
 * builds its client as it does in production (no `fetch` option). One mock for the file, back to
 * its seed before each test; `server.use()` overrides one route for one test.
 */
import { createMockApi } from '@reseller-api/mock'
import { ResellerApi } from '@reseller-api/sdk'
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest'
import { onboardClient } from '../src/onboarding.ts'
import { seed } from './seed.ts'

const mock = createMockApi({ seed })
const server = setupServer(...mock.handlers)
const api = new ResellerApi({ apiKey: 'svc_live_acme', baseUrl: mock.baseUrl })

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
beforeEach(() => mock.reset())
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

test('provisions the account and opens the welcome ticket', async () => {
  const result = await onboardClient(api, 502, 'client-two.example')
  expect(result).toMatchObject({ ok: true, simulated: false, cpanelUrl: 'https://client-two.example:2083' })
  if (!result.ok || result.ticketId === null) throw new Error('expected a live onboarding')

  // Check the effects through the API, as the application would see them.
  const account = await api.whm.accounts.get(result.username)
  expect(account).toMatchObject({ client_id: 502, domain: 'client-two.example', status: 'active' })
  const ticket = await api.tickets.get(result.ticketId)
  expect(ticket).toMatchObject({ status: 'open', department: 'technical' })
  expect(ticket.messages[0]?.message).toBe('Please issue an SSL certificate for client-two.example.')
})

test('reports a full plan, and opens no ticket', async () => {
  expect(await onboardClient(api, 502, 'two.example')).toMatchObject({ ok: true })
  expect(await onboardClient(api, 503, 'three.example')).toMatchObject({ ok: true })
  // 3 of 3 accounts used now.
  expect(await onboardClient(api, 503, 'four.example')).toMatchObject({ ok: false, reason: 'plan_full' })
  expect((await api.tickets.list()).meta.total).toBe(2)
})

test('starts from the seed again (mock.reset() in beforeEach)', async () => {
  expect(await api.whm.usage()).toMatchObject({ accounts_used: 1, accounts_limit: 3 })
})

test('an outage for one test: server.use() answers the route with a 503', async () => {
  let attempts = 0
  server.use(
    http.post(`${mock.baseUrl}/api/v1/reseller/clients/:clientId/hosting`, () => {
      attempts++
      return HttpResponse.json(
        { success: false, error: { code: 'whm_unavailable', message: 'WHM is offline' } },
        { status: 503 },
      )
    }),
  )
  expect(await onboardClient(api, 502, 'client-two.example')).toMatchObject({
    ok: false,
    reason: 'whm_unavailable',
  })
  // The SDK never retries a POST on its own: one attempt, and nothing was created.
  expect(attempts).toBe(1)
  expect(await api.whm.usage()).toMatchObject({ accounts_used: 1 })
})
