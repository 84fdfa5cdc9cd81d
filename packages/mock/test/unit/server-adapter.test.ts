import { Agent, request as httpRequest } from 'node:http'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { MockHandler, MockRequest } from '../../src/routing/types.js'
import { listen, type RunningServer } from '../../src/server/http/listen.js'

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function start(handle: MockHandler, options: Parameters<typeof listen>[1] = {}) {
  const server = await listen(handle, options)
  servers.push(server)
  return server
}

const echo: MockHandler = async (req: MockRequest) => ({
  status: req.method === 'POST' ? 201 : 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    method: req.method,
    path: req.path,
    query: Object.fromEntries(req.query),
    auth: req.headers.get('Authorization'),
    body: req.body,
    text: 'héllo ✓',
  }),
})

describe('listen(): the node:http adapter', () => {
  it('builds the MockRequest from the incoming request and answers with an exact Content-Length', async () => {
    const server = await start(echo)
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const res = await fetch(`${server.url}/api/v1/x/y?page=2&a=b`, {
      method: 'POST',
      headers: { authorization: 'Bearer svc_live_k', 'content-type': 'application/json' },
      body: '{"a":"é"}',
    })
    expect(res.status).toBe(201)
    const text = await res.text()
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text))
    expect(JSON.parse(text)).toEqual({
      method: 'POST',
      path: '/api/v1/x/y',
      query: { page: '2', a: 'b' },
      auth: 'Bearer svc_live_k',
      body: '{"a":"é"}',
      text: 'héllo ✓',
    })
  })

  it('keeps connections alive between requests', async () => {
    const server = await start(echo)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const get = () =>
      new Promise<{ reused: boolean; status: number }>((resolve, reject) => {
        const req = httpRequest(`${server.url}/a`, { agent }, (res) => {
          res.resume()
          res.on('end', () => resolve({ reused: req.reusedSocket, status: res.statusCode ?? 0 }))
        })
        req.on('error', reject)
        req.end()
      })
    const first = await get()
    const second = await get()
    agent.destroy()
    expect(first).toEqual({ reused: false, status: 200 })
    expect(second).toEqual({ reused: true, status: 200 })
  })

  it('logs one line per request: method, path with query, status, milliseconds', async () => {
    const lines: string[] = []
    const server = await start(echo, { log: (line) => lines.push(line) })
    await (await fetch(`${server.url}/api/v1/support/tickets?page=1`)).text()
    await (await fetch(`${server.url}/x`, { method: 'POST', body: '{}' })).text()
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^GET \/api\/v1\/support\/tickets\?page=1 200 \d+\.\dms$/)
    expect(lines[1]).toMatch(/^POST \/x 201 \d+\.\dms$/)
  })

  it('redacts a credential sent in the query string from the log line, as the journal does', async () => {
    const lines: string[] = []
    const server = await start(echo, { log: (line) => lines.push(line) })
    await (await fetch(`${server.url}/api/v1/support/tickets?page=2&api_key=svc_live_x&token=t`)).text()
    expect(lines[0]).toMatch(
      /^GET \/api\/v1\/support\/tickets\?page=2&api_key=\[redacted\]&token=\[redacted\] 200 /,
    )
    expect(lines.join('\n')).not.toContain('svc_live_x')
  })

  it('awaits onMutation before answering a mutating request, and not for reads', async () => {
    const events: string[] = []
    const server = await start(
      async (req) => {
        events.push(`handle ${req.method}`)
        return { status: 200, headers: {}, body: 'ok' }
      },
      {
        onMutation: async () => {
          await new Promise((r) => setTimeout(r, 30))
          events.push('saved')
        },
      },
    )
    await (await fetch(`${server.url}/a`)).text()
    await (await fetch(`${server.url}/a`, { method: 'PATCH' })).text()
    events.push('answered')
    expect(events).toEqual(['handle GET', 'handle PATCH', 'saved', 'answered'])
  })

  it('answers 500 internal_error when the change cannot be saved, and when the handler throws', async () => {
    const server = await start(
      async (req) => {
        if (req.path === '/boom') throw new Error('kaput')
        return { status: 201, headers: {}, body: '{}' }
      },
      {
        onMutation: async () => {
          throw new Error('disk full')
        },
      },
    )
    const saved = await fetch(`${server.url}/a`, { method: 'POST' })
    expect(saved.status).toBe(500)
    expect(await saved.json()).toMatchObject({
      success: false,
      error: { code: 'internal_error', message: expect.stringContaining('disk full') },
    })
    const boom = await fetch(`${server.url}/boom`)
    expect(boom.status).toBe(500)
    expect(await boom.json()).toMatchObject({ error: { code: 'internal_error' } })
  })

  it('refuses a body over the limit with 413', async () => {
    const server = await start(echo, { maxBodyBytes: 10 })
    const res = await fetch(`${server.url}/a`, { method: 'POST', body: 'x'.repeat(11) })
    expect(res.status).toBe(413)
    await res.text()
  })

  it('closes promptly even with an idle keep-alive socket open', async () => {
    const server = await listen(echo)
    const agent = new Agent({ keepAlive: true })
    await new Promise<void>((resolve) => {
      httpRequest(`${server.url}/a`, { agent }, (res) => {
        res.resume()
        res.on('end', () => resolve())
      }).end()
    })
    // With setTimeout faked, close()'s forced cut after its grace period never comes: close()
    // resolves only if it ends the idle socket itself.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      await server.close()
    } finally {
      vi.useRealTimers()
    }
    agent.destroy()
  })

  it('rejects with a clear error when the port is taken', async () => {
    const first = await start(echo)
    const port = Number(new URL(first.url).port)
    await expect(listen(echo, { port })).rejects.toThrow(`port already in use: 127.0.0.1:${port}`)
  })
})
