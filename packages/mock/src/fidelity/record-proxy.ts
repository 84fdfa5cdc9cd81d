/**
 * The transparent proxy of `reseller-mock record`: every request goes to the upstream as it came
 * (only `Host` names the upstream), and the upstream's answer goes back as it came: status line,
 * raw headers in their order and case, body byte for byte. Each completed exchange is handed to
 * `onExchange` before the answer leaves, so a client that has its answer finds it recorded.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'

/** The upstream's answer, as it came. */
export interface UpstreamAnswer {
  status: number
  statusMessage: string
  /** Names and values alternating, as `IncomingMessage.rawHeaders`. */
  rawHeaders: string[]
  body: Buffer
}

/** One request and what became of it. */
export interface ProxiedExchange {
  /** When the request arrived. */
  at: Date
  method: string
  /** Path below the upstream's base URL, with its query. */
  path: string
  rawHeaders: string[]
  body: Buffer
  /** `null` when the upstream could not be reached; `error` says why. */
  answer: UpstreamAnswer | null
  error?: string
}

/** Options of {@link startRecordProxy}. */
export interface RecordProxyOptions {
  /** The upstream's base URL (`http://…` or `https://…`, with or without a path). */
  upstream: URL
  port: number
  host?: string
  /** Called once per exchange, before its answer is written. */
  onExchange: (exchange: ProxiedExchange) => void
  /** Told when `onExchange` throws (a cassette that cannot be written): the answer is sent all the same. */
  onError: (exchange: ProxiedExchange, error: Error) => void
}

/** A running proxy. */
export interface RecordProxy {
  url: string
  /** Stops accepting requests, waits for those under way (each recorded), then closes every connection. */
  close(): Promise<void>
}

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', reject)
  })
}

/** `rawHeaders` with `Host` naming the upstream: the one change a proxy must make. */
function forwardedHeaders(rawHeaders: string[], upstream: URL): string[] {
  const out: string[] = []
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'host') out.push(rawHeaders[i]!, upstream.host)
    else out.push(rawHeaders[i]!, rawHeaders[i + 1]!)
  }
  if (!out.some((_, i) => i % 2 === 0 && out[i]!.toLowerCase() === 'host')) out.unshift('Host', upstream.host)
  return out
}

/** Path and query of a request target, origin-form or absolute-form alike. */
function targetPath(url: string): string {
  if (url.startsWith('/')) return url
  try {
    const parsed = new URL(url)
    return `${parsed.pathname}${parsed.search}`
  } catch {
    return `/${url}`
  }
}

function forward(upstream: URL, method: string, path: string, headers: string[], body: Buffer) {
  const base = upstream.pathname.replace(/\/+$/, '')
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<UpstreamAnswer>((resolve, reject) => {
    const outgoing = send(
      {
        protocol: upstream.protocol,
        hostname: upstream.hostname.replace(/^\[|\]$/g, ''),
        port: upstream.port || undefined,
        method,
        path: `${base}${path}`,
        headers,
      },
      (incoming) => {
        readAll(incoming).then(
          (data) =>
            resolve({
              status: incoming.statusCode ?? 502,
              statusMessage: incoming.statusMessage ?? '',
              rawHeaders: incoming.rawHeaders,
              body: data,
            }),
          reject,
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

/** The answer of the proxy itself when the upstream cannot be reached: the API's error envelope. */
function unreachable(response: ServerResponse, message: string): void {
  const body = JSON.stringify({ success: false, error: { code: 'upstream_unreachable', message } })
  response.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  response.end(body)
}

/** Starts the proxy on `host:port` (`port` 0: a free one). */
export async function startRecordProxy(options: RecordProxyOptions): Promise<RecordProxy> {
  const { upstream } = options
  const onExchange = (exchange: ProxiedExchange) => {
    try {
      options.onExchange(exchange)
    } catch (error) {
      options.onError(exchange, error as Error)
    }
  }
  const underWay = new Set<Promise<void>>()

  async function serve(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const at = new Date()
    const method = incoming.method ?? 'GET'
    const path = targetPath(incoming.url ?? '/')
    const body = await readAll(incoming)
    const headers = forwardedHeaders(incoming.rawHeaders, upstream)
    let answer: UpstreamAnswer
    try {
      answer = await forward(upstream, method, path, headers, body)
    } catch (error) {
      const message = `the upstream ${upstream.origin} could not be reached: ${(error as Error).message}`
      onExchange({ at, method, path, rawHeaders: incoming.rawHeaders, body, answer: null, error: message })
      unreachable(response, message)
      return
    }
    onExchange({ at, method, path, rawHeaders: incoming.rawHeaders, body, answer })
    // The upstream's Date, not ours; its headers as sent, in their order and case.
    response.sendDate = false
    response.writeHead(answer.status, answer.statusMessage, answer.rawHeaders)
    response.end(answer.body)
  }

  const server = createServer((incoming, response) => {
    const task = serve(incoming, response).catch((error: Error) => {
      if (!response.headersSent) unreachable(response, `the proxy failed: ${error.message}`)
      else response.destroy()
    })
    underWay.add(task)
    task.finally(() => underWay.delete(task))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      await Promise.allSettled([...underWay])
      server.closeAllConnections()
      await closed
    },
  }
}
