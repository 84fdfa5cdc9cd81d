import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { DeliveryRecord, DeliveryStore, DeliveryTarget } from '../../src/webhooks/dispatcher.js'

/** An in-memory {@link DeliveryStore} for dispatcher unit tests. */
export function memoryDeliveryStore() {
  const deliveries = new Map<string, DeliveryRecord>()
  const resellerHooks = new Map<number, DeliveryTarget>()
  const generalHooks = new Map<string, { reseller_id: number; events: string[] } & DeliveryTarget>()
  const store: DeliveryStore = {
    insertDelivery: (record) => void deliveries.set(record.delivery_id, { ...record }),
    updateDelivery: (id, patch) => {
      const record = deliveries.get(id)
      if (record) deliveries.set(id, { ...record, ...patch })
    },
    getDelivery: (id) => deliveries.get(id),
    pendingDeliveries: () => [...deliveries.values()].filter((d) => d.next_attempt_at !== null),
    resellerWebhook: (id) => resellerHooks.get(id),
    generalWebhook: (id) => generalHooks.get(id),
    subscribedWebhooks: (resellerId, event) =>
      [...generalHooks.entries()]
        .filter(([, w]) => w.reseller_id === resellerId && w.events.includes(event))
        .map(([id, w]) => ({ id, url: w.url, secret: w.secret })),
  }
  return { store, deliveries, resellerHooks, generalHooks }
}

/** What a test receiver saw. */
export interface Received {
  headers: IncomingMessage['headers']
  body: string
}

/**
 * A `node:http` receiver on 127.0.0.1. `answer` decides each status (default 200); returning
 * `'hang'` never answers.
 */
export async function startReceiver(answer: (n: number, req: Received) => number | 'hang' = () => 200) {
  const received: Received[] = []
  const hanging: ServerResponse[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const entry = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      received.push(entry)
      const status = answer(received.length, entry)
      if (status === 'hang') {
        hanging.push(res)
        return
      }
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** What {@link startVerifyingReceiver} saw of one delivery. */
export interface Verified {
  valid: boolean
  signature: string
  body: string
  delivery: string
  /** `X-Service-Event`. */
  event: string
  /** The status it answered. */
  status: number
  headers: IncomingMessage['headers']
  /** When the answer was sent (`Date.now()`). */
  at: number
}

/**
 * A receiver that checks signatures with its own code (node:crypto's HMAC, none of the SDK's): it
 * answers 200 on an `X-Service-Signature` valid under any of its secrets, 401 otherwise (or the
 * status `setStatus` forces on valid ones: a failing receiver). `setSecret` changes the secrets it
 * checks with (a general webhook's secret is only known once the webhook exists, which needs the
 * URL first). `waitFor(n)` resolves once `n` deliveries arrived.
 */
export async function startVerifyingReceiver(secret: string | string[] = '') {
  let current = typeof secret === 'string' ? [secret] : secret
  let forced: number | undefined
  const seen: Verified[] = []
  const arrivals = new EventTarget()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const signature = String(req.headers['x-service-signature'] ?? '')
      const got = Buffer.from(signature)
      const valid = current.some((key) => {
        const expected = Buffer.from(`sha256=${createHmac('sha256', key).update(body).digest('hex')}`)
        return got.length === expected.length && timingSafeEqual(got, expected)
      })
      const status = valid ? (forced ?? 200) : 401
      seen.push({
        valid,
        signature,
        body: body.toString('utf8'),
        delivery: String(req.headers['x-service-delivery']),
        event: String(req.headers['x-service-event']),
        status,
        headers: req.headers,
        at: Date.now(),
      })
      arrivals.dispatchEvent(new Event('delivery'))
      res.writeHead(status, { 'content-length': '0' }).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    seen,
    setSecret(next: string | string[]) {
      current = typeof next === 'string' ? [next] : next
    },
    /** Answers valid deliveries with `status` (undefined: 200 again). */
    setStatus(status: number | undefined) {
      forced = status
    },
    /** Resolves once `n` deliveries were seen. */
    waitFor: (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (seen.length < n) return
          arrivals.removeEventListener('delivery', check)
          resolve()
        }
        arrivals.addEventListener('delivery', check)
        check()
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
