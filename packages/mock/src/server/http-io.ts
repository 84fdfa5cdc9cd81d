/**
 * The node:http side of one request: its headers as the core reads them, its body within a size
 * limit, and an answer written with an exact `Content-Length`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError } from '../errors.js'
import { renderError } from '../routing/errors.js'
import type { MockRequest, MockResponse } from '../routing/types.js'

/** The API's error envelope, rendered where every other error answer is. */
export function errorAnswer(
  status: number,
  code: 'validation_error' | 'internal_error' | 'bad_request',
  message: string,
): MockResponse {
  return renderError(new ApiError(status, code, message))
}

export function headerReader(req: IncomingMessage): MockRequest['headers'] {
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
export function readBody(req: IncomingMessage, max: number): Promise<string | null> {
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

export function send(res: ServerResponse, answer: MockResponse, extra?: Record<string, string>): void {
  // Already answered by the parser-error path (client-error.ts), or the client is gone.
  if (res.headersSent || res.destroyed) return
  const headers: Record<string, string | number> = extra
    ? { ...answer.headers, ...extra }
    : { ...answer.headers }
  headers['content-length'] = Buffer.byteLength(answer.body)
  res.writeHead(answer.status, headers)
  res.end(answer.body)
}
