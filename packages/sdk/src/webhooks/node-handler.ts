// The node:http adapter, also an Express (or Connect, Fastify-middie, Polka) middleware. It reads
// the raw body from the request stream itself; it imports nothing from node: and its types are
// structural, so neither @types/node nor @types/express is needed to use it.
import { type HmacBackend, isPayload, type Payload, SIGNATURE_HEADER } from './core.js'
import {
  concat,
  declaredLength,
  METHOD_NOT_ALLOWED,
  type Outcome,
  receive,
  resolveOptions,
  TOO_LARGE,
  UNREADABLE,
  type WebhookHandlerOptions,
} from './receive.js'

/**
 * What the handler needs of a request. `http.IncomingMessage` and Express's `Request` satisfy it.
 */
export interface NodeWebhookRequest {
  /** The HTTP method; anything but `POST` is answered 405. */
  readonly method?: string | undefined
  /** Lower-cased header names, as `node:http` gives them. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  /**
   * Set by a body parser placed before the handler. A `Buffer` or string (`express.raw()`,
   * `express.text()`) is used as the raw body; anything else means the raw bytes are gone.
   */
  readonly body?: unknown
  /** `true` once the body stream has been read to its end. */
  readonly readableEnded?: boolean
  /** Subscribes to the body stream. */
  on(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown
  /** Subscribes to the end of the body stream. */
  on(event: 'end' | 'close', listener: () => void): unknown
  /** Subscribes to stream errors, such as the client going away. */
  on(event: 'error', listener: (error: Error) => void): unknown
  /** Lets the rest of an oversized body flow (and be discarded) so the 413 can be delivered. */
  resume(): unknown
}

/** What the handler needs of a response. `http.ServerResponse` and Express's `Response` satisfy it. */
export interface NodeWebhookResponse {
  /** Whether the status line and headers have been written already. */
  readonly headersSent?: boolean
  /** Writes the status line and headers. */
  writeHead(statusCode: number, headers: Record<string, string>): unknown
  /** Writes the body and ends the response. */
  end(body: string): unknown
}

/**
 * Options of {@link createNodeHandler}: `onEvent` and `onError` also receive the request. Annotate
 * that parameter (`(event, req: IncomingMessage) => …`, or Express's `Request`) to get your
 * framework's request type there.
 */
export type NodeHandlerOptions<Req extends NodeWebhookRequest = NodeWebhookRequest> =
  WebhookHandlerOptions<Req>

/**
 * A `node:http` request listener that is also an Express middleware. It always answers the request
 * itself. It calls `next(error)` only when it cannot: the raw body is unavailable because a body
 * parser such as `express.json()` consumed it first (without `next`, answered 500), or writing the
 * response threw.
 */
export type NodeHandler<Req extends NodeWebhookRequest = NodeWebhookRequest> = (
  req: Req,
  res: NodeWebhookResponse,
  next?: (error?: unknown) => void,
) => void

const encoder = new TextEncoder()

/** Reads the request stream up to `max` bytes; `undefined` once it is larger. */
function readLimited(req: NodeWebhookRequest, max: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = []
    let size = 0
    let settled = false
    const settle = (value: Uint8Array | undefined, error?: Error) => {
      if (settled) return
      settled = true
      if (error) reject(error)
      else resolve(value)
    }
    req.on('data', (chunk) => {
      if (settled) return // over the limit: discard the rest as it flows past
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk
      size += bytes.byteLength
      if (size > max) {
        chunks.length = 0
        settle(undefined)
        return
      }
      chunks.push(bytes)
    })
    req.on('end', () => settle(concat(chunks, size)))
    req.on('error', (error) => settle(undefined, error))
    req.on('close', () => settle(undefined, new Error('the request closed before its body ended')))
  })
}

function send(res: NodeWebhookResponse, { status, text, headers }: Outcome): void {
  if (res.headersSent) return
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers })
  res.end(text)
}

function headerValue(value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) return value.length === 1 ? value[0] : value.join(', ')
  return value
}

const CONSUMED_MESSAGE =
  'createNodeHandler: the request body was already read by a body parser (such as express.json()), so ' +
  'the raw bytes the signature covers are gone. Mount the handler before any body parser, or use ' +
  "express.raw({ type: '*/*' }) for its route."

/** {@link createNodeHandler} over a given backend. */
export function createNodeHandlerWith<Req extends NodeWebhookRequest>(
  backend: HmacBackend,
  options: NodeHandlerOptions<Req>,
): NodeHandler<Req> {
  const resolved = resolveOptions(options, 'createNodeHandler')
  const max = resolved.maxBodyBytes

  async function handle(req: Req, res: NodeWebhookResponse, next?: (error?: unknown) => void) {
    if (req.method !== 'POST') return send(res, METHOD_NOT_ALLOWED)
    let body: Payload | undefined
    const parsed = req.body
    if (isPayload(parsed)) {
      body = parsed
      const size = typeof body === 'string' ? encoder.encode(body).byteLength : body.byteLength
      if (size > max) return send(res, TOO_LARGE)
    } else if (req.readableEnded === true) {
      const error = new Error(CONSUMED_MESSAGE)
      if (next) return next(error)
      return send(res, { status: 500, text: 'webhook handler misconfigured: raw body unavailable' })
    } else {
      const declared = declaredLength(headerValue(req.headers['content-length']))
      if (declared !== undefined && declared > max) {
        req.resume()
        return send(res, TOO_LARGE)
      }
      try {
        body = await readLimited(req, max)
      } catch {
        return send(res, UNREADABLE)
      }
      if (body === undefined) {
        req.resume()
        return send(res, TOO_LARGE)
      }
    }
    send(res, await receive(backend, resolved, body, headerValue(req.headers[SIGNATURE_HEADER]), req))
  }

  return (req, res, next) => {
    handle(req, res, next).catch((error: unknown) => {
      // Only a throwing `res` could get here; the answer is already lost.
      if (next) next(error)
    })
  }
}
