/**
 * HTTP edge cases of the standalone server, sent as raw bytes (node:net) so that nothing on the
 * client side tidies them up: two Host headers, absolute-form request targets, cross-site browser
 * requests to the API (refused before they are journaled), and the allowed origins' CORS answers.
 */
import { connect } from 'node:net'
import { ErrorBody } from '@reseller-api/sdk/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi, type MockApi } from '../../src/node.js'
import { assertBuilt, runCli, startCli } from '../helpers/cli.js'

const KEY = 'svc_live_acme_full'

interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** Sends `head` (request line and headers, CRLF-separated, no final blank line) and reads the answer. */
function send(port: number, head: string[], body = ''): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      const lines = [...head, 'Connection: close']
      if (body !== '') lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
      socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`)
    })
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const end = text.indexOf('\r\n\r\n')
      const [statusLine, ...headerLines] = text.slice(0, end).split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of headerLines) {
        const colon = line.indexOf(':')
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
      }
      resolve({ status: Number(statusLine?.split(' ')[1]), headers, body: text.slice(end + 4) })
    })
  })
}

function expectError(answer: RawAnswer, status: number, code: string) {
  expect(answer.status, answer.body).toBe(status)
  const body = JSON.parse(answer.body)
  expect(ErrorBody.safeParse(body).success).toBe(true)
  expect(body.error.code).toBe(code)
}

describe('mock.listen(): HTTP edge cases', () => {
  let mock: MockApi
  let server: Awaited<ReturnType<MockApi['listen']>>
  beforeAll(async () => {
    mock = createMockApi()
    server = await mock.listen({ port: 0 })
  })
  afterAll(async () => {
    await server.close()
    mock.clock.stop()
  })
  const port = () => server.port

  it('two Host headers answer 400 bad_request with the envelope, whatever their values', async () => {
    for (const [first, second] of [
      ['localhost', 'evil.test'],
      ['evil.test', 'localhost'],
      ['localhost', 'localhost'],
    ]) {
      mock.requests.clear()
      const answer = await send(port(), [
        'GET /api/v1/support/tickets HTTP/1.1',
        `Host: ${first}`,
        `Host: ${second}`,
        `Authorization: Bearer ${KEY}`,
      ])
      expectError(answer, 400, 'bad_request')
      expect(JSON.parse(answer.body).error.message).toMatch(/2 Host headers/)
      expect(mock.requests.list()).toEqual([])
    }
    // One Host header is served.
    const one = await send(port(), [
      'GET /api/v1/support/tickets HTTP/1.1',
      'Host: localhost',
      `Authorization: Bearer ${KEY}`,
    ])
    expect(one.status).toBe(200)
  })

  it("an absolute-form target's authority is judged like Host", async () => {
    mock.requests.clear()
    const evil = await send(port(), [
      `GET http://evil.test/api/v1/support/tickets HTTP/1.1`,
      'Host: localhost',
      `Authorization: Bearer ${KEY}`,
    ])
    expectError(evil, 403, 'forbidden_host')
    expect(JSON.parse(evil.body).error.message).toContain('evil.test')
    const evilState = await send(port(), ['GET http://evil.test:80/__mock/state HTTP/1.1', 'Host: localhost'])
    expectError(evilState, 403, 'forbidden_host')
    expect(mock.requests.list()).toEqual([])

    const own = await send(port(), [
      `GET http://localhost:${port()}/api/v1/support/tickets?page=1 HTTP/1.1`,
      `Host: localhost:${port()}`,
      `Authorization: Bearer ${KEY}`,
    ])
    expect(own.status, own.body).toBe(200)
    expect(mock.requests.list().map((e) => e.path)).toEqual(['/api/v1/support/tickets?page=1'])
  })

  it('a target that is neither a path nor an http URL answers 400', async () => {
    for (const target of ['*', 'ftp://localhost/api/v1/support/tickets', 'http:nothing']) {
      expectError(await send(port(), [`GET ${target} HTTP/1.1`, 'Host: localhost']), 400, 'bad_request')
    }
  })

  it('cross-site browser requests to /api/ get 403 cross_origin and are not journaled', async () => {
    mock.requests.clear()
    const before = JSON.stringify(mock.state())
    const cases: string[][] = [
      // A keyless simple request from any page: it used to cost a journal entry.
      ['POST /api/v1/support/tickets HTTP/1.1', 'Origin: https://evil.example', 'Content-Type: text/plain'],
      ['GET /api/v1/support/tickets HTTP/1.1', 'Origin: null'],
      ['GET /api/v1/support/tickets HTTP/1.1', 'Sec-Fetch-Site: cross-site'],
      // Same site, other port: a different origin all the same.
      [
        'GET /api/v1/support/tickets HTTP/1.1',
        'Origin: http://localhost:5173',
        `Authorization: Bearer ${KEY}`,
      ],
      [
        'OPTIONS /api/v1/support/tickets HTTP/1.1',
        'Origin: https://evil.example',
        'Access-Control-Request-Method: GET',
      ],
    ]
    for (const [line, ...headers] of cases) {
      const answer = await send(
        port(),
        [line!, `Host: 127.0.0.1:${port()}`, ...headers],
        line!.startsWith('POST') ? '{}' : '',
      )
      expectError(answer, 403, 'cross_origin')
      expect(JSON.parse(answer.body).error.message).toMatch(/^the API answers pages of their own origin only/)
      expect(answer.headers['access-control-allow-origin']).toBeUndefined()
    }
    expect(mock.requests.list()).toEqual([])
    expect(JSON.stringify(mock.state())).toBe(before)
  })

  it('requests without Origin (curl, SDKs) and same-origin pages are served and journaled', async () => {
    mock.requests.clear()
    const host = `127.0.0.1:${port()}`
    const keyless = await send(port(), ['GET /api/v1/support/tickets HTTP/1.1', `Host: ${host}`])
    expectError(keyless, 401, 'unauthenticated')
    for (const headers of [
      [],
      [`Origin: http://${host}`],
      ['Sec-Fetch-Site: same-site'],
      ['Sec-Fetch-Site: same-origin', `Origin: http://${host}`],
    ]) {
      const answer = await send(port(), [
        'GET /api/v1/support/tickets HTTP/1.1',
        `Host: ${host}`,
        `Authorization: Bearer ${KEY}`,
        ...headers,
      ])
      expect(answer.status, headers.join()).toBe(200)
    }
    expect(mock.requests.list().map((e) => e.status)).toEqual([401, 200, 200, 200, 200])
  })
})

