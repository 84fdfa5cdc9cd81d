import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ApiError } from '../errors.js'
import { renderError } from '../routing/errors.js'
import type { MockHandler, MockRequest, MockResponse } from '../routing/types.js'
import { answerClientError } from './client-error.js'
import { createCors, parseAllowedOrigins } from './cors.js'
import { createGuard, readTarget } from './guard.js'

/** Options of the standalone HTTP server: `mock.listen()` and the `reseller-mock` CLI. */
export interface ListenOptions {
  /** TCP port; `0` (the default) takes a free one, read it back from `url`. */
  port?: number
  /** Interface to bind; default `127.0.0.1`. */
  host?: string
  /** Receives one line per answered request: `GET /api/v1/support/tickets?page=1 200 0.4ms`. */
  log?: (line: string) => void
  /**
   * Called after a mutating request (any method but GET, HEAD and OPTIONS) was handled and before
   * its answer is written: the write-through hook of the state file. If it rejects, the client
   * gets a 500 `internal_error` instead of an answer that would claim a change that was not saved.
   */
  onMutation?: () => Promise<void>
  /**
   * Called before answering a read (GET, HEAD, OPTIONS). The state file uses it so that a client
   * never sees a change made outside any request (a delivery attempt) before that change is saved.
   */
  onRead?: () => Promise<void> | undefined
  /** Largest request body accepted, in bytes; default 1 MiB. Larger bodies get 413. */
  maxBodyBytes?: number
  /**
   * Host names accepted in the `Host` header besides loopback names and addresses and the bound
   * address (CLI `--allowed-host`), with or without a port. Any other `Host` gets 403
   * `forbidden_host`: a page on another name that resolves to this machine (DNS rebinding) reads
   * nothing.
   */
  allowedHosts?: readonly string[]
  /**
   * Origins (`scheme://host[:port]`, CLI `--allowed-origin`) whose pages may call the server
   * from the browser: their requests pass the Origin rule, and their answers carry CORS headers
   * (preflights answered). Requests from any other origin to `/api/` or `/__mock/` get 403
   * `cross_origin`.
   */
  allowedOrigins?: readonly string[]
}

/** A running standalone server. */
export interface RunningServer {
  /** `http://host:port`, with the real port when `0` was asked. */
  url: string
  /** The bound port. */
  port: number
  /** Stops accepting connections, closes idle keep-alive sockets and resolves once in-flight requests are answered. */
  close(): Promise<void>
}

/**
 * What the standalone server serves beside the mock's handler: the inspector's page, its assets and
 * its event stream (server/inspector.ts). Internal: not part of {@link ListenOptions}.
 */
export interface ServerExtension {
  /** Answers the request itself when it is one of its own; returns `true` when it did. */
  serve(req: IncomingMessage, res: ServerResponse, path: string): boolean
  /** Called once the handler answered a request: a journal entry, maybe a change. */
  answered(method: string, path: string): void
  /** Whether the request log leaves this request out (the inspector page's own reads). */
  quiet(req: IncomingMessage): boolean
  /** Ends what holds connections open (event streams), so that `close()` does not wait for them. */
  close(): void
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const DEFAULT_MAX_BODY = 1024 * 1024
/** How long {@link RunningServer.close} lets in-flight requests finish before cutting their sockets. */
const CLOSE_GRACE_MS = 3000

/** The API's error envelope, rendered where every other error answer is. */
function errorAnswer(
  status: number,
  code: 'validation_error' | 'internal_error' | 'bad_request',
  message: string,
): MockResponse {
  return renderError(new ApiError(status, code, message))
}

function headerReader(req: IncomingMessage): MockRequest['headers'] {
  const raw = req.headers
  return {
    get(name: string) {
      const value = raw[name.toLowerCase()]
      if (value === undefined) return null
      return Array.isArray(value) ? value.join(', ') : value
    },
  }
}

/** Reads the request body as UTF-8, or `null` when it is larger than `max` bytes. */
function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  const length = req.headers['content-length']
  if (length === undefined && req.headers['transfer-encoding'] === undefined) return Promise.resolve('')
  if (length !== undefined && Number(length) > max) return Promise.resolve(null)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > max) tooLarge = true
      if (!tooLarge) chunks.push(chunk)
    })
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
    // A connection that ends short emits neither: without this the promise would wait forever.
    req.on('close', () => reject(new Error('the connection closed before the body arrived')))
  })
}

function send(res: ServerResponse, answer: MockResponse, extra?: Record<string, string>): void {
  // Already answered by the parser-error path (client-error.ts), or the client is gone.
  if (res.headersSent || res.destroyed) return
  const headers: Record<string, string | number> = extra
    ? { ...answer.headers, ...extra }
    : { ...answer.headers }
  headers['content-length'] = Buffer.byteLength(answer.body)
  res.writeHead(answer.status, headers)
  res.end(answer.body)
}

/**
 * Serves a {@link MockHandler} over `node:http`. The request is handed to the handler as plain
 * values built straight from the `IncomingMessage` (no WHATWG `Request`/`Response` on the hot
 * path), connections are kept alive, and every answer carries an exact `Content-Length`.
 */
