// The receiving adapters: createFetchHandler with real Request objects, createNodeHandler behind a
// real node:http server on 127.0.0.1, directly and the way Express calls middleware.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { describe, expect, expectTypeOf, it, vi } from 'vitest'
import * as api from '../src/webhooks/index.js'
import { useServer } from './helpers/webhook-server.js'
import { BINDING_LABEL } from './helpers/webhooks-binding.js'

const entries = [[BINDING_LABEL, api]] as const

const SECRET = 'whsec_adapters'
const event = {
  event: 'vps.activated',
  sandbox: true,
  timestamp: '2026-11-22T10:15:30Z',
  data: {
    client_id: 501,
    order_uuid: '6f1c2f0e-8d3a-4b7e-9c2d-1a2b3c4d5e6f',
    server_id: 42,
    ipv4: '203.0.113.10',
    status: 'active',
  },
}
const BODY = JSON.stringify(event)
const GOOD = await api.signPayload(BODY, SECRET)
const BAD = `sha256=${'0'.repeat(64)}`

describe.each(entries)('createFetchHandler (%s)', (_name, api) => {
  const post = (body: BodyInit | null, signature: string | null, init: RequestInit = {}) =>
    new Request('https://receiver.test/hooks', {
      method: 'POST',
      body,
      headers: signature === null ? {} : { [api.SIGNATURE_HEADER]: signature },
      ...init,
    })

  it('answers 200 once onEvent resolves, with the typed event and the request', async () => {
    const seen: unknown[] = []
    let finished = false
    const handler = api.createFetchHandler({
      secret: SECRET,
      onEvent: async (received, request) => {
        await new Promise((resolve) => setTimeout(resolve, 10))
        if (received.event === 'vps.activated') seen.push(received.data.ipv4, request.url)
        finished = true
      },
    })
    const response = await handler(post(BODY, GOOD))
    expect(finished).toBe(true)
    expect(response.status).toBe(200)
    expect(seen).toEqual(['203.0.113.10', 'https://receiver.test/hooks'])
  })

  it('reads a streamed body without content-length', async () => {
    const onEvent = vi.fn()
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(BODY)
        controller.enqueue(bytes.slice(0, 10))
        controller.enqueue(bytes.slice(10))
        controller.close()
      },
    })
    const response = await api.createFetchHandler({ secret: SECRET, onEvent })(
      post(stream, GOOD, { duplex: 'half' } as RequestInit),
    )
    expect(response.status).toBe(200)
    expect(onEvent).toHaveBeenCalledOnce()
  })

  it('answers 401 for a missing or wrong signature and never calls onEvent', async () => {
    const onEvent = vi.fn()
    const onError = vi.fn()
    const handler = api.createFetchHandler({ secret: SECRET, onEvent, onError })
    for (const signature of [null, '', BAD, GOOD.slice(0, -1), 'sha1=abc']) {
      const response = await handler(post(BODY, signature))
      expect(response.status).toBe(401)
      expect(await response.text()).toBe('invalid signature')
    }
    expect(await handler(post(`${BODY} `, GOOD)).then((r) => r.status)).toBe(401)
    expect(onEvent).not.toHaveBeenCalled()
    expect(onError).toHaveBeenCalledTimes(6)
    expect(api.isWebhookVerificationError(onError.mock.calls[0]![0])).toBe(true)
  })

  it('answers 400 naming the field for a signed body that is not an event', async () => {
    const onEvent = vi.fn()
    const handler = api.createFetchHandler({ secret: SECRET, onEvent })
    const body = JSON.stringify({ ...event, sandbox: 'yes' })
    const response = await handler(post(body, await api.signPayload(body, SECRET)))
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('sandbox: must be a boolean')
    const notJson = await handler(post('hello', await api.signPayload('hello', SECRET)))
    expect(notJson.status).toBe(400)
    expect(onEvent).not.toHaveBeenCalled()
  })

  it('answers 405 with Allow: POST for other methods', async () => {
    const handler = api.createFetchHandler({ secret: SECRET, onEvent: vi.fn() })
    for (const method of ['GET', 'PUT', 'HEAD']) {
      const response = await handler(new Request('https://receiver.test/hooks', { method }))
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toBe('POST')
    }
  })

  it('answers 413 for a body over maxBodyBytes, declared or streamed, without reading it all', async () => {
    const handler = api.createFetchHandler({ secret: SECRET, onEvent: vi.fn(), maxBodyBytes: 64 })
    const declared = await handler(post('x'.repeat(65), GOOD, { headers: { 'content-length': '65' } }))
    expect(declared.status).toBe(413)
    let pulled = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        controller.enqueue(new Uint8Array(16))
      },
    })
    const streamed = await handler(post(endless, GOOD, { duplex: 'half' } as RequestInit))
    expect(streamed.status).toBe(413)
    expect(pulled).toBeLessThan(10)
    const atLimit = api.createFetchHandler({ secret: SECRET, onEvent: vi.fn(), maxBodyBytes: BODY.length })
    expect((await atLimit(post(BODY, GOOD))).status).toBe(200)
  })

  it('answers 500 when onEvent throws, so the sender retries, and reports the error', async () => {
    const failure = new Error('database down')
    const onError = vi.fn()
    const handler = api.createFetchHandler({
      secret: SECRET,
      onEvent: () => {
        throw failure
      },
      onError,
    })
    const response = await handler(post(BODY, GOOD))
    expect(response.status).toBe(500)
    expect(await response.text()).not.toContain('database')
    expect(onError).toHaveBeenCalledWith(failure, expect.any(Request))
  })

  it('logs an onEvent failure with console.error when there is no onError', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const handler = api.createFetchHandler({
      secret: SECRET,
      onEvent: () => Promise.reject(new Error('boom')),
    })
    expect((await handler(post(BODY, GOOD))).status).toBe(500)
    expect(log).toHaveBeenCalledOnce()
    log.mockRestore()
  })

  it('refuses bad options when created, not on the first delivery', () => {
    const onEvent = vi.fn()
    expect(() => api.createFetchHandler({ secret: '', onEvent })).toThrow(/secret/)
    expect(() => api.createFetchHandler({ secret: undefined as unknown as string, onEvent })).toThrow(
      TypeError,
    )
    expect(() => api.createFetchHandler({ secret: 's', onEvent: undefined as never })).toThrow(/onEvent/)
    expect(() => api.createFetchHandler({ secret: 's', onEvent, maxBodyBytes: 0 })).toThrow(/maxBodyBytes/)
  })
})

