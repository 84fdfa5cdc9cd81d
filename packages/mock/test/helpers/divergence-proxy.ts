/**
 * A stand-in for "the real service" in fidelity tests: a `node:http` proxy in front of a mock that
 * forwards every request unchanged and answers with the mock's answer, except where a planted
 * divergence rewrites it (status, headers, JSON body).
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

/** An answer as a divergence may rewrite it. */
export interface ProxiedAnswer {
  status: number
  headers: Record<string, string>
  body: unknown
}

/** A change to the answers of the requests it matches. */
export interface Divergence {
  method?: string
  /** Matched against the path and query (`/api/v1/support/tickets?page=1`). */
  path: RegExp
  /** Only requests sent with this key prefix (e.g. `svc_test_`). */
  keyPrefix?: string
  rewrite(answer: ProxiedAnswer): void
}

/** The running proxy: its URL, the divergences in force, and how many requests it forwarded by method. */
export interface DivergenceProxy {
  url: string
  divergences: Divergence[]
  methods: Map<string, number>
  close(): Promise<void>
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** Starts the proxy on a free loopback port, forwarding to `upstream` (a base URL). */
export async function startDivergenceProxy(upstream: string): Promise<DivergenceProxy> {
  const divergences: Divergence[] = []
  const methods = new Map<string, number>()
  const server = createServer(async (request, response) => {
    try {
      const method = request.method ?? 'GET'
      methods.set(method, (methods.get(method) ?? 0) + 1)
      const path = request.url ?? '/'
      const body = await readBody(request)
      const headers = new Headers()
      for (const name of ['authorization', 'content-type', 'accept']) {
        const value = request.headers[name]
        if (typeof value === 'string') headers.set(name, value)
      }
      const answer = await fetch(`${upstream}${path}`, {
        method,
        headers,
        ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
      })
      const proxied: ProxiedAnswer = { status: answer.status, headers: {}, body: null }
      answer.headers.forEach((value, name) => {
        if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name))
          proxied.headers[name] = value
      })
      const text = await answer.text()
      proxied.body = text === '' ? null : JSON.parse(text)
      const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '')
      for (const d of divergences) {
        if (d.method !== undefined && d.method !== method) continue
        if (d.keyPrefix !== undefined && !key.startsWith(d.keyPrefix)) continue
        if (d.path.test(path)) d.rewrite(proxied)
      }
      const out = proxied.body === null ? '' : JSON.stringify(proxied.body)
      response.writeHead(proxied.status, { ...proxied.headers, 'content-length': Buffer.byteLength(out) })
      response.end(out)
    } catch (error) {
      response.writeHead(502, { 'content-type': 'text/plain' })
      response.end(String(error))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    divergences,
    methods,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
