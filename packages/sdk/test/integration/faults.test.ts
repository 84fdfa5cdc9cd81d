/**
 * What the SDK promises when the service or the network misbehaves, proven against the real mock
 * with its faults and checked in its request journal: retries that honour
 * `Retry-After`, no retry of a POST, a lost answer after provisioning, timeouts, request ids.
 */
import { createMockApi } from '@reseller-api/mock'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ResellerApi,
  ServerError,
  TimeoutError,
} from '../../src/index.js'
import { expectApiError, integrationSeed, KEYS, newMock } from './helpers.js'

const TICKETS = '/api/v1/support/tickets'
const HOSTING = '/api/v1/reseller/clients/:client_id/hosting'

/** A client through `mock.fetch` with the SDK's retry policy on. */
function retrying(
  mock: ReturnType<typeof newMock>,
  options: { timeoutMs?: number; maxRetries?: number } = {},
) {
  return new ResellerApi({
    apiKey: KEYS.live,
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    maxRetries: 2,
    strictResponses: true,
    ...options,
  })
}

async function accountCount(api: ResellerApi): Promise<number> {
  let n = 0
  for await (const _ of api.whm.accounts.list()) n++
  return n
}

describe('429 with Retry-After', () => {
  it('a GET is retried after the time the server asked for, then succeeds', async () => {
    const mock = newMock()
    const fault = mock.faults.add({
      match: { method: 'GET', route: TICKETS },
      times: 1,
      respond: { status: 429, retryAfter: 1 },
    })
    const started = performance.now()
    const page = await retrying(mock).tickets.list()
    const elapsed = performance.now() - started
    expect(page.data.length).toBeGreaterThan(0)
    expect(elapsed).toBeGreaterThanOrEqual(950)
    const [refused, served] = mock.requests.list({ route: TICKETS })
    expect(mock.requests.list({ route: TICKETS })).toHaveLength(2)
    expect(refused).toMatchObject({ status: 429, error_code: 'rate_limited', fault: fault.id })
    expect(served).toMatchObject({ status: 200, fault: null })
    // Mock time runs in real time: the second attempt came a second after the first.
    expect(Date.parse(served!.at) - Date.parse(refused!.at)).toBeGreaterThanOrEqual(950)
  })

  it('without retries: RateLimitError carries retryAfter and the journal id', async () => {
    const mock = newMock()
    mock.faults.add({ respond: { status: 429, retryAfter: 7 } })
    const error = await expectApiError(
      retrying(mock, { maxRetries: 0 }).services.list(),
      RateLimitError,
      429,
      'rate_limited',
    )
    expect(error.retryAfter).toBe(7)
    expect(error.requestId).toBe(mock.requests.list()[0]!.id)
  })
})

describe('503 on a POST', () => {
  it('is never retried: one request in the journal, ServerError service_unavailable', async () => {
    const mock = newMock()
    mock.faults.add({ match: { method: 'POST', route: TICKETS }, respond: { status: 503, retryAfter: 0 } })
    const api = retrying(mock, { maxRetries: 3 })
    const error = await expectApiError(
      api.tickets.create({ subject: 'S', message: 'M', department: 'general' }),
      ServerError,
      503,
      'service_unavailable',
    )
    expect(mock.requests.list({ method: 'POST' })).toEqual([
      expect.objectContaining({ id: error.requestId, status: 503, route: TICKETS }),
    ])
  })

  it('a GET meeting the same 503 is retried', async () => {
    const mock = newMock()
    mock.faults.add({ match: { method: 'GET' }, times: 2, respond: { status: 503, retryAfter: 0 } })
    await retrying(mock, { maxRetries: 2 }).services.list()
    expect(mock.requests.list().map((e) => e.status)).toEqual([503, 503, 200])
  })
})

