/**
 * The control client (`src/control/client.ts`) against a real standalone mock (the built CLI) and
 * against an in-process mock through `mock.fetch`: every method's success, and each kind of
 * failure (the mock's error answers, no answer, an answer that is not the mock's).
 */
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ControlError, type ControlFetch, createControlClient } from '../../src/control/client.js'
import { control } from '../../src/control/operations.js'
import { createMockApi, type MockApi } from '../../src/node.js'
import { assertBuilt, type CliRun, startCli } from '../helpers/cli.js'

/** Tickets of the demo seed (reseller 1): one `open`, one `closed`. */
const OPEN_TICKET = '75650626-b41b-4d8a-a9c9-26165c76e5fa'
const CLOSED_TICKET = '4dad036d-ae84-4788-b740-d833dd9f2e15'
/** The demo seed's key with every scope. */
const KEY = 'svc_live_acme_full'

/** What a test needs of a mock: its base URL and the fetch that reaches it. */
interface Target {
  baseUrl: string
  fetch: ControlFetch
}

/** The rejection of `promise`, which must be a {@link ControlError}. */
async function failure(promise: Promise<unknown>): Promise<ControlError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ControlError)
  return error as ControlError
}

let standalone: (CliRun & { url: string }) | undefined
let inProcess: MockApi | undefined

beforeAll(async () => {
  assertBuilt()
  standalone = await startCli(['--port', '0', '--quiet'])
  inProcess = createMockApi()
})

afterAll(async () => {
  inProcess?.clock.stop()
  if (standalone && standalone.child.exitCode === null) {
    standalone.child.kill('SIGTERM')
    await standalone.exited
  }
})

const targets: [string, () => Target][] = [
  ['a standalone mock', () => ({ baseUrl: standalone!.url, fetch: (input, init) => fetch(input, init) })],
  ['an in-process mock through mock.fetch', () => ({ baseUrl: inProcess!.baseUrl, fetch: inProcess!.fetch })],
]

