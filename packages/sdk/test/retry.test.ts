import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  BASE_DELAY_MS,
  backoffDelay,
  MAX_DELAY_MS,
  parseRetryAfter,
  retryDelay,
  shouldRetry,
} from '../src/core/retry.js'
import {
  ConnectionError,
  RateLimitError,
  ServerError,
  TimeoutError,
  WhmUnavailableError,
} from '../src/index.js'
import { fail, fixtures, ok, setup } from './helpers/fake-api.js'

describe('retry policy', () => {
  it('retries GET, PUT, PATCH and DELETE on 408, 429, 5xx and no answer; never a POST', () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      for (const status of [408, 429, 500, 502, 503, 504, undefined])
        expect(shouldRetry(method, status)).toBe(true)
      for (const status of [400, 401, 403, 404, 409, 422]) expect(shouldRetry(method, status)).toBe(false)
    }
    for (const status of [408, 429, 500, 503, undefined]) expect(shouldRetry('POST', status)).toBe(false)
  })

  it('backs off exponentially with jitter, capped at 8 s', () => {
    expect(backoffDelay(0, () => 0)).toBe(BASE_DELAY_MS / 2)
    expect(backoffDelay(0, () => 1)).toBe(BASE_DELAY_MS)
    expect(backoffDelay(1, () => 1)).toBe(BASE_DELAY_MS * 2)
    expect(backoffDelay(2, () => 1)).toBe(BASE_DELAY_MS * 4)
    expect(backoffDelay(10, () => 1)).toBe(MAX_DELAY_MS)
    expect(backoffDelay(10, () => 0)).toBe(MAX_DELAY_MS / 2)
    const samples = new Set(Array.from({ length: 20 }, () => backoffDelay(3)))
    expect(samples.size).toBeGreaterThan(1)
  })

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(parseRetryAfter('3', now)).toBe(3)
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1.5)
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10)
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0)
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter('-5', now)).toBeUndefined()
    expect(parseRetryAfter(null, now)).toBeUndefined()
  })

  it('honours Retry-After up to 60 s, and gives up rather than retry early beyond that', () => {
    expect(retryDelay(0, 2)).toBe(2000)
    expect(retryDelay(5, 0)).toBe(0)
    expect(retryDelay(0, 60)).toBe(60_000)
    expect(retryDelay(0, 61)).toBeUndefined()
    expect(retryDelay(1, undefined, () => 1)).toBe(BASE_DELAY_MS * 2)
  })
})