describe("drop: 'after' on provisioning", () => {
  it('ConnectionError, yet exactly one account was created and one POST was made', async () => {
    const mock = newMock()
    const api = retrying(mock, { maxRetries: 3 })
    const before = await accountCount(api)
    mock.faults.add({ match: { method: 'POST', route: HOSTING }, drop: 'after', times: 1 })
    const error = await api.hosting
      .create(501, { domain: 'lost-answer.example', whm_package: 'starter' })
      .then(
        () => undefined,
        (reason: unknown) => reason,
      )
    expect(error).toBeInstanceOf(ConnectionError)
    expect(await accountCount(api)).toBe(before + 1)
    const posts = mock.requests.list({ method: 'POST', route: HOSTING })
    expect(posts).toEqual([
      expect.objectContaining({
        path: '/api/v1/reseller/clients/501/hosting',
        status: null,
        body: expect.objectContaining({ domain: 'lost-answer.example' }),
      }),
    ])
  })

  it("drop: 'before' leaves nothing created", async () => {
    const mock = newMock()
    const api = retrying(mock)
    const before = await accountCount(api)
    mock.faults.add({ match: { method: 'POST', route: HOSTING }, drop: 'before', times: 1 })
    await expect(
      api.hosting.create(501, { domain: 'never.example', whm_package: 'starter' }),
    ).rejects.toBeInstanceOf(ConnectionError)
    expect(await accountCount(api)).toBe(before)
  })
})

describe('delayMs', () => {
  it('beyond the client timeout gives TimeoutError', async () => {
    const mock = newMock()
    mock.faults.add({ match: { route: '/api/v1/services' }, delayMs: 1_000 })
    const started = performance.now()
    const error = await retrying(mock, { timeoutMs: 100, maxRetries: 0 })
      .services.list()
      .then(
        () => undefined,
        (reason: unknown) => reason,
      )
    expect(error).toBeInstanceOf(TimeoutError)
    expect((error as TimeoutError).timeoutMs).toBe(100)
    expect(performance.now() - started).toBeLessThan(900)
  })

  it('a GET that timed out once is retried and succeeds', async () => {
    const mock = newMock()
    mock.faults.add({ match: { route: '/api/v1/services' }, delayMs: 1_000, times: 1 })
    const page = await retrying(mock, { timeoutMs: 150, maxRetries: 1 }).services.list()
    expect(page.data.length).toBeGreaterThan(0)
    expect(mock.requests.list({ route: '/api/v1/services' })).toHaveLength(2)
  })
})

describe('request ids', () => {
  it("error.requestId names the request's journal entry", async () => {
    const mock = newMock()
    const api = retrying(mock, { maxRetries: 0 })
    await api.services.list()
    const error = await expectApiError(
      api.tickets.get('9b2f6c1e-4d3a-4e8b-8c7d-0a1b2c3d4e5f'),
      NotFoundError,
      404,
      'not_found',
    )
    const entries = mock.requests.list()
    expect(entries).toHaveLength(2)
    expect(error.requestId).toBe(entries[1]!.id)
    expect(entries[1]).toMatchObject({
      route: `${TICKETS}/:ticket_uuid`,
      status: 404,
      error_code: 'not_found',
    })
  })
})

describe('through setupServer(...mock.handlers)', () => {
  const mock = createMockApi({ seed: integrationSeed(), baseUrl: 'https://faults.sdk.test' })
  const server = setupServer(...mock.handlers)
  const api = new ResellerApi({
    apiKey: KEYS.live,
    baseUrl: mock.baseUrl,
    maxRetries: 0,
    strictResponses: true,
  })
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterAll(() => server.close())

  it('a drop is a ConnectionError; a respond fault a RateLimitError with the journal id', async () => {
    mock.faults.add({ drop: 'before', times: 1 })
    await expect(api.services.list()).rejects.toBeInstanceOf(ConnectionError)
    mock.faults.add({ respond: { status: 429, retryAfter: 2 }, times: 1 })
    const error = await expectApiError(api.services.list(), RateLimitError, 429, 'rate_limited')
    expect(error.retryAfter).toBe(2)
    expect(error.requestId).toBe(mock.requests.list().at(-1)!.id)
    expect(mock.requests.list().map((e) => e.status)).toEqual([null, 429])
  })
})