export function listen(
  handle: MockHandler,
  options: ListenOptions = {},
  extension?: ServerExtension,
): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const onMutation = options.onMutation
  const onRead = options.onRead
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY
  // Before the server exists: a bad `allowedHosts` entry rejects `listen()` instead of serving.
  let guard: ReturnType<typeof createGuard>
  let cors: ReturnType<typeof createCors>
  try {
    guard = createGuard({
      boundHost: host,
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
    })
    cors = createCors(parseAllowedOrigins(options.allowedOrigins))
  } catch (error) {
    return Promise.reject(error)
  }

  const answer = async (req: IncomingMessage, url: string): Promise<MockResponse> => {
    const method = (req.method ?? 'GET').toUpperCase()
    const body = await readBody(req, maxBody)
    if (body === null)
      return errorAnswer(413, 'validation_error', `request body is larger than ${maxBody} bytes`)
    const q = url.indexOf('?')
    const request: MockRequest = {
      method,
      path: q === -1 ? url : url.slice(0, q),
      query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)),
      search: q === -1 ? '' : url.slice(q),
      headers: headerReader(req),
      body,
    }
    let response: MockResponse
    try {
      response = await handle(request)
    } catch (error) {
      return errorAnswer(
        500,
        'internal_error',
        `the mock failed to answer: ${(error as Error)?.message ?? error}`,
      )
    }
    const hook = READ_METHODS.has(method) ? onRead : onMutation
    if (hook) {
      try {
        await hook()
      } catch (error) {
        return errorAnswer(
          500,
          'internal_error',
          `the change could not be saved to the state file: ${(error as Error)?.message ?? error}`,
        )
      }
    }
    return response
  }

  // No `requireHostHeader`: the guard answers a Host-less HTTP/1.1 request with the envelope itself.
  const server = createServer({ keepAlive: true, requireHostHeader: false }, (req, res) => {
    const log = options.log && !extension?.quiet(req) ? options.log : undefined
    const started = log ? performance.now() : 0
    // Absolute-form targets (`GET http://host/path`) are legal HTTP/1.1: their path is served, their
    // authority judged like Host.
    const target = readTarget(req.url ?? '/')
    const url = target?.url ?? '/'
    const q = url.indexOf('?')
    const path = q === -1 ? url : url.slice(0, q)
    // Host and Origin checks come first: nothing, not even the inspector's page, is served before.
    const refused = target
      ? guard(req, path, target.authority)
      : errorAnswer(
          400,
          'bad_request',
          'the request target must be a path (/api/…) or an absolute http:// URL',
        )
    if (refused) {
      // The body is not read: the answer closes the connection rather than wait for it.
      res.shouldKeepAlive = false
      send(res, refused)
      if (log) log(`${req.method} ${url} ${refused.status} refused`)
      return
    }
    if (extension?.serve(req, res, path)) return
    const corsHeaders = cors.headersFor(req)
    if (corsHeaders && cors.isPreflight(req)) {
      send(res, cors.preflight(req, corsHeaders))
      return
    }
    answer(req, url).then(
      (response) => {
        if (response.noAnswer) {
          // A `drop` fault: the connection ends without a byte of answer, as a lost connection does.
          res.destroy()
          extension?.answered(req.method ?? 'GET', url)
          if (log) log(`${req.method} ${url} dropped ${(performance.now() - started).toFixed(1)}ms`)
          return
        }
        send(res, response, corsHeaders)
        extension?.answered(req.method ?? 'GET', url)
        if (log) log(`${req.method} ${url} ${response.status} ${(performance.now() - started).toFixed(1)}ms`)
      },
      (error: unknown) => {
        // Only reading the body can land here (the client went away mid-request).
        if (!res.headersSent && !res.destroyed) {
          send(
            res,
            errorAnswer(400, 'validation_error', `could not read the request: ${(error as Error)?.message}`),
          )
        }
      },
    )
  })

  server.on('clientError', answerClientError)

  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const where = `${host.includes(':') ? `[${host}]` : host}:${options.port ?? 0}`
      if (error.code === 'EADDRINUSE') {
        reject(Object.assign(new Error(`port already in use: ${where}`), { code: error.code }))
      } else if (error.code === 'EACCES') {
        reject(Object.assign(new Error(`no permission to listen on ${where}`), { code: error.code }))
      } else {
        reject(error)
      }
    }
    server.once('error', onError)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', onError)
      const { port } = server.address() as AddressInfo
      const shownHost = host.includes(':') ? `[${host}]` : host
      let closing: Promise<void> | undefined
      resolve({
        url: `http://${shownHost}:${port}`,
        port,
        close() {
          closing ??= new Promise<void>((done) => {
            extension?.close()
            const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS)
            force.unref()
            server.close(() => {
              clearTimeout(force)
              done()
            })
            server.closeIdleConnections()
          })
          return closing
        },
      })
    })
  })
}