describe('retries on the wire', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  /** Settles `promise` while running every timer, and returns its outcome. */
  async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
    const outcome = promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    )
    await vi.runAllTimersAsync()
    return outcome
  }

  it('a POST answered 503 is sent exactly once', async () => {
    const { api, sent } = setup(() => fail(503, 'whm_unavailable'))
    const { error } = await settle(
      api.hosting.create(501, { domain: 'shop.example', whm_package: 'starter' }),
    )
    expect(error).toBeInstanceOf(WhmUnavailableError)
    expect(sent).toHaveLength(1)
  })

  it('a POST with no answer is not retried either', async () => {
    const { api, sent } = setup(() => {
      throw new TypeError('fetch failed')
    })
    const { error } = await settle(
      api.tickets.create({ subject: 'Hi', message: 'Hello', department: 'billing' }),
    )
    expect(error).toBeInstanceOf(ConnectionError)
    expect(sent).toHaveLength(1)
  })

  it('a GET answered 503 then 200 succeeds after 2 calls', async () => {
    const { api, sent } = setup((_req, _sent, i) =>
      i === 0 ? fail(503, 'whm_unavailable') : ok(fixtures.usage()),
    )
    const { value } = await settle(api.whm.usage())
    expect(value).toEqual(fixtures.usage())
    expect(sent).toHaveLength(2)
  })

  type Api = ReturnType<typeof setup>['api']
  it.each<[string, (api: Api) => Promise<unknown>, unknown]>([
    [
      'PUT',
      (api: Api) => api.resellerWebhook.update({ url: 'https://r.example/h', secret: 's' }),
      { url: 'https://r.example/h', has_secret: true },
    ],
    ['PATCH', (api: Api) => api.tickets.close(fixtures.uuid), { ticket_id: fixtures.uuid, status: 'closed' }],
    ['DELETE', (api: Api) => api.whm.packages.delete('starter'), { name: 'starter', deleted: true }],
  ])('%s is retried on 5xx', async (method, call, data) => {
    const { api, sent } = setup((_req, _sent, i) => (i < 2 ? fail(500, 'internal_error') : ok(data)))
    const { value } = await settle(call(api))
    expect(value).toEqual(data)
    expect(sent.map((s) => s.method)).toEqual([method, method, method])
    // The body is sent again, identical, on every attempt.
    expect(new Set(sent.map((s) => JSON.stringify(s.body))).size).toBe(1)
  })

  it('a GET is retried after a connection error and after a timeout', async () => {
    const { api, sent } = setup(
      (request, _sent, i) => {
        if (i === 0) throw new TypeError('fetch failed')
        if (i === 1) {
          return new Promise<Response>((_, reject) => {
            request.signal.addEventListener('abort', () => reject(request.signal.reason))
          })
        }
        return ok(fixtures.usage())
      },
      { timeoutMs: 1000 },
    )
    const { value } = await settle(api.whm.usage())
    expect(value).toEqual(fixtures.usage())
    expect(sent).toHaveLength(3)
  })

  it('408 and 429 are retried; 4xx otherwise are not', async () => {
    const retried = setup((_r, _s, i) =>
      i === 0 ? fail(408, 'timeout') : i === 1 ? fail(429, 'rate_limited') : ok(fixtures.usage()),
    )
    expect((await settle(retried.api.whm.usage())).value).toEqual(fixtures.usage())
    expect(retried.sent).toHaveLength(3)
    const notRetried = setup(() => fail(404, 'not_found'))
    await settle(notRetried.api.whm.usage())
    expect(notRetried.sent).toHaveLength(1)
  })

  it('maxRetries bounds the attempts (default 2 → 3 attempts), and 0 disables retries', async () => {
    const byDefault = setup(() => fail(503, 'whm_unavailable'))
    expect((await settle(byDefault.api.whm.usage())).error).toBeInstanceOf(ServerError)
    expect(byDefault.sent).toHaveLength(3)

    const five = setup(() => fail(503, 'whm_unavailable'), { maxRetries: 5 })
    await settle(five.api.whm.usage())
    expect(five.sent).toHaveLength(6)

    const none = setup(() => fail(503, 'whm_unavailable'), { maxRetries: 0 })
    await settle(none.api.whm.usage())
    expect(none.sent).toHaveLength(1)

    const perCall = setup(() => fail(503, 'whm_unavailable'))
    await settle(perCall.api.whm.usage({ maxRetries: 0 }))
    expect(perCall.sent).toHaveLength(1)
  })

  it('429 with Retry-After in seconds: the retry waits exactly that long', async () => {
    const { api, sent } = setup((_r, _s, i) =>
      i === 0
        ? fail(429, 'rate_limited', 'slow down', { headers: { 'retry-after': '3' } })
        : ok(fixtures.usage()),
    )
    const result = api.whm.usage()
    await vi.advanceTimersByTimeAsync(2999)
    expect(sent).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(sent).toHaveLength(2)
    await expect(result).resolves.toEqual(fixtures.usage())
  })

  it('503 with Retry-After as an HTTP date waits until that date', async () => {
    vi.setSystemTime(Date.parse('2026-01-01T00:00:00Z'))
    const { api, sent } = setup((_r, _s, i) =>
      i === 0
        ? fail(503, 'whm_unavailable', 'down', {
            headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' },
          })
        : ok(fixtures.usage()),
    )
    const result = api.whm.usage()
    await vi.advanceTimersByTimeAsync(4900)
    expect(sent).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(200)
    expect(sent).toHaveLength(2)
    await expect(result).resolves.toEqual(fixtures.usage())
  })

  it('a Retry-After beyond 60 s is not retried early: the RateLimitError says how long to wait', async () => {
    const { api, sent } = setup(() =>
      fail(429, 'rate_limited', 'slow down', { headers: { 'retry-after': '3600' } }),
    )
    const { error } = await settle(api.whm.usage())
    expect(error).toBeInstanceOf(RateLimitError)
    expect((error as RateLimitError).retryAfter).toBe(3600)
    expect(sent).toHaveLength(1)
  })

  it('without Retry-After, waits grow: about 0.5 s, then about 1 s', async () => {
    const sentAt: number[] = []
    const { api, sent } = setup(() => {
      sentAt.push(Date.now()) // fake time
      return fail(500, 'internal_error')
    })
    const result = api.whm.usage().catch((error: unknown) => error)
    await vi.advanceTimersByTimeAsync(0)
    expect(sent).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(BASE_DELAY_MS / 2 - 1)
    expect(sent).toHaveLength(1) // never sooner than half the first delay
    await vi.advanceTimersByTimeAsync(BASE_DELAY_MS / 2 + 1)
    expect(sent).toHaveLength(2) // never later than the full first delay
    await vi.advanceTimersByTimeAsync(2 * BASE_DELAY_MS)
    expect(sent).toHaveLength(3)
    const [first, second, third] = sentAt as [number, number, number]
    // Equal jitter: each wait is between half and all of 0.5 s × 2^n.
    expect(second - first).toBeGreaterThanOrEqual(BASE_DELAY_MS / 2)
    expect(second - first).toBeLessThanOrEqual(BASE_DELAY_MS)
    expect(third - second).toBeGreaterThanOrEqual(BASE_DELAY_MS)
    expect(third - second).toBeLessThanOrEqual(2 * BASE_DELAY_MS)
    expect(await result).toBeInstanceOf(ServerError)
  })

  it('the backoff spreads clients: the random half of each wait comes from Math.random', async () => {
    for (const [random, expected] of [
      [0, BASE_DELAY_MS / 2],
      [0.999, BASE_DELAY_MS],
    ] as const) {
      const spy = vi.spyOn(Math, 'random').mockReturnValue(random)
      const sentAt: number[] = []
      const { api } = setup(() => {
        sentAt.push(Date.now())
        return fail(503, 'whm_unavailable')
      })
      const result = api.whm.usage({ maxRetries: 1 }).catch((error: unknown) => error)
      await vi.runAllTimersAsync()
      await result
      spy.mockRestore()
      expect(sentAt[1]! - sentAt[0]!).toBeCloseTo(expected, -1)
    }
  })

  it('aborting during the backoff stops the retries', async () => {
    const controller = new AbortController()
    const { api, sent } = setup(() => fail(503, 'whm_unavailable'))
    const result = api.whm.usage({ signal: controller.signal }).catch((error: unknown) => error)
    await vi.advanceTimersByTimeAsync(10)
    controller.abort(new Error('stop'))
    await vi.runAllTimersAsync()
    expect(((await result) as Error).message).toBe('stop')
    expect(sent).toHaveLength(1)
  })

  it('a timeout on a POST is not retried', async () => {
    const { api, sent } = setup(
      (request) =>
        new Promise<Response>((_, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason))
        }),
      { timeoutMs: 1000 },
    )
    const { error } = await settle(api.whm.accounts.suspend('alice'))
    expect(error).toBeInstanceOf(TimeoutError)
    expect(sent).toHaveLength(1)
  })
})
