// `@reseller-api/mock/vitest`: a fresh mock and an SDK client per test, seed and key chosen by the user.
import { ResellerApi } from '@reseller-api/sdk'
import { describe, expect as vitestExpect } from 'vitest'
import type { MockApi } from '../../src/index.js'
import { createMockTest, expect, test } from '../../src/vitest.js'
import { KEYS, testSeed } from '../helpers/mock.js'

const seen: MockApi[] = []

describe('test (demo seed)', () => {
  test('gets a mock and an api wired to it, with the demo seed’s full live key', async ({ mock, api }) => {
    seen.push(mock)
    expect(api).toBeInstanceOf(ResellerApi)
    expect(api.mode).toBe('live')
    const created = await api.tickets.create({ subject: 'Fixture', message: 'hello', department: 'sales' })
    expect(mock.state().tables.tickets.some((t) => t.uuid === created.ticket_id)).toBe(true)
  })

  test('the next test gets a fresh mock: nothing of the previous one remains', async ({ mock, api }) => {
    seen.push(mock)
    vitestExpect(seen[0]).not.toBe(mock)
    const subjects = []
    for await (const ticket of api.tickets.list()) subjects.push(ticket.subject)
    expect(subjects).not.toContain('Fixture')
  })
})

describe('createMockTest({ seed, apiKey })', () => {
  const custom = createMockTest({ seed: testSeed(), apiKey: KEYS.aSandbox })
  custom('uses the given seed and key', async ({ api }) => {
    expect(api.mode).toBe('sandbox')
    expect((await api.whm.usage()).accounts_limit).toBe(3)
  })

  const firstKey = createMockTest({ seed: testSeed() })
  firstKey('without apiKey: the first key of the first reseller', async ({ api }) => {
    expect(api.mode).toBe('live')
    expect(
      await api.webhooks.create({ url: 'https://hooks.example.com/x', events: ['ticket.created'] }),
    ).toHaveProperty('secret')
  })
})

describe('test.override({ mockOptions }) for one describe', () => {
  test.override({ mockOptions: { seed: testSeed(), apiKey: KEYS.c } })
  test('applies to the tests of this describe', async ({ api }) => {
    // Reseller 3 of the test seed has no reseller service.
    await expect(api.whm.usage()).rejects.toMatchObject({ code: 'no_reseller_service' })
  })
})
