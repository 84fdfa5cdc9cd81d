// The Fetch API adapter: `Request` in, `Response` out. Hono, Next.js route handlers, Cloudflare
// Workers, Deno.serve, Bun.serve. No runtime-specific import.
import { type HmacBackend, SIGNATURE_HEADER } from './core.js'
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

/** Options of {@link createFetchHandler}: `onEvent` and `onError` also receive the `Request`. */
export type FetchHandlerOptions = WebhookHandlerOptions<Request>

/** A Fetch API handler: takes the delivery's `Request`, resolves the `Response` to send back. */
export type FetchHandler = (request: Request) => Promise<Response>

/** Reads at most `max` bytes; `undefined` when the body is larger (the rest is cancelled, not read). */
async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  max: number,
): Promise<Uint8Array | undefined> {
  if (body === null) return new Uint8Array(0)
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  return concat(chunks, size)
}

function toResponse({ status, text, headers }: Outcome): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } })
}

/** {@link createFetchHandler} over a given backend. */
export function createFetchHandlerWith(backend: HmacBackend, options: FetchHandlerOptions): FetchHandler {
  const resolved = resolveOptions(options, 'createFetchHandler')
  return async (request) => {
    if (request.method !== 'POST') return toResponse(METHOD_NOT_ALLOWED)
    const declared = declaredLength(request.headers.get('content-length'))
    if (declared !== undefined && declared > resolved.maxBodyBytes) return toResponse(TOO_LARGE)
    let body: Uint8Array | undefined
    try {
      body = await readLimited(request.body, resolved.maxBodyBytes)
    } catch {
      return toResponse(UNREADABLE)
    }
    if (body === undefined) return toResponse(TOO_LARGE)
    const signature = request.headers.get(SIGNATURE_HEADER)
    return toResponse(await receive(backend, resolved, body, signature, request))
  }
}
