import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { detectRuntime, userAgent } from '../src/core/runtime.js'
import { ApiPromise, type Logger, NotFoundError, ResellerApi, VERSION } from '../src/index.js'
import { API, BASE_URL, fail, fixtures, LIVE_KEY, ok, SANDBOX_KEY, setup } from './helpers/fake-api.js'

describe('construction', () => {
  it('mode comes from the key prefix', () => {
    expect(new ResellerApi({ apiKey: LIVE_KEY, baseUrl: BASE_URL }).mode).toBe('live')
    expect(new ResellerApi({ apiKey: SANDBOX_KEY, baseUrl: BASE_URL }).mode).toBe('sandbox')
  })

  it.each([
    ['an unknown prefix', 'sk_live_TOPSECRET', /must start with svc_live_ or svc_test_/],
    ['a bare prefix', 'svc_live_', /must start with svc_live_ or svc_test_/],
    ['a key with a space inside', 'svc_live_TOP SECRET', /must start with svc_live_ or svc_test_/],
    ['surrounding whitespace', ` ${LIVE_KEY}\n`, /leading or trailing whitespace/],
    ['an empty key', '', /apiKey is required/],
  ])('refuses %s with a clear error that does not repeat the key', (_label, apiKey, message) => {
    let error: unknown
    try {
      new ResellerApi({ apiKey, baseUrl: BASE_URL })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(TypeError)
    expect((error as Error).message).toMatch(message)
    expect(inspect(error)).not.toContain('TOPSECRET')
    expect(inspect(error)).not.toContain('SECRET')
  })

  it('refuses a missing key or options', () => {
    expect(() => new ResellerApi({ baseUrl: BASE_URL } as never)).toThrow(/apiKey is required/)
    expect(() => new ResellerApi(undefined as never)).toThrow(TypeError)
  })

  it.each([
    ['not a URL', 'api.example.com'],
    ['another protocol', 'ftp://api.example.com'],
    ['a query string', 'https://api.example.com/?x=1'],
    ['credentials', 'https://user:pw@api.example.com'],
  ])('refuses a baseUrl with %s', (_label, baseUrl) => {
    expect(() => new ResellerApi({ apiKey: LIVE_KEY, baseUrl })).toThrow(TypeError)
  })

  it.each([
    ['timeoutMs', { timeoutMs: 0 }],
    ['timeoutMs', { timeoutMs: Number.POSITIVE_INFINITY }],
    ['maxRetries', { maxRetries: -1 }],
    ['maxRetries', { maxRetries: 1.5 }],
    ['logLevel', { logLevel: 'loud' }],
    ['fetch', { fetch: 'nope' }],
    ['headers', { headers: { Authorization: 'Bearer other' } }],
  ])('refuses a bad %s', (name, extra) => {
    expect(() => new ResellerApi({ apiKey: LIVE_KEY, baseUrl: BASE_URL, ...(extra as object) })).toThrow(
      new RegExp(name === 'headers' ? 'Authorization' : name),
    )
  })

  it('adds /api/v1 to baseUrl, whatever trailing slashes or /api/v1 it already has', async () => {
    for (const baseUrl of [
      BASE_URL,
      `${BASE_URL}/`,
      `${BASE_URL}//`,
      `${BASE_URL}/api/v1`,
      `${BASE_URL}/api/v1/`,
    ]) {
      const { api, sent } = setup(() => ok(fixtures.usage()), { baseUrl })
      await api.whm.usage()
      expect(sent[0]?.url).toBe(`${API}/reseller/whm/usage`)
      expect(api.baseUrl).toBe(BASE_URL)
    }
    const nested = setup(() => ok(fixtures.usage()), { baseUrl: 'https://gw.example/reseller/' })
    await nested.api.whm.usage()
    expect(nested.sent[0]?.url).toBe('https://gw.example/reseller/api/v1/reseller/whm/usage')
  })
})

describe('headers', () => {
  it('sends the bearer key, Accept and a User-Agent naming the SDK, its version and the runtime', async () => {
    const { api, sent } = setup(() => ok(fixtures.usage()))
    await api.whm.usage()
    const headers = sent[0]?.headers
    expect(headers?.get('authorization')).toBe(`Bearer ${LIVE_KEY}`)
    expect(headers?.get('accept')).toBe('application/json')
    expect(headers?.get('user-agent')).toBe(`reseller-api-sdk/${VERSION} (node/${process.versions.node})`)
  })

  it('sends default headers on every request and per-call headers on one', async () => {
    const { api, sent } = setup(() => ok(fixtures.usage()), {
      headers: { 'X-Trace': 'abc', 'User-Agent': 'my-app/1.0' },
    })
    await api.whm.usage({ headers: { 'X-Call': '1' } })
    await api.whm.usage()
    expect(sent[0]?.headers.get('x-trace')).toBe('abc')
    expect(sent[0]?.headers.get('user-agent')).toBe('my-app/1.0')
    expect(sent[0]?.headers.get('x-call')).toBe('1')
    expect(sent[1]?.headers.get('x-call')).toBeNull()
    expect(sent[1]?.headers.get('authorization')).toBe(`Bearer ${LIVE_KEY}`)
  })

  it('a per-call header replaces the client header of the same name, in any case, for that call only', async () => {
    const { api, sent } = setup(() => ok(fixtures.usage()), { headers: { 'X-Trace': 'client' } })
    await api.whm.usage({ headers: { 'x-trace': 'call', ACCEPT: 'application/vnd.example+json' } })
    await api.whm.usage()
    expect(sent[0]?.headers.get('x-trace')).toBe('call')
    expect(sent[0]?.headers.get('accept')).toBe('application/vnd.example+json')
    expect(sent[1]?.headers.get('x-trace')).toBe('client')
    expect(sent[1]?.headers.get('accept')).toBe('application/json')
  })

  it('a per-call Authorization header is refused, not sent', async () => {
    const { api, sent } = setup(() => ok(fixtures.usage()))
    await expect(api.whm.usage({ headers: { authorization: 'Bearer svc_live_other' } })).rejects.toThrow(
      TypeError,
    )
    expect(sent).toHaveLength(0)
  })

  it('no User-Agent in a browser (it would be dropped, or break the CORS preflight)', () => {
    expect(
      userAgent(detectRuntime({ document: {}, navigator: { userAgent: 'Mozilla/5.0' } })),
    ).toBeUndefined()
    expect(userAgent(detectRuntime({ importScripts: () => undefined }))).toBeUndefined()
    expect(
      userAgent(
        detectRuntime({ Deno: { version: { deno: '2.1.0' } }, process: { versions: { node: '22.0.0' } } }),
      ),
    ).toBe(`reseller-api-sdk/${VERSION} (deno/2.1.0)`)
    expect(userAgent(detectRuntime({ process: { versions: { node: '22.0.0', bun: '1.2.0' } } }))).toBe(
      `reseller-api-sdk/${VERSION} (bun/1.2.0)`,
    )
    expect(userAgent(detectRuntime({ navigator: { userAgent: 'Cloudflare-Workers' } }))).toBe(
      `reseller-api-sdk/${VERSION} (workerd)`,
    )
  })

  it('names the edge runtime even where it poses as Node (Workers with nodejs_compat, Vercel Edge)', () => {
    const workersWithNodeCompat = {
      navigator: { userAgent: 'Cloudflare-Workers' },
      process: { versions: { node: '22.14.0' } },
    }
    expect(userAgent(detectRuntime(workersWithNodeCompat))).toBe(`reseller-api-sdk/${VERSION} (workerd)`)
    const vercelEdge = { EdgeRuntime: 'edge-runtime', process: { versions: { node: '20.0.0' } } }
    expect(userAgent(detectRuntime(vercelEdge))).toBe(`reseller-api-sdk/${VERSION} (edge-runtime)`)
    expect(userAgent(detectRuntime({ process: { versions: { node: '24.1.0' } } }))).toBe(
      `reseller-api-sdk/${VERSION} (node/24.1.0)`,
    )
  })
})

describe('withResponse', () => {
  it('gives the typed data and the HTTP answer (status, headers)', async () => {
    const { api } = setup(() => ok(fixtures.ticketDetail(), 200, { 'x-request-id': 'req_9' }))
    const promise = api.tickets.get(fixtures.uuid)
    expect(promise).toBeInstanceOf(ApiPromise)
    expect(promise).toBeInstanceOf(Promise)
    const { data, response } = await promise.withResponse()
    expect(data.messages[0]?.message).toBe('Hello')
    expect(response.status).toBe(200)
    expect(response.headers.get('x-request-id')).toBe('req_9')
  })

  it('awaiting and withResponse share one request', async () => {
    const { api, sent } = setup(() => ok(fixtures.usage(), 201))
    const promise = api.whm.usage()
    const [value, raw] = await Promise.all([promise, promise.withResponse()])
    expect(value).toEqual(fixtures.usage())
    expect(raw.response.status).toBe(201)
    expect(sent).toHaveLength(1)
  })

  it('rejects with the same error as the value', async () => {
    const { api } = setup(() => fail(404, 'not_found'))
    await expect(api.tickets.get(fixtures.uuid).withResponse()).rejects.toBeInstanceOf(NotFoundError)
    await expect(api.tickets.get(fixtures.uuid).catch((e: unknown) => e)).resolves.toBeInstanceOf(
      NotFoundError,
    )
    let finallyRan = false
    await api.tickets
      .get(fixtures.uuid)
      .finally(() => {
        finallyRan = true
      })
      .catch(() => undefined)
    expect(finallyRan).toBe(true)
  })

  it('a failed call read only through withResponse leaves no unhandled rejection', async () => {
    const { api } = setup(() => fail(404, 'not_found'))
    const unhandled: unknown[] = []
    const record = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', record)
    try {
      await expect(api.tickets.get(fixtures.uuid).withResponse()).rejects.toBeInstanceOf(NotFoundError)
      // Node reports unhandled rejections once the microtask queue is empty, before the next turn.
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off('unhandledRejection', record)
    }
    expect(unhandled).toEqual([])
  })

  it('then and finally give plain promises of the value', async () => {
    const { api } = setup(() => ok(fixtures.ticketDetail()))
    const promise = api.tickets.get(fixtures.uuid)
    const chained = promise.then((ticket) => ticket.uuid)
    expect(chained).not.toBeInstanceOf(ApiPromise)
    expect(promise.finally(() => undefined)).not.toBeInstanceOf(ApiPromise)
    expect(await chained).toBe(fixtures.uuid)
    expect(Promise.resolve(promise)).toBeInstanceOf(Promise)
    expect((await Promise.resolve(promise)).uuid).toBe(fixtures.uuid)
  })
})

describe('logger', () => {
  function memoryLogger() {
    const lines: { level: string; message: string; details?: Record<string, unknown> }[] = []
    const logger: Logger = {
      debug: (message, details) => lines.push({ level: 'debug', message, details }),
      info: (message, details) => lines.push({ level: 'info', message, details }),
      warn: (message, details) => lines.push({ level: 'warn', message, details }),
      error: (message, details) => lines.push({ level: 'error', message, details }),
    }
    return { logger, lines }
  }

  it('at debug, logs each attempt and answer with the Authorization header redacted', async () => {
    const { logger, lines } = memoryLogger()
    const { api } = setup(() => ok(fixtures.usage(), 200, { 'x-request-id': 'req_1' }), {
      logger,
      logLevel: 'debug',
    })
    await api.whm.usage()
    expect(lines.map((l) => l.message)).toEqual([
      `reseller-api: → GET ${API}/reseller/whm/usage`,
      `reseller-api: ← 200 GET ${API}/reseller/whm/usage`,
    ])
    expect(lines[0]?.details?.headers).toMatchObject({
      authorization: '[redacted]',
      accept: 'application/json',
    })
    expect(lines[1]?.details).toMatchObject({ status: 200, requestId: 'req_1', attempt: 1 })
    expect(JSON.stringify(lines)).not.toContain('TOPSECRET')
  })

  it('at the default level, logs only retries, never the key', async () => {
    const { logger, lines } = memoryLogger()
    const { api } = setup(
      (_r, _s, i) => (i === 0 ? fail(503, 'whm_unavailable', 'WHM offline') : ok(fixtures.usage())),
      {
        logger,
        maxRetries: 1,
      },
    )
    const started = Date.now()
    await api.whm.usage()
    expect(Date.now() - started).toBeLessThan(2000)
    expect(lines).toHaveLength(1)
    expect(lines[0]?.level).toBe('warn')
    expect(lines[0]?.message).toMatch(new RegExp(`retrying GET ${API}/reseller/whm/usage in \\d+ ms`))
    expect(lines[0]?.details).toMatchObject({ attempt: 2, maxAttempts: 2 })
    expect(String(lines[0]?.details?.reason)).toContain('WHM offline')
    expect(inspect(lines, { depth: 10 })).not.toContain('TOPSECRET')
  })

  it('logs nothing at "off"', async () => {
    const { logger, lines } = memoryLogger()
    const { api } = setup(() => ok(fixtures.usage()), { logger, logLevel: 'off' })
    await api.whm.usage()
    expect(lines).toEqual([])
  })
})
