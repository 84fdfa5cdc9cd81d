// connectMock(url): MockApi's methods over the control endpoints, each resolving what the
// in-process method returns, so one test body runs against both.
import { describe, expect, test } from 'vitest'
import { connectMock, createMockApi, MockControlError } from '../../src/node.js'
import { controlScenario as scenario } from '../helpers/control-scenario.js'
import { testSeed } from '../helpers/mock.js'

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
