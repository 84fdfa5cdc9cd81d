// connectMock(url): MockApi's methods over the control endpoints, each resolving what the
// in-process method returns, so one test body runs against both.
import { ResellerApi } from '@reseller-api/sdk'
import { describe, expect, test } from 'vitest'
import { connectMock, createMockApi, MockControlError } from '../../src/node.js'
import { KEYS, testSeed } from '../helpers/mock.js'

/** The same scenario, written once with `await` on every call. */
async function scenario(mock: {
  reset(): unknown
  state(): unknown
  clock: { advance(ms: number): Promise<{ offset_ms: number }> }
  faults: {
    add(spec: object): { id: string; remove(): unknown } | Promise<{ id: string; remove(): unknown }>
    list(): unknown
    clear(): unknown
  }
  requests: { list(filter?: object): unknown; clear(): unknown }
  tickets: { staffReply(uuid: string, body: { message: string }): Promise<unknown> }
  emit(input: never): Promise<unknown>
  baseUrl: string
  fetch?: typeof fetch
}) {
  const api = new ResellerApi({
    apiKey: KEYS.a,
    baseUrl: mock.baseUrl,
    maxRetries: 0,
    ...(mock.fetch && { fetch: mock.fetch }),
  })
  const seen: Record<string, unknown> = {}
  const fault = await mock.faults.add({ match: { method: 'GET' }, respond: { status: 503 }, times: 1 })
  seen.faultId = fault.id
  seen.faults = ((await mock.faults.list()) as { id: string }[]).map((f) => f.id)
  await expect(api.whm.usage()).rejects.toMatchObject({ status: 503, code: 'service_unavailable' })
  seen.removedUsedUp = await fault.remove()
  const second = await mock.faults.add({ respond: { status: 429 } })
  seen.removed = await second.remove()
  seen.removedAgain = await second.remove()
  await mock.faults.add({ respond: { status: 500 } })
  await mock.faults.clear()
  seen.afterClear = await mock.faults.list()

  const created = await api.tickets.create({ subject: 'Parity', message: 'hello', department: 'sales' })
  const reply = await mock.tickets.staffReply(created.ticket_id, { message: 'on it' })
  seen.reply = { ...(reply as object), created_at: 'x' }
  seen.ticketStatus = (await api.tickets.get(created.ticket_id)).status
  seen.journal = ((await mock.requests.list({ method: 'POST' })) as { path: string; status: number }[]).map(
    (entry) => [entry.path, entry.status],
  )
  await mock.requests.clear()
  seen.journalAfterClear = await mock.requests.list()

  const before = (await mock.clock.advance(0)).offset_ms
  seen.advanced = (await mock.clock.advance(90_000)).offset_ms - before
  const event = (await mock.emit({ reseller_id: 1, event: 'vps.activated' } as never)) as { event: string }
  seen.emitted = event.event

  await mock.reset()
  const state = (await mock.state()) as { tables: { tickets: { uuid: string }[] } }
  seen.ticketGoneAfterReset = !state.tables.tickets.some((t) => t.uuid === created.ticket_id)
  return seen
}

describe('connectMock', () => {
  test('runs the same awaited test body as the in-process mock, with the same results', async () => {
    const inProcess = createMockApi({ seed: testSeed() })
    const served = createMockApi({ seed: testSeed() })
    const remote = connectMock(served.baseUrl, { fetch: served.fetch })
    const local = await scenario(inProcess)
    const over = await scenario(Object.assign(remote, { fetch: served.fetch }))
    expect(over).toEqual(local)
    expect(local).toMatchObject({
      removedUsedUp: false,
      removed: true,
      removedAgain: false,
      afterClear: [],
      ticketStatus: 'in_progress',
      journalAfterClear: [],
      advanced: 90_000,
      emitted: 'vps.activated',
      ticketGoneAfterReset: true,
    })
    inProcess.clock.stop()
    served.clock.stop()
  })

  test('clock.get, tickets.setStatus, deliveries.list resolve what the endpoints answer', async () => {
    const served = createMockApi({ seed: testSeed() })
    const mock = connectMock(served.baseUrl, { fetch: served.fetch })
    const clock = await mock.clock.get()
    expect(clock).toEqual({ now: expect.stringMatching(/Z$/), offset_ms: served.clock.offsetMs })
    const uuid = (await mock.state()).tables.tickets[0]!.uuid
    expect(await mock.tickets.setStatus(uuid, 'closed')).toMatchObject({ uuid, status: 'closed' })
    expect(await mock.deliveries.list()).toEqual([])
    served.clock.stop()
  })

  test('failures reject with one error class: status, code and a one-line message', async () => {
    const served = createMockApi({ seed: testSeed() })
    const mock = connectMock(served.baseUrl, { fetch: served.fetch })
    const missing = await mock.deliveries.redeliver('dlv_nope').catch((error: unknown) => error)
    expect(missing).toBeInstanceOf(MockControlError)
    expect(missing).toMatchObject({ status: 404, code: 'not_found', name: 'MockControlError' })
    expect((missing as Error).message).not.toContain('\n')
    const invalid = await mock.faults
      .add({ respond: { status: 42 } } as never)
      .catch((error: unknown) => error)
    expect(invalid).toMatchObject({ status: 422, code: 'validation_error' })
    const ns = await mock.namespaces.create().catch((error: unknown) => error)
    // An in-process mock has no namespaces: its answer names the path.
    expect(ns).toBeInstanceOf(MockControlError)
    expect(ns).toMatchObject({ status: 404 })
    served.clock.stop()
  })

  test('clock.advance refuses a negative or non-number ms before sending anything', async () => {
    const mock = connectMock('http://127.0.0.1:9', { fetch: () => Promise.reject(new Error('sent')) })
    await expect(mock.clock.advance(-1)).rejects.toThrow(/ms must be a number of 0 or more/)
    await expect(mock.clock.advance(Number.NaN)).rejects.toThrow(TypeError)
  })

  test('a server that is not there: status 0, code unreachable', async () => {
    const mock = connectMock('http://127.0.0.1:9', {
      fetch: () =>
        Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })),
    })
    await expect(mock.state()).rejects.toMatchObject({ status: 0, code: 'unreachable' })
    await expect(mock.state()).rejects.toThrow(/ECONNREFUSED/)
  })

  test('a URL that is not http(s) is refused at once, naming it', () => {
    expect(() => connectMock('ftp://example.com')).toThrow(/http:\/\/ or https:\/\//)
  })
})
