/**
 * Pattern 3: the vitest fixture `@reseller-api/mock/vitest`. `createMockTest({ seed })` gives each
 * test a fresh `mock` and an `api` wired to `mock.fetch` (the seed's first key unless `apiKey` says
 * otherwise): the whole setup of pattern 2 in one line. `test.override({ mockOptions })` changes the
 * seed or key for one `describe`. Every call of `mock` is awaited, so the same tests also run
 * against a standalone server, each test in a namespace of its own, when `RESELLER_MOCK_URL` names
 * it (docs/parallel-tests.md).
 */
import { createMockTest, describe, expect } from '@reseller-api/mock/vitest'
import { onboardClient, unansweredWelcomeTickets } from '../src/onboarding.ts'
import { seed } from './seed.ts'

const test = createMockTest({ seed })

describe('onboardClient, with the fixture', () => {
  test('provisions and opens the welcome ticket', async ({ api, mock }) => {
    const result = await onboardClient(api, 502, 'client-two.example')
    expect(result).toMatchObject({ ok: true, simulated: false })
    // The state the API does not show: the account is there, under client 502.
    expect((await mock.state()).tables.accounts).toContainEqual(
      expect.objectContaining({ domain: 'client-two.example', client_id: 502 }),
    )
  })

  test('a staff reply (typed control) takes the ticket off the unanswered list', async ({ api, mock }) => {
    const onboarded = await onboardClient(api, 503, 'three.example')
    if (!onboarded.ok || onboarded.ticketId === null) throw new Error('onboarding failed')
    expect((await unansweredWelcomeTickets(api)).map((t) => t.uuid)).toEqual([onboarded.ticketId])
    await mock.tickets.staffReply(onboarded.ticketId, { message: 'Certificate issued.' })
    expect(await unansweredWelcomeTickets(api)).toEqual([])
  })
})

describe('with the sandbox key', () => {
  test.override({ mockOptions: { seed, apiKey: 'svc_test_acme' } })

  test('simulated: nothing created, no ticket', async ({ api }) => {
    expect(await onboardClient(api, 502, 'client-two.example')).toMatchObject({ ok: true, simulated: true })
    expect(await api.whm.usage()).toMatchObject({ accounts_used: 1 })
  })
})
