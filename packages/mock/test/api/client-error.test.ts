/**
 * Errors of Node's HTTP parser get the spec's error envelope (not an empty body)
 * while the connection allows an answer. Raw `node:net` sockets: no HTTP client sends these.
 */
import { createServer, type Server } from 'node:http'
import { connect } from 'node:net'
import { ErrorBody } from '@reseller-api/sdk/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi } from '../../src/node.js'
import { answerClientError } from '../../src/server/http/client-error.js'
import type { RunningServer } from '../../src/server/http/listen.js'

/** Writes `bytes` to the server and collects everything it answers until it closes the connection. */
function exchange(port: number, bytes: string | Buffer, endAfterWrite = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')))
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve(Buffer.concat(chunks).toString('latin1')) : reject(error),
    )
    socket.setTimeout(10_000, () => socket.destroy(new Error('no close within 10 s')))
    socket.write(bytes)
    if (endAfterWrite) socket.end()
  })
}

/** Status, headers (lower-case names) and parsed JSON body of a raw HTTP/1.1 answer. */
function parse(text: string) {
  const split = text.indexOf('\r\n\r\n')
  const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n')
  const headers = Object.fromEntries(
    headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  )
  const body = text.slice(split + 4)
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) }
}

function expectEnvelope(text: string, status: number, code: string) {
  expect(text, 'an answer, not a bare close').not.toBe('')
  const answer = parse(text)
  expect(answer.status).toBe(status)
  expect(answer.headers['content-type']).toBe('application/json')
  expect(answer.headers.connection).toBe('close')
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(answer.body)))
  expect(ErrorBody.safeParse(answer.body).success).toBe(true)
  expect(answer.body.error.code).toBe(code)
  expect(answer.body.error.message.length).toBeGreaterThan(10)
}

describe('the standalone server answers parser errors with the envelope', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await createMockApi().listen({ port: 0 })
  })
  afterAll(() => server.close())

  it.each([
    ['a malformed request line', 'GARBAGE\r\n\r\n'],
    ['a bad HTTP version', 'GET / HTTP/9.9\r\nHost: localhost\r\n\r\n'],
    ['a header without a colon', 'GET /api/v1/services HTTP/1.1\r\nHost: localhost\r\nnot a header\r\n\r\n'],
    ['HTTP/1.1 without Host', 'GET /__mock/state HTTP/1.1\r\n\r\n'],
    [
      'a bad chunk size',
      'POST /__mock/reset HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ],
    [
      'both Content-Length and chunked',
      'POST /__mock/reset HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
  ])('%s → 400 bad_request', async (_, bytes) => {
    expectEnvelope(await exchange(server.port, bytes), 400, 'bad_request')
  })

  it('headers larger than Node accepts → 431 headers_too_large', async () => {
    const bytes = `GET /api/v1/services HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`
    expectEnvelope(await exchange(server.port, bytes), 431, 'headers_too_large')
  })

  it('a parser error after a complete answer on the same connection still gets its own answer', async () => {
    const text = await exchange(
      server.port,
      'GET /__mock/clock HTTP/1.1\r\nHost: localhost\r\n\r\nGARBAGE\r\n\r\n',
    )
    const second = text.indexOf('HTTP/1.1 400')
    expect(text.startsWith('HTTP/1.1 200')).toBe(true)
    expect(second).toBeGreaterThan(0)
    expectEnvelope(text.slice(second), 400, 'bad_request')
  })

  it('a client that resets mid-request is not answered and the server keeps serving', async () => {
    await exchange(
      server.port,
      'POST /__mock/reset HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\nabc',
      true,
    )
    const answer = await fetch(`${server.url}/__mock/clock`)
    expect(answer.status).toBe(200)
  })
})

describe('a request that never finishes arriving → 408 request_timeout', () => {
  let server: Server
  let port: number
  beforeAll(async () => {
    // Node's own timeouts, shortened: the listener is the one the standalone server installs.
    server = createServer(
      { headersTimeout: 300, requestTimeout: 300, connectionsCheckingInterval: 50 },
      (_, res) => res.end('ok'),
    )
    server.on('clientError', answerClientError)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as { port: number }).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('half-sent headers are answered with the envelope', async () => {
    expectEnvelope(
      await exchange(port, 'GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: '),
      408,
      'request_timeout',
    )
  })
})
