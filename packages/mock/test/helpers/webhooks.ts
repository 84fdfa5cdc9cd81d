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
}

/**
 * A receiver that checks signatures with its own code (node:crypto's HMAC, none of the SDK's): it
 * answers 200 on a valid `X-Service-Signature`, 401 otherwise. `setSecret` changes the secret it
 * checks with (a general webhook's secret is only known once the webhook exists, which needs the
 * URL first). `waitFor(n)` resolves once `n` deliveries arrived.
 */
export async function startVerifyingReceiver(secret = '') {
  let current = secret
  const seen: Verified[] = []
  const arrivals = new EventTarget()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const expected = Buffer.from(`sha256=${createHmac('sha256', current).update(body).digest('hex')}`)
      const signature = String(req.headers['x-service-signature'] ?? '')
      const got = Buffer.from(signature)
      const valid = got.length === expected.length && timingSafeEqual(got, expected)
      seen.push({
        valid,
        signature,
        body: body.toString('utf8'),
        delivery: String(req.headers['x-service-delivery']),
      })
      arrivals.dispatchEvent(new Event('delivery'))
      res.writeHead(valid ? 200 : 401, { 'content-length': '0' }).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    seen,
    setSecret(next: string) {
      current = next
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
