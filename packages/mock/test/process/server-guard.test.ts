/**
 * The standalone server refuses a foreign `Host` (DNS rebinding) with 403
 * `forbidden_host` and a foreign `Origin` / `Sec-Fetch-Site: cross-site` on `/__mock/` with 403
 * `cross_origin`, before anything is served (inspector page and event stream included). Both ways
 * of starting it are checked: `mock.listen()` of the node entry and the CLI's `startStandalone`.
 */
import { request } from 'node:http'
import { ErrorBody } from '@reseller-api/sdk/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi } from '../../src/node.js'
import { type Standalone, startStandalone } from '../../src/server/host/standalone.js'
import { createGuard, hostName, isLoopbackHost } from '../../src/server/http/guard.js'
import { listen } from '../../src/server/http/listen.js'
import { assertBuilt, startCli } from '../helpers/cli.js'

interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A request with exactly these headers (fetch would not let a test set `Host`). */
function raw(
  url: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        )
        // The event stream never ends: its first bytes are enough.
        if (res.headers['content-type']?.startsWith('text/event-stream')) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' })
          req.destroy()
        }
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

function expectRefused(answer: RawAnswer, code: 'forbidden_host' | 'cross_origin') {
  expect(answer.status, answer.body).toBe(403)
  const body = JSON.parse(answer.body)
  expect(ErrorBody.safeParse(body).success).toBe(true)
  expect(body.error.code).toBe(code)
  expect(answer.headers['content-type']).toBe('application/json')
}

const KEY = 'svc_live_acme_full'

/** The checks every way of serving must pass, against a running server at `url()`. */
function guardSuite(url: () => string, state: () => unknown) {
  const port = () => new URL(url()).port

  it.each([
    'evil.example',
    `evil.example:${4010}`,
    'rebind.attacker.test:80',
    '10.1.2.3',
    'localhost.evil.example',
    '127.0.0.1.nip.io',
    'a b',
  ])('Host %s is refused with 403 forbidden_host, on every path', async (host) => {
    for (const path of [
      '/__mock/state',
      '/__mock/',
      '/__mock/stream',
      '/api/v1/support/tickets',
      '/nothing',
    ]) {
      expectRefused(
        await raw(url(), path, { headers: { host, authorization: `Bearer ${KEY}` } }),
        'forbidden_host',
      )
    }
  })

  it('a rebinding page cannot reset the mock: nothing changes', async () => {
    const before = JSON.stringify(state())
    await raw(url(), '/api/v1/support/tickets', {
      method: 'POST',
      headers: { host: 'evil.example', authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"subject":"pwned","message":"x","department":"technical"}',
    })
    expectRefused(
      await raw(url(), '/__mock/reset', { method: 'POST', headers: { host: 'evil.example' } }),
      'forbidden_host',
    )
    expect(JSON.stringify(state())).toBe(before)
  })

  it.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    'app.localhost',
    '127.0.0.1',
    '127.0.0.2',
    '[::1]',
    '[::ffff:127.0.0.1]',
  ])('loopback Host %s is served, with and without a port', async (host) => {
    for (const value of [host, `${host}:${port()}`]) {
      const answer = await raw(url(), '/__mock/clock', { headers: { host: value } })
      expect(answer.status, `${value}: ${answer.body}`).toBe(200)
    }
  })

  it.each([
    ['POST', '/__mock/reset', 'https://evil.example'],
    ['POST', '/__mock/faults', 'http://localhost:5173'],
    ['GET', '/__mock/state', 'null'],
    ['GET', '/__mock/', 'http://evil.example'],
    ['GET', '/__mock/stream', 'http://evil.example'],
  ])('%s %s from Origin %s is refused with 403 cross_origin', async (method, path, origin) => {
    const before = JSON.stringify(state())
    const answer = await raw(url(), path, {
      method,
      headers: { origin, 'content-type': 'text/plain' },
      body: method === 'POST' ? '{"respond":{"status":503}}' : undefined,
    })
    expectRefused(answer, 'cross_origin')
    expect(JSON.stringify(state())).toBe(before)
  })

  it('Sec-Fetch-Site: cross-site is refused on /__mock/ even without an Origin', async () => {
    expectRefused(
      await raw(url(), '/__mock/state', { headers: { 'sec-fetch-site': 'cross-site' } }),
      'cross_origin',
    )
  })

  it('same-origin pages, same-site and direct requests are served', async () => {
    const own = new URL(url())
    const ok: Record<string, string>[] = [
      { origin: `http://${own.host}` },
      { origin: `http://localhost:${own.port}`, host: `localhost:${own.port}` },
      { 'sec-fetch-site': 'same-origin', origin: `http://${own.host}` },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'none' },
      {},
    ]
    for (const headers of ok) {
      const answer = await raw(url(), '/__mock/state', { headers })
      expect(answer.status, JSON.stringify(headers)).toBe(200)
    }
    const page = await raw(url(), '/__mock/', { headers: { 'sec-fetch-site': 'same-origin' } })
    expect(page.status).toBe(200)
  })

  it('the API refuses other origins too, before journaling; direct requests are served', async () => {
    const answer = await raw(url(), '/api/v1/support/tickets', {
      headers: { origin: 'https://app.example', authorization: `Bearer ${KEY}` },
    })
    expectRefused(answer, 'cross_origin')
    const direct = await raw(url(), '/api/v1/support/tickets', {
      headers: { authorization: `Bearer ${KEY}` },
    })
    expect(direct.status).toBe(200)
  })
}

