/**
 * `outcome` on ConnectionError and TimeoutError: whether a request that got no answer may have
 * reached the service. Real sockets where a test can make the failure (a refused port, a name that
 * does not resolve, a server that closes the connection after reading the request), fake fetches
 * for the rest.
 */
import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { ConnectionError, ResellerApi, TimeoutError } from '../src/index.js'
import { LIVE_KEY, setup } from './helpers/fake-api.js'

async function rejection(promise: Promise<unknown>): Promise<ConnectionError> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`)
    },
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(ConnectionError)
  return error as ConnectionError
}

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
})

/** A TCP server on 127.0.0.1 that runs `onSocket` for each connection; resolves its base URL. */
async function tcpServer(onSocket: (socket: import('node:net').Socket) => void): Promise<string> {
  const server = createServer(onSocket)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return `http://127.0.0.1:${port}`
}

/** A base URL whose port nobody listens on (a server was bound there, then closed). */
async function closedPort(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}`
}

/** A client on the global fetch (real sockets). */
function real(baseUrl: string, options: { timeoutMs?: number; maxRetries?: number } = {}): ResellerApi {
  return new ResellerApi({ apiKey: LIVE_KEY, baseUrl, maxRetries: 0, ...options })
}

const BODY = { domain: 'shop.example', whm_package: 'starter' }

describe("outcome: 'not_sent' when the request surely never reached the service", () => {
  it('a refused connection', async () => {
    const error = await rejection(real(await closedPort()).hosting.create(501, BODY))
    expect(error.outcome).toBe('not_sent')
    expect(error.message).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/reseller\/clients\/501\/hosting was not sent/,
    )
    expect(error.message).toContain('ECONNREFUSED')
    expect(error.message).toContain(
      'it never reached the service (outcome not_sent): sending it again is safe',
    )
  })

  it('a host name that does not resolve (DNS failure)', async () => {
    const error = await rejection(real('http://no-such-host.invalid').whm.usage())
    expect(error.outcome).toBe('not_sent')
    expect(error.message).toContain('outcome not_sent')
  })

  it('the same failure shapes from a custom fetch: a cause with the code, an AggregateError of attempts', async () => {
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' })
    const causes = [
      Object.assign(new Error('getaddrinfo EAI_AGAIN api.example'), { code: 'EAI_AGAIN' }),
      new AggregateError([refused('::1:443'), refused('127.0.0.1:443')]),
      // Deno says it in words.
      new TypeError('error sending request: client error (Connect): tcp connect error: Connection refused'),
    ]
    for (const cause of causes) {
      const { api } = setup(
        () => {
          throw new TypeError('fetch failed', { cause })
        },
        { maxRetries: 0 },
      )
      expect((await rejection(api.whm.usage())).outcome).toBe('not_sent')
    }
  })
})

describe("outcome: 'unknown' when the request may have reached the service", () => {
  it('a connection closed after the request was read, before any answer (a POST)', async () => {
    const baseUrl = await tcpServer((socket) => socket.once('data', () => socket.destroy()))
    const error = await rejection(real(baseUrl).hosting.create(501, BODY))
    expect(error).not.toBeInstanceOf(TimeoutError)
    expect(error.outcome).toBe('unknown')
    expect(error.message).toContain('got no answer')
    expect(error.message).toContain(
      'it may have reached the service (outcome unknown): check whether a write took effect before sending it again',
    )
  })

  it('a GET of unknown outcome is still retried automatically', async () => {
    let requests = 0
    const baseUrl = await tcpServer((socket) =>
      socket.once('data', () => {
        requests++
        socket.destroy()
      }),
    )
    const error = await rejection(real(baseUrl, { maxRetries: 1 }).whm.usage())
    expect(error.outcome).toBe('unknown')
    expect(requests).toBe(2)
  })

  it('a timeout after sending: TimeoutError, outcome unknown', async () => {
    // Reads the request, never answers.
    const baseUrl = await tcpServer((socket) => socket.resume())
    const error = await rejection(real(baseUrl, { timeoutMs: 50 }).hosting.create(501, BODY))
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error.outcome).toBe('unknown')
    expect(error.message).toContain('timed out after 50 ms; it may have reached the service')
  })

  it("a fetch that rejects without saying why (a browser's, a mock's dropped answer)", async () => {
    for (const thrown of [
      new TypeError('Failed to fetch'),
      new TypeError('fetch failed: the mock dropped the connection without an answer (a drop fault)'),
    ]) {
      const { api } = setup(
        () => {
          throw thrown
        },
        { maxRetries: 0 },
      )
      const error = await rejection(api.tickets.create({ subject: 'S', message: 'M', department: 'sales' }))
      expect(error.outcome).toBe('unknown')
    }
  })

  it('an answer cut short after its status line', async () => {
    const { api } = setup(
      () =>
        new Response(
          new ReadableStream({
            start(c) {
              c.enqueue(new TextEncoder().encode('{"success":true,"da'))
              c.error(new TypeError('terminated'))
            },
          }),
          { status: 201 },
        ),
      { maxRetries: 0 },
    )
    const error = await rejection(api.hosting.create(501, BODY))
    expect(error.outcome).toBe('unknown')
    expect(error.message).toContain('the answer was cut short; it may have reached the service')
  })
})

describe('retries', () => {
  it('a POST is not repeated even when it surely was not sent', async () => {
    let calls = 0
    const { api } = setup(
      () => {
        calls++
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }),
        })
      },
      { maxRetries: 3 },
    )
    expect((await rejection(api.hosting.create(501, BODY))).outcome).toBe('not_sent')
    expect(calls).toBe(1)
  })

  it('an error built without an outcome reads unknown (the safe reading)', () => {
    expect(new ConnectionError({ method: 'POST', url: 'https://x.test/', message: 'm' }).outcome).toBe(
      'unknown',
    )
    expect(
      new TimeoutError({ method: 'GET', url: 'https://x.test/', message: 'm', timeoutMs: 1 }).outcome,
    ).toBe('unknown')
  })
})

describe("a client pointed at the mock's default base URL without the mock's fetch", () => {
  /** What undici's fetch throws for a name that does not resolve (`api.reseller.test` never does). */
  function unresolvedFetch(): Promise<Response> {
    const lookup = Object.assign(new Error('getaddrinfo ENOTFOUND api.reseller.test'), { code: 'ENOTFOUND' })
    return Promise.reject(new TypeError('fetch failed', { cause: lookup }))
  }

  it('says to pass fetch: mock.fetch or to run the standalone mock', async () => {
    const api = new ResellerApi({
      apiKey: LIVE_KEY,
      baseUrl: 'https://api.reseller.test',
      fetch: unresolvedFetch,
    })
    const error = await rejection(api.whm.usage())
    expect(error.outcome).toBe('not_sent')
    expect(error.message).toContain('ENOTFOUND api.reseller.test')
    expect(error.message).toContain('(the mock: pass fetch: mock.fetch, or run reseller-mock)')
  })

  it('says nothing of the mock for another host', async () => {
    const api = new ResellerApi({
      apiKey: LIVE_KEY,
      baseUrl: 'https://api.example.test',
      fetch: unresolvedFetch,
    })
    const error = await rejection(api.whm.usage())
    expect(error.message).not.toContain('mock')
  })
})
