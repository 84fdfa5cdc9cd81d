// `@reseller-api/mock/vitest`: a fresh mock and an SDK client per test, seed and key chosen by the user.
// Runs both ways in CI: in process, and with RESELLER_MOCK_URL against the built binary, every test
// concurrent (scripts/vitest-remote.mjs), where each `mock` is a namespace of that one server.
import { ResellerApi } from '@reseller-api/sdk'
import { afterAll, describe, expect as vitestExpect } from 'vitest'
import { connectMock } from '../../src/node.js'
import { createMockTest, expect, type TestMock, test } from '../../src/vitest.js'
import { KEYS, testSeed } from '../helpers/mock.js'

const remote = Boolean(process.env.RESELLER_MOCK_URL)
const seen: TestMock[] = []

describe('test (demo seed)', () => {
  test('gets a mock and an api wired to it, with the demo seed’s full live key', async ({ mock, api }) => {
    seen.push(mock)
    expect(api).toBeInstanceOf(ResellerApi)
    expect(api.mode).toBe('live')
    const created = await api.tickets.create({ subject: 'Fixture', message: 'hello', department: 'sales' })
    expect((await mock.state()).tables.tickets.some((t) => t.uuid === created.ticket_id)).toBe(true)
  })

  test('the next test gets a fresh mock: nothing of the previous one remains', async ({ mock, api }) => {
    seen.push(mock)
    vitestExpect(seen.filter((other) => other === mock)).toHaveLength(1)
    const subjects = []
    for await (const ticket of api.tickets.list()) subjects.push(ticket.subject)
    expect(subjects).not.toContain('Fixture')
  })

  const noRetries = createMockTest({ client: { maxRetries: 0 } })
  noRetries('faults, clock and journal are the test’s own', async ({ mock, api }) => {
    await mock.faults.add({ match: { method: 'GET' }, respond: { status: 503 }, times: 1 })
    await expect(api.whm.usage()).rejects.toMatchObject({ status: 503 })
    expect((await mock.requests.list()).map((entry) => entry.status)).toEqual([503])
    const before = (await mock.clock.advance(0)).offset_ms
    expect((await mock.clock.advance(60_000)).offset_ms - before).toBe(60_000)
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

describe.runIf(remote)('remote mode (RESELLER_MOCK_URL)', () => {
  const failedIn: string[] = []
  afterAll(async () => {
    // The namespace of the failed test below went with it.
    vitestExpect(failedIn).toHaveLength(1)
    await vitestExpect(
      connectMock(process.env.RESELLER_MOCK_URL!).namespaces.get(failedIn[0]!),
    ).rejects.toMatchObject({
      status: 404,
      code: 'namespace_not_found',
    })
  })

  test.fails('a failed test’s namespace is deleted too', async ({ mock }) => {
    if ('id' in mock) failedIn.push(mock.id)
    expect((await mock.state()).tables.accounts).toHaveLength(-1)
  })

  test('mock is a namespace of the server, api at its url with its first key', async ({ mock, api }) => {
    if (!('url' in mock)) throw new Error('in remote mode the mock is a namespace')
    expect(mock.url).toBe(`${process.env.RESELLER_MOCK_URL!.replace(/\/+$/, '')}/ns/${mock.id}`)
    expect(mock.baseUrl).toBe(mock.url)
    expect(mock.label).toMatch(/^vitest: mock is a namespace/)
    expect(api.mode).toBe('live')
    expect(mock.keys[0]?.key).toBe('svc_live_acme_full')
  })
})