describe.each(targets)('the control client, against %s', (_name, target) => {
  const client = () => createControlClient(target())
  beforeEach(async () => {
    await client().reset()
  })

  it('resets and reads the state', async () => {
    const mock = client()
    await mock.tickets.staffReply(OPEN_TICKET, { message: 'On it.' })
    const changed = await mock.state()
    expect(changed.tables.tickets.find((t) => t.uuid === OPEN_TICKET)?.status).toBe('in_progress')
    expect(await mock.reset()).toEqual({ reset: true })
    const state = await mock.state()
    expect(state.format).toBe('reseller-mock-store')
    expect(state.tables.tickets.find((t) => t.uuid === OPEN_TICKET)?.status).toBe('open')
  })

  it('reads and advances the clock', async () => {
    const mock = client()
    const before = await mock.clock.get()
    expect(before.now).toMatch(/^\d{4}-\d\d-\d\dT/)
    const after = await mock.clock.advance({ seconds: 90 })
    expect(after.offset_ms - before.offset_ms).toBe(90_000)
    const refused = await failure(mock.clock.advance({ seconds: -1 }))
    expect([refused.status, refused.code, refused.fields]).toEqual([
      422,
      'validation_error',
      { seconds: ['must be 0 or more'] },
    ])
    expect(refused.message).toBe(
      'POST /__mock/clock/advance: 422 validation_error: invalid request: seconds: must be 0 or more',
    )
  })

  it("acts as the support staff on tickets; a closed ticket's reply is invalid_state, an unknown ticket not_found", async () => {
    const mock = client()
    const reply = await mock.tickets.staffReply(OPEN_TICKET, { message: 'A note', internal: true })
    expect(reply).toMatchObject({ message: 'A note', from: 'staff', internal: true })
    const ticket = await mock.tickets.setStatus(OPEN_TICKET, 'resolved')
    expect([ticket.uuid, ticket.status]).toEqual([OPEN_TICKET, 'resolved'])

    const closed = await failure(mock.tickets.staffReply(CLOSED_TICKET, { message: 'Hello?' }))
    expect([closed.status, closed.code, closed.request]).toEqual([
      422,
      'invalid_state',
      `POST /__mock/tickets/${CLOSED_TICKET}/replies`,
    ])
    const unknown = await failure(mock.tickets.setStatus('00000000-0000-4000-8000-000000000000', 'open'))
    expect([unknown.status, unknown.code]).toEqual([404, 'not_found'])
    expect(unknown.message).toMatch(/^PATCH \/__mock\/tickets\/0{8}-0000-4000-8000-0{12}: 404 not_found: /)
  })

  it('lists the journal with a filter and clears it; a bad filter is a validation_error naming it', async () => {
    const { baseUrl, fetch } = target()
    const mock = client()
    const headers = { authorization: `Bearer ${KEY}` }
    await fetch(`${baseUrl}/api/v1/support/tickets`, { headers })
    await fetch(`${baseUrl}/api/v1/support/tickets/none`, { headers })
    const all = await mock.requests.list()
    expect(all.map((e) => e.status)).toEqual([200, 404])
    const found = await mock.requests.list({ status: 404, method: 'get' })
    expect(found.map((e) => e.path)).toEqual(['/api/v1/support/tickets/none'])
    const bad = await failure(mock.requests.list({ status: 99 }))
    expect([bad.status, bad.code, Object.keys(bad.fields ?? {})]).toEqual([
      422,
      'validation_error',
      ['status'],
    ])
    expect(await mock.requests.clear()).toEqual({ cleared: 2 })
    expect(await mock.requests.list()).toEqual([])
  })

  it('adds, lists, removes and clears faults; an unknown id is not_found, a bad spec names its fields', async () => {
    const mock = client()
    const fault = await mock.faults.add({
      match: { route: '/api/v1/support/tickets' },
      respond: { status: 503 },
    })
    expect(fault).toMatchObject({ match: { route: '/api/v1/support/tickets' }, respond: { status: 503 } })
    expect((await mock.faults.list()).map((f) => f.id)).toEqual([fault.id])
    expect((await mock.faults.remove(fault.id)).id).toBe(fault.id)
    const gone = await failure(mock.faults.remove(fault.id))
    expect([gone.status, gone.code]).toEqual([404, 'not_found'])
    const bad = await failure(mock.faults.add({ times: 0, respond: { status: 200 } }))
    expect(bad.code).toBe('validation_error')
    expect(Object.keys(bad.fields ?? {}).sort()).toEqual(['respond.status', 'times'])
    await mock.faults.add({ delayMs: 1 })
    expect(await mock.faults.clear()).toEqual({ cleared: 1 })
  })

  it('emits an event, lists its delivery and redelivers it; an unknown delivery is not_found', async () => {
    const mock = client()
    const event = await mock.emit({ reseller_id: 1, event: 'ticket.created' })
    expect(event).toMatchObject({ event: 'ticket.created', data: expect.any(Object) })
    const [delivery] = await mock.deliveries.list()
    expect(delivery).toMatchObject({ webhook_id: 'wh_demo', event: 'ticket.created' })
    expect(delivery!.signature).toMatch(/^sha256=[0-9a-f]{64}$/)
    const again = await mock.deliveries.redeliver(delivery!.delivery_id)
    expect(again).toMatchObject({ webhook_id: 'wh_demo', payload: delivery!.payload })
    expect((await mock.deliveries.list()).length).toBe(2)
    const unknown = await failure(mock.deliveries.redeliver('dlv_none'))
    expect([unknown.status, unknown.code]).toEqual([404, 'not_found'])
    const refused = await failure(mock.emit({ reseller_id: 1, event: 'no.such' } as never))
    expect(Object.keys(refused.fields ?? {})).toEqual(['event'])
  })

  it('hands each answer to onResponse: its status and X-Mock-Deliveries, its body still the client’s', async () => {
    const seen: { method: string; path: string; status: number; deliveries: string | null; body: unknown }[] =
      []
    const mock = createControlClient({
      ...target(),
      onResponse: async (response, request) => {
        seen.push({
          method: request.method,
          path: new URL(request.url).pathname,
          status: response.status,
          deliveries: response.headers.get('x-mock-deliveries'),
          body: await response.json(),
        })
      },
    })
    const event = await mock.emit({ reseller_id: 1, event: 'ticket.created' })
    expect(event.event).toBe('ticket.created')
    const [delivery] = await mock.deliveries.list()
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/__mock/events', status: 201 })
    expect(seen[0]!.deliveries).toBe(delivery!.delivery_id)
    expect(seen[0]!.body).toMatchObject({ success: true, data: { event: 'ticket.created' } })
    await failure(mock.tickets.staffReply(CLOSED_TICKET, { message: 'Too late.' }))
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      path: `/__mock/tickets/${CLOSED_TICKET}/replies`,
      status: 422,
      body: { success: false, error: { code: 'invalid_state' } },
    })
    const throwing = createControlClient({
      ...target(),
      onResponse: () => {
        throw new Error('the hook failed')
      },
    })
    await expect(throwing.clock.get()).rejects.toThrow('the hook failed')
  })

  it('reads the OpenAPI document the mock serves, and calls any declaration through call()', async () => {
    const mock = client()
    const document = await mock.openapi()
    expect(Object.keys(document.paths as object)).toContain('/__mock/clock/advance')
    expect((await mock.call(control.clock.get)).offset_ms).toBeTypeOf('number')
  })
})

