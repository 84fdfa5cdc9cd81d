/**
 * Pattern 2: `mock.fetch`. Each test makes its own mock and hands its `fetch` to the client: no
 * global patching, no shared state, so the tests may run concurrently. Control endpoints
 * (`{baseUrl}/__mock/…`) go through the same `mock.fetch`.
 */
import { createMockApi, type SeedInput } from '@reseller-api/mock'
import { NotFoundError, ResellerApi } from '@reseller-api/sdk'
import { describe, expect, test } from 'vitest'
import { onboardClient, unansweredWelcomeTickets } from '../src/onboarding.ts'
import { seed } from './seed.ts'

function setup(options: { seed?: SeedInput; apiKey?: string } = {}) {
  const mock = createMockApi({ seed: options.seed ?? seed })
  const api = new ResellerApi({
    apiKey: options.apiKey ?? 'svc_live_acme',
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
  })
  /** Support answers a ticket (control endpoint: no key needed). */
  const staffReply = async (uuid: string, message: string) => {
    const response = await mock.fetch(`${mock.baseUrl}/__mock/tickets/${uuid}/replies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    })
    expect(response.status).toBe(201)
  }
  return { mock, api, staffReply }
}

describe.concurrent('onboardClient', () => {
  test('provisions and opens the welcome ticket', async () => {
    const { api } = setup()
    const result = await onboardClient(api, 502, 'client-two.example')
    expect(result).toMatchObject({ ok: true, simulated: false, ticketId: expect.any(String) })
  })

  test('reports a domain another account uses', async () => {
    const { api } = setup()
    expect(await onboardClient(api, 502, 'TAKEN.example')).toMatchObject({
      ok: false,
      reason: 'domain_taken',
    })
  })

  test('reports a full plan (seeded full)', async () => {
    const full = structuredClone(seed)
    full.resellers[0]!.whm!.accounts_limit = 1
    const { api } = setup({ seed: full })
    expect(await onboardClient(api, 502, 'client-two.example')).toMatchObject({
      ok: false,
      reason: 'plan_full',
    })
  })

  test('reports an offline WHM (seeded offline)', async () => {
    const offline = structuredClone(seed)
    offline.resellers[0]!.whm!.status = 'offline'
    const { api } = setup({ seed: offline })
    expect(await onboardClient(api, 502, 'client-two.example')).toMatchObject({
      ok: false,
      reason: 'whm_unavailable',
    })
  })

  test('with a sandbox key: simulated, nothing created, no ticket', async () => {
    const { api } = setup({ apiKey: 'svc_test_acme' })
    const result = await onboardClient(api, 502, 'client-two.example')
    expect(result).toMatchObject({ ok: true, simulated: true, ticketId: null })
    expect(result.ok && result.username).toMatch(/^sb_/)
    expect(await api.whm.usage()).toMatchObject({ accounts_used: 1 })
  })

  test('lets unexpected errors through: a client of another reseller', async () => {
    const { api } = setup()
    await expect(onboardClient(api, 999, 'client-two.example')).rejects.toBeInstanceOf(NotFoundError)
  })
})

describe('unansweredWelcomeTickets', () => {
  test('lists welcome tickets until support answers them', async () => {
    const { api, staffReply } = setup()
    const first = await onboardClient(api, 502, 'two.example')
    const second = await onboardClient(api, 503, 'three.example')
    if (!first.ok || !second.ok) throw new Error('onboarding failed')
    expect((await unansweredWelcomeTickets(api)).map((t) => t.uuid).sort()).toEqual(
      [first.ticketId, second.ticketId].sort(),
    )

    // A staff reply moves an open ticket to in_progress.
    await staffReply(first.ticketId!, 'Certificate issued.')
    expect((await unansweredWelcomeTickets(api)).map((t) => t.uuid)).toEqual([second.ticketId])
  })
})
