/**
 * `hooks: { onRequest, onResponse }`: called around each attempt, with the method, the URL and what
 * came back; never the key or a header; a hook that throws or rejects is logged and never fails
 * the call; a hook's promise is not awaited.
 */
import { describe, expect, it, vi } from 'vitest'
import {
  ConnectionError,
  type Logger,
  NotFoundError,
  type RequestHookInfo,
  ResellerApi,
  type ResponseHookInfo,
  ValidationError,
} from '../src/index.js'
import { API, BASE_URL, fail, fixtures, LIVE_KEY, ok, setup } from './helpers/fake-api.js'

function recorder() {
  const events: (['request', RequestHookInfo] | ['response', ResponseHookInfo])[] = []
  const hooks = {
    onRequest: (info: RequestHookInfo) => {
      events.push(['request', info])
    },
    onResponse: (info: ResponseHookInfo) => {
      events.push(['response', info])
    },
  }
  return { events, hooks }
}

function quietLogger() {
  return { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies Logger
}

describe('hooks', () => {
  it('onRequest before and onResponse after an attempt, with the payloads of the contract', async () => {
    const { events, hooks } = recorder()
    const { api } = setup(() => ok(fixtures.usage(), 200, { 'x-request-id': 'req_42' }), { hooks })
    await api.whm.usage()
    expect(events).toEqual([
      ['request', { method: 'GET', url: `${API}/reseller/whm/usage`, attempt: 1 }],
      [
        'response',
        {
          method: 'GET',
          url: `${API}/reseller/whm/usage`,
          attempt: 1,
          status: 200,
          requestId: 'req_42',
          durationMs: expect.any(Number),
          error: null,
        },
      ],
    ])
    const [, response] = events[1] as ['response', ResponseHookInfo]
    expect(response.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('once per attempt: a retried GET is seen three times, numbered', async () => {
    const { events, hooks } = recorder()
    const { api } = setup(
      (_r, _s, i) =>
        i < 2
          ? fail(503, 'service_unavailable', 'busy', { headers: { 'retry-after': '0' } })
          : ok(fixtures.usage()),
      {
        hooks,
        maxRetries: 2,
      },
    )
    await api.whm.usage()
    expect(
      events.map(([kind, info]) => `${kind} ${info.attempt} ${'status' in info ? info.status : ''}`.trim()),
    ).toEqual(['request 1', 'response 1 503', 'request 2', 'response 2 503', 'request 3', 'response 3 200'])
  })

  it('an error answer: its status and request id, error null', async () => {
    const { events, hooks } = recorder()
    const { api } = setup(() => fail(404, 'not_found', 'no such', { headers: { 'x-request-id': 'req_7' } }), {
      hooks,
    })
    await expect(api.whm.accounts.get('ghost')).rejects.toBeInstanceOf(NotFoundError)
    expect(events[1]).toEqual([
      'response',
      expect.objectContaining({ status: 404, requestId: 'req_7', error: null, attempt: 1 }),
    ])
  })

  it('no answer: status and requestId null, error the ConnectionError', async () => {
    const { events, hooks } = recorder()
    const { api } = setup(
      () => {
        throw new TypeError('fetch failed')
      },
      { hooks, maxRetries: 0 },
    )
    const thrown = await api.hosting
      .create(501, { domain: 'shop.example', whm_package: 'starter' })
      .catch((e: unknown) => e)
    expect(thrown).toBeInstanceOf(ConnectionError)
    const [, info] = events[1] as ['response', ResponseHookInfo]
    expect(info).toMatchObject({ method: 'POST', attempt: 1, status: null, requestId: null })
    expect(info.error).toBe(thrown)
  })

  it('neither hook gets the key or any header', async () => {
    const seen: unknown[] = []
    const { api } = setup(() => ok(fixtures.usage()), {
      headers: { 'x-trace': 'trace-secret' },
      hooks: { onRequest: (info) => void seen.push(info), onResponse: (info) => void seen.push(info) },
    })
    await api.whm.usage()
    expect(seen).toHaveLength(2)
    const text = JSON.stringify(seen)
    expect(text).not.toContain(LIVE_KEY)
    expect(text).not.toContain('trace-secret')
    for (const info of seen) expect(Object.keys(info as object).sort()).not.toContain('headers')
  })

  it('a call refused before sending calls no hook; the next one sent does', async () => {
    const { events, hooks } = recorder()
    const { api, sent } = setup(() => ok(fixtures.usage()), { hooks })
    await expect(
      api.tickets.create({ subject: '', message: 'M', department: 'sales' }),
    ).rejects.toBeInstanceOf(ValidationError)
    expect(sent).toHaveLength(0)
    expect(events).toEqual([])
    await api.whm.usage()
    expect(events.map(([kind]) => kind)).toEqual(['request', 'response'])
  })

  it('a throwing hook is logged at error and the call still resolves', async () => {
    const logger = quietLogger()
    const { api } = setup(() => ok(fixtures.usage()), {
      logger,
      hooks: {
        onRequest: () => {
          throw new Error('tracer exploded')
        },
        onResponse: () => {
          throw new Error('metrics exploded')
        },
      },
    })
    expect(await api.whm.usage()).toEqual(fixtures.usage())
    expect(logger.error).toHaveBeenCalledTimes(2)
    expect(logger.error.mock.calls[0]?.[0]).toContain('onRequest hook failed: tracer exploded')
    expect(logger.error.mock.calls[1]?.[0]).toContain('onResponse hook failed: metrics exploded')
    expect(JSON.stringify(logger.error.mock.calls)).not.toContain(LIVE_KEY)
  })

  it('an async hook is not awaited, and its rejection is logged, not unhandled', async () => {
    const logger = quietLogger()
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    let rejected!: Promise<void>
    const { api } = setup(() => ok(fixtures.usage()), {
      logger,
      hooks: {
        // Never settles during the call: an awaited hook would hang it.
        onRequest: () => gate,
        onResponse: () => {
          rejected = Promise.reject(new Error('late failure'))
          return rejected
        },
      },
    })
    expect(await api.whm.usage()).toEqual(fixtures.usage())
    await rejected.catch(() => undefined)
    await vi.waitFor(() => expect(logger.error).toHaveBeenCalledTimes(1))
    expect(logger.error.mock.calls[0]?.[0]).toContain('onResponse hook failed: late failure')
    release()
  })

  it('hooks apply to api.request too', async () => {
    const { events, hooks } = recorder()
    const { api } = setup(() => ok({ x: 1 }), { hooks })
    await api.request('GET', '/reseller/something-new')
    expect(events.map(([k, i]) => `${k} ${i.method} ${i.url}`)).toEqual([
      `request GET ${API}/reseller/something-new`,
      `response GET ${API}/reseller/something-new`,
    ])
  })

  it('refuses hooks that are not functions, naming the member', () => {
    const make = (hooks: unknown) => () =>
      new ResellerApi({ apiKey: LIVE_KEY, baseUrl: BASE_URL, hooks: hooks as never })
    expect(make('yes')).toThrow('hooks must be an object')
    expect(make({ onRequest: 'log' })).toThrow('hooks.onRequest must be a function')
    expect(make({ onResponse: 1 })).toThrow('hooks.onResponse must be a function')
    expect(make({})).not.toThrow()
  })
})