/** Reads the whole body the way `express.raw()` / `express.json()` leave it in `req.body`. */
async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

describe.each(entries)('createNodeHandler (%s)', (_name, api) => {
  const server = useServer()

  it('is a node:http request listener (type-checked) that answers 200 after onEvent', async () => {
    const seen: string[] = []
    const handler = api.createNodeHandler({
      secret: SECRET,
      onEvent: async (received, req) => {
        if (received.event === 'vps.activated') seen.push(received.data.ipv4, String(req.method))
      },
    })
    // Assignable to http.createServer's listener: no @types/express, no cast.
    const asListener: (req: IncomingMessage, res: ServerResponse) => void = handler
    server.use(asListener)
    const response = await server.send(BODY, GOOD)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('ok')
    expect(seen).toEqual(['203.0.113.10', 'POST'])
  })

  it("gives onEvent the framework's request type when annotated, and stays a request listener", async () => {
    const urls: (string | undefined)[] = []
    const handler = api.createNodeHandler({
      secret: SECRET,
      onEvent: (_event, req: IncomingMessage) => {
        urls.push(req.url)
      },
    })
    expectTypeOf(handler).parameter(0).toEqualTypeOf<IncomingMessage>()
    server.use(handler)
    expect((await server.send(BODY, GOOD)).status).toBe(200)
    expect(urls).toEqual(['/hooks'])
  })

  it('answers 401, 400, 405 like the fetch handler', async () => {
    const onEvent = vi.fn()
    server.use(api.createNodeHandler({ secret: SECRET, onEvent }))
    expect((await server.send(BODY, BAD)).status).toBe(401)
    expect((await server.send(BODY, null)).status).toBe(401)
    expect((await server.send('[]', await api.signPayload('[]', SECRET))).status).toBe(400)
    const get = await server.send(null, null, { method: 'GET' })
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
    expect(onEvent).not.toHaveBeenCalled()
  })

  it('answers 500 when onEvent throws', async () => {
    const onError = vi.fn()
    server.use(
      api.createNodeHandler({
        secret: SECRET,
        onEvent: () => {
          throw new Error('nope')
        },
        onError,
      }),
    )
    expect((await server.send(BODY, GOOD)).status).toBe(500)
    expect(onError).toHaveBeenCalledOnce()
  })

  it('answers 413 for a declared content-length over the limit, and for a chunked body that grows over it', async () => {
    server.use(api.createNodeHandler({ secret: SECRET, onEvent: vi.fn(), maxBodyBytes: 1024 }))
    expect((await server.send('x'.repeat(2048), GOOD)).status).toBe(413)
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(600))
        controller.enqueue(new Uint8Array(600))
        controller.close()
      },
    })
    const response = await server.send(chunked, GOOD, { duplex: 'half' } as RequestInit)
    expect(response.status).toBe(413)
    // The server still serves the next delivery.
    server.use(api.createNodeHandler({ secret: SECRET, onEvent: vi.fn() }))
    expect((await server.send(BODY, GOOD)).status).toBe(200)
  })

  it('works as Express middleware with no body parser in front (called as (req, res, next))', async () => {
    const next = vi.fn()
    const handler = api.createNodeHandler({ secret: SECRET, onEvent: vi.fn() })
    server.use((req, res) => handler(req, res, next))
    expect((await server.send(BODY, GOOD)).status).toBe(200)
    expect(next).not.toHaveBeenCalled()
  })

  it('uses the Buffer or string that express.raw() / express.text() left in req.body', async () => {
    const onEvent = vi.fn()
    const handler = api.createNodeHandler({ secret: SECRET, onEvent })
    server.use(async (req, res) => {
      const raw = await readAll(req)
      Object.assign(req, { body: req.headers['x-as'] === 'text' ? raw.toString('utf8') : raw })
      handler(req, res, () => {})
    })
    expect((await server.send(BODY, GOOD)).status).toBe(200)
    expect(
      (await server.send(BODY, GOOD, { headers: { [api.SIGNATURE_HEADER]: GOOD, 'x-as': 'text' } })).status,
    ).toBe(200)
    expect((await server.send(BODY, BAD)).status).toBe(401)
    expect(onEvent).toHaveBeenCalledTimes(2)
  })

  it('passes a clear error to next when express.json() consumed the raw body first; 500 without next', async () => {
    const next = vi.fn()
    const handler = api.createNodeHandler({ secret: SECRET, onEvent: vi.fn() })
    let withNext = true
    server.use(async (req, res) => {
      Object.assign(req, { body: JSON.parse((await readAll(req)).toString('utf8')) })
      handler(req, res, withNext ? next : undefined)
      if (withNext) res.writeHead(500).end()
    })
    await server.send(BODY, GOOD)
    expect(next).toHaveBeenCalledOnce()
    expect(String(next.mock.calls[0]![0])).toMatch(/body parser.*express\.raw/s)
    withNext = false
    expect((await server.send(BODY, GOOD)).status).toBe(500)
  })
})
