/**
 * The CLI's early ready line (server/http/early.ts): a server that listens before its mock is
 * made. Requests that come before `listen` adopts it wait and are answered by the mock, in order;
 * none gets an answer of a half-made server.
 */
import { connect } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { MockHandler } from '../../src/routing/types.js'
import { listenEarly } from '../../src/server/http/early.js'
import { listen, type RunningServer } from '../../src/server/http/listen.js'

const servers: { close(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

const echo: MockHandler = async (req) => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ path: req.path, body: req.body || null }),
})

describe('listenEarly(): a server whose mock comes later', () => {
  it('keeps requests that come before the mock, then answers them with it, in order', async () => {
    const early = await listenEarly('127.0.0.1', 0)
    servers.push(early)
    expect(early.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const first = fetch(`${early.url}/api/v1/first`)
    const second = fetch(`${early.url}/api/v1/second`, { method: 'POST', body: '{"a":1}' })
    await vi.waitFor(() => expect(early.waiting).toBe(2))
    const running: RunningServer = await listen(echo, { host: '127.0.0.1' }, undefined, undefined, early)
    expect(running.url).toBe(early.url)
    expect(early.waiting).toBe(0)
    expect(await (await first).json()).toEqual({ path: '/api/v1/first', body: null })
    expect(await (await second).json()).toEqual({ path: '/api/v1/second', body: '{"a":1}' })
    // Served by the mock from now on.
    const later = await fetch(`${early.url}/api/v1/later`)
    expect(await later.json()).toEqual({ path: '/api/v1/later', body: null })
  })

  it("answers a malformed request that came before the mock with the mock's envelope", async () => {
    const early = await listenEarly('127.0.0.1', 0)
    servers.push(early)
    const { port } = new URL(early.url)
    const socket = connect(Number(port), '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk
    })
    const closed = new Promise((resolve) => socket.on('close', resolve))
    socket.write('GET /api/v1 HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n')
    await vi.waitFor(() => expect(early.waiting).toBe(1))
    await listen(echo, { host: '127.0.0.1' }, undefined, undefined, early)
    await closed
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(answer).toContain('"success":false')
  })

  it('refuses a taken port as listen does', async () => {
    const early = await listenEarly('127.0.0.1', 0)
    servers.push(early)
    const { port } = new URL(early.url)
    await expect(listenEarly('127.0.0.1', Number(port))).rejects.toThrow(
      `port already in use: 127.0.0.1:${port}`,
    )
  })
})