describe('allowedOrigins / --allowed-origin', { timeout: 30_000 }, () => {
  let mock: MockApi
  let server: Awaited<ReturnType<MockApi['listen']>>
  const APP = 'http://localhost:5173'
  beforeAll(async () => {
    mock = createMockApi()
    server = await mock.listen({ port: 0, allowedOrigins: [`${APP}/`, 'https://App.Example.test'] })
  })
  afterAll(async () => {
    await server.close()
    mock.clock.stop()
  })

  it("an allowed origin's preflight gets 204 with CORS headers, and is not journaled", async () => {
    const answer = await send(server.port, [
      'OPTIONS /api/v1/support/tickets HTTP/1.1',
      `Host: 127.0.0.1:${server.port}`,
      `Origin: ${APP}`,
      'Access-Control-Request-Method: POST',
      'Access-Control-Request-Headers: authorization, content-type',
    ])
    expect(answer.status).toBe(204)
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': APP,
      'access-control-allow-headers': 'authorization, content-type',
      vary: 'Origin',
    })
    expect(answer.headers['access-control-allow-methods']).toContain('POST')
    expect(mock.requests.list()).toEqual([])
  })

  it("an allowed origin's requests are served, cross-site too, with readable ids", async () => {
    mock.requests.clear()
    for (const [origin, site] of [
      [APP, 'same-site'],
      ['https://app.example.test', 'cross-site'],
    ]) {
      const answer = await send(server.port, [
        'GET /api/v1/support/tickets HTTP/1.1',
        `Host: 127.0.0.1:${server.port}`,
        `Origin: ${origin}`,
        `Sec-Fetch-Site: ${site}`,
        `Authorization: Bearer ${KEY}`,
      ])
      expect(answer.status, answer.body).toBe(200)
      expect(answer.headers['access-control-allow-origin']).toBe(origin)
      expect(answer.headers['access-control-expose-headers']).toContain('x-request-id')
    }
    expect(mock.requests.list()).toHaveLength(2)
    // Other origins are still refused, and a cross-site request without Origin too.
    for (const header of ['Origin: http://localhost:3000', 'Sec-Fetch-Site: cross-site']) {
      expectError(
        await send(server.port, ['GET /api/v1/support/tickets HTTP/1.1', 'Host: localhost', header]),
        403,
        'cross_origin',
      )
    }
  })

  it('a value that is not an origin rejects listen()', async () => {
    for (const bad of ['localhost:5173', 'http://app.test/path', 'null', 'ftp://app.test']) {
      await expect(createMockApi().listen({ port: 0, allowedOrigins: [bad] }), bad).rejects.toThrow(
        /is not an origin/,
      )
    }
  })

  it('the CLI takes --allowed-origin repeatedly and refuses a bad one', async () => {
    assertBuilt()
    const bad = await runCli(['--port', '0', '--allowed-origin', 'localhost:5173'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--allowed-origin needs an origin/)
    const run = await startCli([
      '--port',
      '0',
      '--quiet',
      '--allowed-origin',
      APP,
      '--allowed-origin',
      'https://b.test',
    ])
    try {
      const port = Number(new URL(run.url).port)
      for (const origin of [APP, 'https://b.test']) {
        const answer = await send(port, [
          'GET /api/v1/support/tickets HTTP/1.1',
          'Host: localhost',
          `Origin: ${origin}`,
          `Authorization: Bearer ${KEY}`,
        ])
        expect(answer.status, answer.body).toBe(200)
        expect(answer.headers['access-control-allow-origin']).toBe(origin)
      }
      expectError(
        await send(port, [
          'GET /api/v1/support/tickets HTTP/1.1',
          'Host: localhost',
          'Origin: https://c.test',
        ]),
        403,
        'cross_origin',
      )
    } finally {
      run.child.kill('SIGTERM')
      await run.exited
    }
  })
})