describe('the control client when the answer is not the mock', () => {
  let other: Server
  let otherUrl: string
  beforeAll(async () => {
    // A server that is not a mock: HTML for every request.
    other = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>')
    })
    other.listen(0, '127.0.0.1')
    await once(other, 'listening')
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => other.close(() => resolve())))

  it('rejects unreachable when nothing listens there, naming the reason in one line', async () => {
    const closed = createServer()
    closed.listen(0, '127.0.0.1')
    await once(closed, 'listening')
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const error = await failure(createControlClient({ baseUrl: `http://127.0.0.1:${port}/` }).clock.get())
    expect([error.status, error.code]).toEqual([0, 'unreachable'])
    expect(error.message).toBe(
      `GET /__mock/clock: no answer from the mock at http://127.0.0.1:${port} (ECONNREFUSED): is it running there?`,
    )
    expect(error.message).not.toContain('\n')
    const answers: number[] = []
    const hooked = createControlClient({
      baseUrl: `http://127.0.0.1:${port}`,
      onResponse: (response) => void answers.push(response.status),
    })
    expect((await failure(hooked.reset())).code).toBe('unreachable')
    expect(answers).toEqual([])
  })

  it('rejects unreachable when mock.fetch refuses a URL outside its mock', async () => {
    const mock = createMockApi()
    const error = await failure(
      createControlClient({ baseUrl: 'http://elsewhere.test', fetch: mock.fetch }).reset(),
    )
    expect([error.status, error.code]).toEqual([0, 'unreachable'])
    expect(error.message).toContain('mock.fetch only answers requests below')
  })

  it('rejects unexpected_answer for a server that is not a mock', async () => {
    const error = await failure(createControlClient({ baseUrl: otherUrl }).faults.list())
    expect([error.status, error.code]).toEqual([404, 'unexpected_answer'])
    expect(error.message).toBe(
      `GET /__mock/faults: the server at ${otherUrl} answered 404 without a JSON body: is it a reseller mock of this version?`,
    )
    const document = await failure(createControlClient({ baseUrl: otherUrl }).openapi())
    expect(document.code).toBe('unexpected_answer')
  })

  it('rejects unexpected_answer for data its declaration refuses (a mock of another version)', async () => {
    const mock = createMockApi()
    // The clock of a mock that names its fields otherwise.
    const skewed: ControlFetch = async (input, init) => {
      const answer = await mock.fetch(input, init)
      const { data } = (await answer.json()) as { data: { now: string } }
      return Response.json({ success: true, data: { time: data.now } })
    }
    const error = await failure(createControlClient({ baseUrl: mock.baseUrl, fetch: skewed }).clock.get())
    expect([error.status, error.code]).toEqual([200, 'unexpected_answer'])
    expect(error.message).toContain('with data its declaration refuses (now: ')
  })

  it('refuses a path parameter that would move the URL, before any request', async () => {
    const requests: string[] = []
    const client = createControlClient({
      baseUrl: 'http://127.0.0.1:1',
      fetch: async (input) => {
        requests.push(input)
        return Response.json({})
      },
    })
    await expect(client.faults.remove('..')).rejects.toThrow(TypeError)
    await expect(client.deliveries.redeliver('')).rejects.toThrow('delivery_id must be a non-empty string')
    expect(requests).toEqual([])
    expect(() => createControlClient({ baseUrl: 'localhost:4010' })).toThrow(TypeError)
  })

  it('hands the signal’s reason on when it aborts, as fetch does', async () => {
    const mock = createMockApi()
    const controller = new AbortController()
    controller.abort(new Error('stopped by the user'))
    const client = createControlClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      signal: controller.signal,
    })
    await expect(client.clock.get()).rejects.toThrow('stopped by the user')
  })
})
