/**
 * The node:http side of one request: its headers as the core reads them, its body within a size
 * limit, and an answer written with an exact `Content-Length`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError } from '../../errors.js'
import { renderError } from '../../routing/errors.js'
import type { MockRequest, MockResponse } from '../../routing/types.js'

/** The API's error envelope, rendered where every other error answer is. */
export function errorAnswer(
  status: number,
  code: 'validation_error' | 'internal_error' | 'bad_request',
  message: string,
): MockResponse {
  return renderError(new ApiError(status, code, message))
}

/** Case-insensitive lookup over node:http's headers: one shared method, no closure per request. */
class HeaderReader {
  readonly #raw: IncomingMessage['headers']
  constructor(raw: IncomingMessage['headers']) {
    this.#raw = raw
  }
  get(name: string): string | null {
    // Callers name headers in lower case, as node:http keys them: lower-casing is the rare path.
    let value = this.#raw[name]
    if (value === undefined) {
      const lower = name.toLowerCase()
      if (lower !== name) value = this.#raw[lower]
    }
    if (value === undefined) return null
    return Array.isArray(value) ? value.join(', ') : value
  }
}

/**
 * A {@link MockRequest} read off node:http. Its `query` is parsed on first use: most reads
 * (a record by its key) carry no query, and the journal keeps the raw `search`.
 */
export class NodeRequest implements MockRequest {
  readonly method: string
  readonly path: string
  readonly search: string
  readonly headers: MockRequest['headers']
  readonly body: string
  #query: URLSearchParams | undefined
  /** `search` is the query string with its `?`, or `''`. */
  constructor(req: IncomingMessage, method: string, path: string, search: string, body: string) {
    this.method = method
    this.path = path
    this.search = search
    this.headers = new HeaderReader(req.headers)
    this.body = body
  }
  get query(): URLSearchParams {
    this.#query ??= new URLSearchParams(this.search)
    return this.#query
  }
}

/**
 * Reads the request body as UTF-8, or `null` when it is larger than `max` bytes. A request that
 * announces no body (no `Content-Length`, or 0, and no `Transfer-Encoding`) gets `''` at once.
 */
export function readBody(req: IncomingMessage, max: number): string | null | Promise<string | null> {
  const length = req.headers['content-length']
  const chunked = req.headers['transfer-encoding'] !== undefined
  if (!chunked && (length === undefined || length === '0')) return ''
  if (length !== undefined && Number(length) > max) return null
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

export function send(res: ServerResponse, answer: MockResponse, extra?: Record<string, string>): void {
  // Already answered by the parser-error path (client-error.ts), or the client is gone.
  if (res.headersSent || res.destroyed) return
  // A copy: the journal keeps `answer.headers` as the mock answered them, without the transport's.
  const headers: Record<string, string | number> = extra
    ? { ...answer.headers, ...extra }
    : { ...answer.headers }
  // Encoded once: its length is the Content-Length, and node:http writes the bytes as they are. A
  // cached record's bytes are kept with it, as long as they are still those of `body`.
  const { encoded } = answer
  let body: Uint8Array
  if (encoded !== undefined && encoded.text === answer.body) {
    encoded.bytes ??= Buffer.from(answer.body)
    body = encoded.bytes
  } else body = Buffer.from(answer.body)
  headers['content-length'] = body.length
  res.writeHead(answer.status, headers)
  res.end(body)
}
