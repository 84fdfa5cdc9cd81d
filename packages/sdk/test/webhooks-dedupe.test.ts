// The adapters' `dedupe` option: a delivery comes at least once, and a copy of one already handled
// is answered 200 without calling the hooks again. Both adapters (createFetchHandler with real
// Requests, createNodeHandler behind a real node:http server), in both bindings of `#crypto`.
import { createHash } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { DEDUPE_MEMORY_LIMIT, memoryDedupeStore } from '../src/webhooks/dedupe.js'
import * as api from '../src/webhooks/index.js'
import { useServer } from './helpers/webhook-server.js'
import { BINDING_LABEL } from './helpers/webhooks-binding.js'

const SECRET = 'whsec_dedupe'
const delivery = (n: number) =>
  JSON.stringify({
    event: 'wallet.credited',
    sandbox: false,
    timestamp: '2026-11-22T10:15:30Z',
    data: { amount: n, balance: 100 + n, reason: 'top-up' },
  })
const BODY = delivery(1)
const UNKNOWN = JSON.stringify({ event: 'vps.migrated', created_at: '2026-11-22T10:15:30+00:00', data: {} })
const sign = (body: string) => api.signPayload(body, SECRET)

type Options = api.FetchHandlerOptions & api.NodeHandlerOptions
/** Sends `body` (signed with `signature`, default: correctly) to a handler made of `options`. */
type Deliver = (options: Options) => (body: string, signature?: string) => Promise<number>

const node = useServer()
const adapters: [string, Deliver][] = [
  [
    'createFetchHandler',
    (options) => {
      const handler = api.createFetchHandler(options)
      return async (body, signature) => {
        const request = new Request('https://receiver.test/hooks', {
          method: 'POST',
          body,
          headers: { [api.SIGNATURE_HEADER]: signature ?? (await sign(body)) },
        })
        return (await handler(request)).status
      }
    },
  ],
  [
    'createNodeHandler',
    (options) => {
      node.use(api.createNodeHandler(options))
      return async (body, signature) => {
        const response = await node.send(body, signature ?? (await sign(body)))
        await response.text()
        return response.status
      }
    },
  ],
]

/** A promise and its resolve function: a signal to wait on. */
function signal<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