describe('mock.listen() is guarded', () => {
  const mock = createMockApi()
  let server: Awaited<ReturnType<typeof mock.listen>>
  beforeAll(async () => {
    server = await mock.listen({ port: 0 })
  })
  afterAll(() => server.close())
  guardSuite(
    () => server.url,
    () => mock.state(),
  )
})

describe('the standalone server (CLI) is guarded', () => {
  let standalone: Standalone
  beforeAll(async () => {
    standalone = await startStandalone({ port: 0 })
  })
  afterAll(() => standalone.close())
  guardSuite(
    () => standalone.url,
    () => standalone.mock.state(),
  )
})

describe('allowedHosts / --allowed-host', () => {
  it('a listed name is served, with or without a port; others still refused', async () => {
    const mock = createMockApi()
    const server = await mock.listen({ port: 0, allowedHosts: ['mock.test', 'API.Internal:8080'] })
    try {
      for (const host of ['mock.test', `mock.test:${server.port}`, 'api.internal', 'api.internal:1']) {
        expect((await raw(server.url, '/__mock/clock', { headers: { host } })).status, host).toBe(200)
      }
      expectRefused(
        await raw(server.url, '/__mock/clock', { headers: { host: 'other.test' } }),
        'forbidden_host',
      )
      // An allowed host's own origin is same-origin.
      const own = await raw(server.url, '/__mock/state', {
        headers: { host: `mock.test:${server.port}`, origin: `http://mock.test:${server.port}` },
      })
      expect(own.status).toBe(200)
      // Behind a TLS-terminating proxy (a forwarded port) the page's origin is https://{Host}.
      const proxied = await raw(server.url, '/__mock/state', {
        headers: { host: 'mock.test', origin: 'https://mock.test' },
      })
      expect(proxied.status).toBe(200)
      const otherPort = await raw(server.url, '/__mock/state', {
        headers: { host: 'mock.test', origin: 'https://mock.test:8443' },
      })
      expectRefused(otherPort, 'cross_origin')
    } finally {
      await server.close()
    }
  })

  it('a value that is not a host name rejects listen()', async () => {
    await expect(createMockApi().listen({ port: 0, allowedHosts: ['http://x/'] })).rejects.toThrow(
      /not a host name/,
    )
  })

  it('the CLI takes --allowed-host repeatedly', { timeout: 30_000 }, async () => {
    assertBuilt()
    const run = await startCli([
      '--port',
      '0',
      '--quiet',
      '--allowed-host',
      'mock.test',
      '--allowed-host',
      'box.lan:4010',
    ])
    try {
      for (const host of ['mock.test', 'box.lan']) {
        expect((await raw(run.url, '/__mock/clock', { headers: { host } })).status, host).toBe(200)
      }
      expectRefused(
        await raw(run.url, '/__mock/clock', { headers: { host: 'evil.example' } }),
        'forbidden_host',
      )
    } finally {
      run.child.kill('SIGTERM')
      await run.exited
    }
  })
})

describe('the guard itself', () => {
  it('reads Host values', () => {
    expect(hostName('LocalHost:4010')).toBe('localhost')
    expect(hostName('[::1]:4010')).toBe('::1')
    expect(hostName('example.com.')).toBe('example.com')
    expect(hostName('[::1')).toBeNull()
    expect(hostName('a/b')).toBeNull()
    expect(hostName('x:y')).toBeNull()
  })

  it('knows loopback names and addresses', () => {
    for (const h of ['localhost', 'a.b.localhost', '127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1'])
      expect(isLoopbackHost(h), h).toBe(true)
    for (const h of ['localhost.example', '128.0.0.1', '0.0.0.0', '::', '10.0.0.1', 'mylocalhost'])
      expect(isLoopbackHost(h), h).toBe(false)
  })

  it('a specific bound address is its own host; a wildcard bind accepts the interfaces', () => {
    const req = (host: string) => ({ headers: { host }, rawHeaders: ['Host', host] }) as never
    expect(createGuard({ boundHost: '192.0.2.7' })(req('192.0.2.7:4010'), '/')).toBeUndefined()
    expect(createGuard({ boundHost: '192.0.2.7' })(req('192.0.2.8'), '/')?.status).toBe(403)
    expect(createGuard({ boundHost: 'devbox.lan' })(req('devbox.lan:4010'), '/')).toBeUndefined()
    expect(createGuard({ boundHost: '0.0.0.0' })(req('localhost'), '/')).toBeUndefined()
    expect(createGuard({ boundHost: '0.0.0.0' })(req('evil.example'), '/')?.status).toBe(403)
  })

  it('a wildcard bind serves the URL it prints (http://0.0.0.0:PORT, http://[::]:PORT)', async () => {
    const server = await listen(async () => ({ status: 200, headers: {}, body: 'ok' }), { host: '0.0.0.0' })
    try {
      const answer = await fetch(`${server.url}/api/v1/anything`)
      expect(answer.status).toBe(200)
    } finally {
      await server.close()
    }
    const req = (host: string) => ({ headers: { host }, rawHeaders: ['Host', host] }) as never
    expect(createGuard({ boundHost: '::' })(req('[::]:4010'), '/')).toBeUndefined()
    // Bound to 127.0.0.1, the wildcard spelling is no name of this server.
    expect(createGuard({ boundHost: '127.0.0.1' })(req('0.0.0.0:4010'), '/')?.status).toBe(403)
  })
})
