// The journal and the faults behave the same through MSW's setupServer, the standalone server and
// the CLI (mock.fetch: journal.test.ts and faults.test.ts).
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { createMockApi, type MockApi } from '../../src/index.js'
import { startStandalone } from '../../src/server/host/standalone.js'
import { assertBuilt, runCli, startCli, waitForLine } from '../helpers/cli.js'
import { KEYS, testSeed } from '../helpers/mock.js'

const auth = { authorization: `Bearer ${KEYS.a}`, 'content-type': 'application/json' }
const ticket = JSON.stringify({ subject: 'S', message: 'M', department: 'general' })

/** The same checks, whatever the transport, through the global `fetch`: `base` is where the mock answers. */
function sharedChecks(ctx: () => { mock: MockApi; base: string }) {
  const api = (path: string) => `${ctx().base}/api/v1${path}`
  const control = (path: string) => `${ctx().base}/__mock${path}`
  const ticketCount = async () => {
    const body = await (await fetch(control('/state'))).json()
    return body.data.tables.tickets.length as number
  }

  test('API answers carry X-Request-Id naming the journal entry, over HTTP too', async () => {
    const answer = await fetch(api('/support/tickets?page=1'), { headers: auth })
    expect(answer.status).toBe(200)
    const id = answer.headers.get('x-request-id')
    expect(id).toMatch(/^req_/)
    const journal = await (await fetch(control('/requests'))).json()
    expect(journal.data).toEqual([
      expect.objectContaining({ id, method: 'GET', path: '/api/v1/support/tickets?page=1', status: 200 }),
    ])
    expect(ctx().mock.requests.list()).toEqual(journal.data)
    const controlAnswer = await fetch(control('/requests'))
    expect(controlAnswer.headers.get('x-request-id')).toBeNull()
  })

  test('a respond fault added over HTTP answers with Retry-After and is journaled', async () => {
    const added = await fetch(control('/faults'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { method: 'GET' }, times: 1, respond: { status: 429, retryAfter: 3 } }),
    })
    expect(added.status).toBe(201)
    const { data: fault } = await added.json()
    const answer = await fetch(api('/services'), { headers: auth })
    expect(answer.status).toBe(429)
    expect(answer.headers.get('retry-after')).toBe('3')
    expect((await answer.json()).error.code).toBe('rate_limited')
    expect((await fetch(api('/services'), { headers: auth })).status).toBe(200)
    expect(
      ctx()
        .mock.requests.list()
        .map((e) => e.fault),
    ).toEqual([fault.id, null])
  })

  test("drop: 'before' makes fetch reject and changes nothing", async () => {
    const before = await ticketCount()
    ctx().mock.faults.add({ match: { method: 'POST' }, drop: 'before', times: 1 })
    await expect(
      fetch(api('/support/tickets'), { method: 'POST', headers: auth, body: ticket }),
    ).rejects.toThrow(TypeError)
    expect(await ticketCount()).toBe(before)
    expect(ctx().mock.requests.list()).toMatchObject([{ method: 'POST', status: null }])
  })

  test("drop: 'after' makes fetch reject after the change took effect", async () => {
    const before = await ticketCount()
    ctx().mock.faults.add({ match: { method: 'POST' }, drop: 'after', times: 1 })
    await expect(
      fetch(api('/support/tickets'), { method: 'POST', headers: auth, body: ticket }),
    ).rejects.toThrow(TypeError)
    expect(await ticketCount()).toBe(before + 1)
    // The server still answers the next request.
    expect((await fetch(api('/support/tickets'), { headers: auth })).status).toBe(200)
  })

  test('POST /__mock/reset clears the journal and the faults', async () => {
    ctx().mock.faults.add({ respond: { status: 503 } })
    expect((await fetch(api('/services'), { headers: auth })).status).toBe(503)
    expect((await fetch(control('/reset'), { method: 'POST' })).status).toBe(200)
    expect(await (await fetch(control('/faults'))).json()).toEqual({ success: true, data: [] })
    expect(await (await fetch(control('/requests'))).json()).toEqual({ success: true, data: [] })
    expect((await fetch(api('/services'), { headers: auth })).status).toBe(200)
  })
}

describe('MSW setupServer(...mock.handlers)', () => {
  const mock = createMockApi({ seed: testSeed(), baseUrl: 'https://faults.reseller.test' })
  const server = setupServer(...mock.handlers)
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  beforeEach(() => mock.reset())
  afterAll(() => server.close())
  sharedChecks(() => ({ mock, base: mock.baseUrl }))
})

describe('the standalone server', () => {
  let standalone: Awaited<ReturnType<typeof startStandalone>>
  beforeAll(async () => {
    standalone = await startStandalone({ seed: testSeed(), port: 0 })
  })
  beforeEach(() => standalone.mock.reset())
  afterAll(() => standalone.close())
  sharedChecks(() => ({ mock: standalone.mock, base: standalone.url }))

  test('a dropped request is logged as dropped', async () => {
    const lines: string[] = []
    const logged = await startStandalone({ seed: testSeed(), port: 0, log: (line) => lines.push(line) })
    try {
      logged.mock.faults.add({ drop: 'before' })
      await expect(fetch(`${logged.url}/api/v1/services`, { headers: auth })).rejects.toThrow(TypeError)
      expect(lines).toEqual([expect.stringMatching(/^GET \/api\/v1\/services dropped \d+\.\dms$/)])
    } finally {
      await logged.close()
    }
  })

  test('journalLimit passes through', async () => {
    const small = await startStandalone({ seed: testSeed(), port: 0, journalLimit: 1 })
    try {
      await fetch(`${small.url}/api/v1/services`, { headers: auth })
      const last = await fetch(`${small.url}/api/v1/invoices`, { headers: auth })
      const journal = await (await fetch(`${small.url}/__mock/requests`)).json()
      expect(journal.data.map((e: { id: string }) => e.id)).toEqual([last.headers.get('x-request-id')])
    } finally {
      await small.close()
    }
  })
})

describe('the CLI', { timeout: 30_000 }, () => {
  const children: { child: { kill(signal?: NodeJS.Signals): boolean; exitCode: number | null } }[] = []
  beforeAll(() => assertBuilt())
  afterEach(() => {
    for (const c of children.splice(0)) if (c.child.exitCode === null) c.child.kill('SIGKILL')
  })

  test('--journal-limit N keeps N entries; 0 turns the journal off but ids are still sent', async () => {
    const two = await startCli(['--port', '0', '--quiet', '--journal-limit', '2'])
    children.push(two)
    await waitForLine(two, /journal\s+last 2 API requests/)
    const key = { authorization: 'Bearer svc_live_acme_full' }
    for (let i = 0; i < 3; i++) await (await fetch(`${two.url}/api/v1/services`, { headers: key })).text()
    expect((await (await fetch(`${two.url}/__mock/requests`)).json()).data).toHaveLength(2)

    const off = await startCli(['--port', '0', '--quiet', '--journal-limit', '0'])
    children.push(off)
    await waitForLine(off, /journal\s+off/)
    const answer = await fetch(`${off.url}/api/v1/services`, { headers: key })
    expect(answer.headers.get('x-request-id')).toMatch(/^req_/)
    expect((await (await fetch(`${off.url}/__mock/requests`)).json()).data).toEqual([])
  })

  test('a bad --journal-limit is a usage error, exit code 2', async () => {
    expect((await runCli(['--journal-limit', '-3'])).code).toBe(2)
    const bad = await runCli(['--journal-limit', 'many'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--journal-limit must be a whole number of 0 or more, got "many"')
  })
})