describe.each(adapters)(`%s with dedupe (${BINDING_LABEL})`, (_name, deliver) => {
  it('calls onEvent again for every copy without dedupe (the sender’s at-least-once)', async () => {
    const onEvent = vi.fn()
    const send = deliver({ secret: SECRET, onEvent })
    expect([await send(BODY), await send(BODY)]).toEqual([200, 200])
    expect(onEvent).toHaveBeenCalledTimes(2)
  })

  it('answers a copy 200 without onEvent, telling onDuplicate; another delivery is handled', async () => {
    const onEvent = vi.fn()
    const onDuplicate = vi.fn()
    const send = deliver({ secret: SECRET, onEvent, dedupe: true, onDuplicate })
    expect(await send(BODY)).toBe(200)
    expect(await send(BODY)).toBe(200)
    expect(onEvent).toHaveBeenCalledOnce()
    expect(onDuplicate).toHaveBeenCalledOnce()
    expect(onDuplicate.mock.calls[0]![0]).toEqual(JSON.parse(BODY))
    expect(await send(delivery(2))).toBe(200)
    expect(onEvent).toHaveBeenCalledTimes(2)
  })

  it('forgets a delivery whose onEvent failed, so the sender’s retry is handled', async () => {
    const onError = vi.fn()
    const onEvent = vi.fn().mockRejectedValueOnce(new Error('database down')).mockResolvedValue(undefined)
    const send = deliver({ secret: SECRET, onEvent, onError, dedupe: true })
    expect(await send(BODY)).toBe(500)
    expect(await send(BODY)).toBe(200)
    expect(await send(BODY)).toBe(200)
    expect(onEvent).toHaveBeenCalledTimes(2)
    expect(onError).toHaveBeenCalledOnce()
  })

  it('calls onEvent once for two copies arriving at once', async () => {
    const started = signal()
    const gate = signal()
    const onEvent = vi.fn(async () => {
      started.resolve()
      await gate.promise
    })
    const send = deliver({ secret: SECRET, onEvent, dedupe: true })
    const first = send(BODY)
    await started.promise
    // The first copy is being handled: the second is a copy, answered at once.
    expect(await send(BODY)).toBe(200)
    gate.resolve()
    expect(await first).toBe(200)
    expect(onEvent).toHaveBeenCalledOnce()
    // Both sent together, before either is verified.
    const both = await Promise.all([send(delivery(3)), send(delivery(3))])
    expect(both).toEqual([200, 200])
    expect(onEvent).toHaveBeenCalledTimes(2)
  })

  it('records only verified, well-formed deliveries: unknown event types included', async () => {
    const claimed: string[] = []
    const store = {
      claim: (key: string) => (claimed.includes(key) ? false : !!claimed.push(key)),
      release() {},
    }
    const onUnknownEvent = vi.fn()
    const onEvent = vi.fn()
    const send = deliver({ secret: SECRET, onEvent, onUnknownEvent, onError: () => {}, dedupe: store })
    expect(await send(BODY, `sha256=${'0'.repeat(64)}`)).toBe(401)
    expect(await send('{"event":"wallet.credited"}')).toBe(400)
    expect(await send('not json')).toBe(400)
    expect(claimed).toEqual([])
    // The forged copy claimed nothing: the real delivery is handled.
    expect(await send(BODY)).toBe(200)
    expect(onEvent).toHaveBeenCalledOnce()
    expect(await send(UNKNOWN)).toBe(200)
    expect(await send(UNKNOWN)).toBe(200)
    expect(onUnknownEvent).toHaveBeenCalledOnce()
    // The key: the lowercase hex SHA-256 of the raw body.
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
    expect(claimed).toEqual([sha256(BODY), sha256(UNKNOWN)])
  })

  it('works with an asynchronous store (Redis- or SQL-like), releasing on failure', async () => {
    const rows = new Set<string>()
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1))
    const store = {
      claim: vi.fn(async (key: string) => {
        await tick()
        if (rows.has(key)) return false
        rows.add(key)
        return true
      }),
      release: vi.fn(async (key: string) => {
        await tick()
        rows.delete(key)
      }),
    }
    const onUnknownEvent = vi.fn().mockRejectedValueOnce(new Error('queue full')).mockResolvedValue(undefined)
    const onEvent = vi.fn()
    const send = deliver({ secret: SECRET, onEvent, onUnknownEvent, onError: () => {}, dedupe: store })
    expect(await send(BODY)).toBe(200)
    expect(await send(BODY)).toBe(200)
    expect(onEvent).toHaveBeenCalledOnce()
    expect(await send(UNKNOWN)).toBe(500)
    expect(store.release).toHaveBeenCalledOnce()
    expect(await send(UNKNOWN)).toBe(200)
    expect(await send(UNKNOWN)).toBe(200)
    expect(onUnknownEvent).toHaveBeenCalledTimes(2)
    expect(rows.size).toBe(2)
  })

  it('answers 500 when the store fails, calling no hook, and when onDuplicate fails', async () => {
    const onError = vi.fn()
    const onEvent = vi.fn()
    const broken = {
      claim: () => Promise.reject(new Error('redis unreachable')),
      release: () => {},
    }
    expect(await deliver({ secret: SECRET, onEvent, onError, dedupe: broken })(BODY)).toBe(500)
    expect(onEvent).not.toHaveBeenCalled()
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'redis unreachable' }),
      expect.anything(),
    )
    const onDuplicate = vi.fn().mockRejectedValue(new Error('metrics down'))
    const send = deliver({ secret: SECRET, onEvent, onError, dedupe: true, onDuplicate })
    expect(await send(BODY)).toBe(200)
    expect(await send(BODY)).toBe(500)
    expect(onEvent).toHaveBeenCalledOnce()
  })
})

describe('the dedupe option', () => {
  it('is refused at creation unless a boolean or a store with claim and release', () => {
    const onEvent = () => {}
    for (const dedupe of [{ claim: () => true }, 'yes', 1, null] as unknown[]) {
      expect(() => api.createFetchHandler({ secret: SECRET, onEvent, dedupe } as Options)).toThrow(
        /createFetchHandler: options\.dedupe must be a boolean or a store \{ claim, release \}/,
      )
      expect(() => api.createNodeHandler({ secret: SECRET, onEvent, dedupe } as Options)).toThrow(
        /createNodeHandler: options\.dedupe must be/,
      )
    }
    expect(() =>
      api.createFetchHandler({ secret: SECRET, onEvent, onDuplicate: 'log' } as unknown as Options),
    ).toThrow(/options\.onDuplicate must be a function/)
    expect(() => api.createFetchHandler({ secret: SECRET, onEvent, dedupe: false })).not.toThrow()
  })

  it('true keeps the 10,000 most recently claimed keys', () => {
    const store = memoryDedupeStore()
    expect(DEDUPE_MEMORY_LIMIT).toBe(10_000)
    for (let i = 0; i <= DEDUPE_MEMORY_LIMIT; i++) expect(store.claim(`key${i}`)).toBe(true)
    // key0 was the oldest of 10,001: forgotten; key1 … key10000 are remembered.
    expect(store.claim('key1')).toBe(false)
    expect(store.claim(`key${DEDUPE_MEMORY_LIMIT}`)).toBe(false)
    expect(store.claim('key0')).toBe(true)
    // A released key is claimed again.
    store.release('key5')
    expect(store.claim('key5')).toBe(true)
  })
})
