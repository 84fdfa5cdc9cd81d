// The inspector's server side: the page and its assets on the standalone server,
// the live event stream, and the delivery control endpoints the page drives (served by every
// transport). The page itself runs in Chromium: test/browser/inspector.browser.test.ts.
import { signPayload } from '@reseller-api/sdk/webhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createMockApi, type MockApi } from '../../src/node.js'
import type { RunningServer } from '../../src/server/http/listen.js'
import { call } from '../helpers/mock.js'
import { startReceiver } from '../helpers/webhooks.js'

const KEY = 'svc_live_acme_full'
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }

let mock: MockApi
let server: RunningServer
let receiver: Awaited<ReturnType<typeof startReceiver>>

beforeAll(async () => {
  receiver = await startReceiver()
  mock = createMockApi({ insecureWebhooks: true })
  server = await mock.listen({ port: 0 })
})
afterAll(async () => {
  await server.close()
  await receiver.close()
})
afterEach(() => mock.reset())

/** Reads server-sent events from `/__mock/stream` as they come. */
async function openStream(url: string) {
  const controller = new AbortController()
  const response = await fetch(`${url}/__mock/stream`, { signal: controller.signal })
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  const events: string[] = []
  const data: Record<string, unknown>[] = []
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        buffer += value
        let end = buffer.indexOf('\n\n')
        while (end !== -1) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const name = /^event: (.+)$/m.exec(block)?.[1]
          if (name) events.push(name)
          const payload = /^data: (.+)$/m.exec(block)?.[1]
          if (payload) data.push(JSON.parse(payload) as Record<string, unknown>)
          end = buffer.indexOf('\n\n')
        }
      }
    } catch {
      // aborted
    }
  })()
  /** Resolves once `count` events arrived in all, or rejects after `ms`. */
  const waitFor = (count: number, timeout = 2000) =>
    vi.waitFor(
      () => {
        if (events.length < count) throw new Error(`only ${events.length} of ${count} events so far`)
      },
      { timeout, interval: 10 },
    )
  return {
    response,
    events,
    data,
    waitFor,
    close: async () => {
      controller.abort()
      await pump
    },
  }
}

describe('GET /__mock/ on the standalone server', () => {
  it('answers the inspector page, which may load nothing from another origin', async () => {
    const response = await fetch(`${server.url}/__mock/`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("connect-src 'self'")
    const html = await response.text()
    expect(html).toContain('<title>reseller-mock inspector</title>')
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//)
    // The ticket statuses come from the SDK's schema, not from a copy in the page.
    expect(html).toContain('"ticket_statuses":["open","in_progress","resolved","closed"]')
  })

  it('serves its two assets from the package, with no URL to anywhere else in them', async () => {
    for (const [path, type] of [
      ['/__mock/inspector/app.js', 'text/javascript; charset=utf-8'],
      ['/__mock/inspector/app.css', 'text/css; charset=utf-8'],
    ] as const) {
      const response = await fetch(`${server.url}${path}`)
      expect(response.status, path).toBe(200)
      expect(response.headers.get('content-type')).toBe(type)
      const body = await response.text()
      expect(body.length).toBeGreaterThan(500)
      expect(body).not.toMatch(/https?:\/\/|@import|url\(/)
    }
  })

  it('redirects /__mock to /__mock/ (relative URLs of the page resolve under it)', async () => {
    const response = await fetch(`${server.url}/__mock`, { redirect: 'manual' })
    expect(response.status).toBe(308)
    expect(response.headers.get('location')).toBe('/__mock/')
  })

  it('answers the bare base URL with where the inspector and the API are, and a favicon', async () => {
    const page = await fetch(`${server.url}/`, { headers: { accept: 'text/html,*/*' } })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<a href="/__mock/">/__mock/</a>')
    const plain = await fetch(`${server.url}/`)
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await plain.text()).toMatch(/inspector +\/__mock\//)
    for (const path of ['/favicon.ico', '/__mock/inspector/icon.svg']) {
      const icon = await fetch(`${server.url}${path}`)
      expect(icon.status, path).toBe(200)
      expect(icon.headers.get('content-type')).toBe('image/svg+xml')
      expect(await icon.text()).toMatch(/^<svg /)
    }
  })

  it("leaves the page's own reads out of the request log, and logs what the user does", async () => {
    const lines: string[] = []
    const own = createMockApi()
    const logged = await own.listen({ port: 0, log: (line) => lines.push(line) })
    try {
      const read = { 'x-reseller-mock-inspector': 'read' }
      for (const path of ['state', 'requests', 'faults', 'clock', 'deliveries'])
        await (await fetch(`${logged.url}/__mock/${path}`, { headers: read })).text()
      await (await fetch(`${logged.url}/__mock/state`)).text()
      await (
        await fetch(`${logged.url}/__mock/clock/advance`, {
          method: 'POST',
          headers: { ...read, 'content-type': 'application/json' },
          body: '{"seconds":1}',
        })
      ).text()
      await (await fetch(`${logged.url}/api/v1/support/tickets`, { headers: { ...auth, ...read } })).text()
      expect(lines.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
        'GET /__mock/state 200',
        'POST /__mock/clock/advance 200',
        'GET /api/v1/support/tickets 200',
      ])
    } finally {
      await logged.close()
    }
  })

  it('is not part of the handlers: mock.fetch answers 404 there (the page needs the server)', async () => {
    const answer = await call(mock, 'GET', '/__mock/', { key: null })
    expect(answer.status).toBe(404)
  })
})

describe('GET /__mock/stream', () => {
  it('says "change" on open, after an API request and after a control action; not after a read of the page', async () => {
    const stream = await openStream(server.url)
    try {
      expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
      await stream.waitFor(1)
      // The page's own reads change nothing: a notice for them would make it read again, forever.
      for (const path of ['/__mock/state', '/__mock/deliveries', '/__mock/'])
        await fetch(`${server.url}${path}`)
      await new Promise((r) => setTimeout(r, 200))
      expect(stream.events).toHaveLength(1)

      const created = await fetch(`${server.url}/api/v1/support/tickets`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ subject: 'Live', message: 'Hello', department: 'billing', priority: 'low' }),
      })
      expect(created.status).toBe(201)
      await stream.waitFor(2)

      await fetch(`${server.url}/__mock/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"seconds":60}',
      })
      await stream.waitFor(3)
      expect(new Set(stream.events)).toEqual(new Set(['change']))
    } finally {
      await stream.close()
    }
  })

  it('hears of changes made in-process too (a test calling mock.reset())', async () => {
    const stream = await openStream(server.url)
    try {
      await stream.waitFor(1)
      mock.reset()
      await stream.waitFor(2)
    } finally {
      await stream.close()
    }
  })

  it('hears of journal, fault and clock changes made in-process beside the server', async () => {
    const stream = await openStream(server.url)
    try {
      await stream.waitFor(1)
      const fault = mock.faults.add({ respond: { status: 503 }, times: 1 })
      await stream.waitFor(2)
      // Through mock.fetch, not the server: a journal entry (and the fault used up).
      await call(mock, 'GET', '/support/tickets')
      await stream.waitFor(3)
      fault.remove()
      await mock.clock.advance(1000)
      await stream.waitFor(4)
    } finally {
      await stream.close()
    }
  })

  it('carries the counters of each part, so the page reads only what changed', async () => {
    // A mock of its own: no delivery of another test moves its store meanwhile.
    const mock = createMockApi()
    const server = await mock.listen({ port: 0 })
    const stream = await openStream(server.url)
    try {
      await stream.waitFor(1)
      const first = stream.data[0]!
      expect(Object.keys(first).sort()).toEqual(['clock', 'faults', 'journal', 'journal_oldest', 'store'])
      await call(mock, 'GET', '/support/tickets')
      await stream.waitFor(2)
      const second = stream.data[1]!
      // A read changes the journal only.
      expect(second.journal).toBeGreaterThan(first.journal as number)
      expect([second.store, second.faults, second.clock]).toEqual([first.store, first.faults, first.clock])
      const [newest] = mock.requests.list().slice(-1)
      expect(second.journal_oldest).toBe(mock.requests.list()[0]!.id)
      // The page then asks for the entries after the newest it has.
      await call(mock, 'GET', '/support/tickets?page=2')
      const after = await fetch(`${server.url}/__mock/requests?after=${newest!.id}`)
      const entries = (await after.json()).data as Array<{ path: string }>
      expect(entries.map((e) => e.path)).toEqual(['/api/v1/support/tickets?page=2'])
      const bad = await fetch(`${server.url}/__mock/requests?after=7`)
      expect(bad.status).toBe(422)
      expect(await bad.text()).toContain('must be a request id such as req_42')
    } finally {
      await stream.close()
      await server.close()
    }
  })

  it('does not hold up close(): open streams are ended', async () => {
    const own = await createMockApi().listen({ port: 0 })
    const stream = await openStream(own.url)
    await stream.waitFor(1)
    const started = performance.now()
    await own.close()
    expect(performance.now() - started).toBeLessThan(1000)
    await stream.close()
  })
})

describe('delivery control endpoints (every transport)', () => {
  /** Subscribes a webhook to ticket.created and opens a ticket: one delivery to the receiver. */
  async function oneDelivery() {
    const hook = await call(mock, 'POST', '/webhooks', {
      key: KEY,
      body: { url: receiver.url, events: ['ticket.created'] },
    })
    expect(hook.status).toBe(201)
    await call(mock, 'POST', '/support/tickets', {
      key: KEY,
      body: { subject: 'Hook me', message: 'Hi', department: 'billing', priority: 'low' },
    })
    await mock.clock.advance(0)
    const list = await call(mock, 'GET', '/__mock/deliveries', { key: null })
    expect(list.status).toBe(200)
    // Only this webhook's: the demo seed has a reseller webhook that hears of the ticket too.
    const ours = list.body.data.filter((d: { webhook_id: string }) => d.webhook_id === hook.body.data.id)
    return { secret: hook.body.data.secret as string, deliveries: ours }
  }

  it('GET /__mock/deliveries shows each delivery with its URL and the signature header it carries', async () => {
    const before = receiver.received.length
    const { secret, deliveries } = await oneDelivery()
    expect(deliveries).toHaveLength(1)
    const [delivery] = deliveries
    expect(delivery).toMatchObject({
      event: 'ticket.created',
      url: receiver.url,
      status: 'success',
      attempts: 1,
    })
    expect(delivery.signature).toBe(await signPayload(delivery.payload, secret))
    const sent = receiver.received[before]!
    expect(sent.headers['x-service-signature']).toBe(delivery.signature)
    expect(sent.body).toBe(delivery.payload)
  })

  it('POST /__mock/deliveries/{id}/redeliver sends the same bytes again now, as a new delivery', async () => {
    const { deliveries } = await oneDelivery()
    const original = deliveries[0]
    const before = receiver.received.length
    const answer = await call(mock, 'POST', `/__mock/deliveries/${original.delivery_id}/redeliver`, {
      key: null,
    })
    expect(answer.status).toBe(201)
    const again = answer.body.data
    expect(again.delivery_id).not.toBe(original.delivery_id)
    expect(again).toMatchObject({
      event: original.event,
      payload: original.payload,
      signature: original.signature,
      webhook_id: original.webhook_id,
      status: 'success',
      attempts: 1,
      next_attempt_at: null,
    })
    expect(receiver.received).toHaveLength(before + 1)
    expect(receiver.received[before]!.body).toBe(original.payload)
    // The receiver sees the original's id again (GitHub keeps a redelivery's GUID): it deduplicates.
    expect(again.redelivery_of).toBe(original.delivery_id)
    expect(receiver.received[before]!.headers['x-service-delivery']).toBe(original.delivery_id)
    const list = await call(mock, 'GET', '/__mock/deliveries', { key: null })
    // Newest first.
    const ids = list.body.data.map((d: { delivery_id: string }) => d.delivery_id)
    expect(ids[0]).toBe(again.delivery_id)
    expect(ids).toContain(original.delivery_id)
  })

  it('redelivering an unknown delivery answers 404 not_found and records nothing', async () => {
    const answer = await call(mock, 'POST', '/__mock/deliveries/dlv_nope/redeliver', { key: null })
    expect(answer.status).toBe(404)
    expect(answer.body.error.code).toBe('not_found')
    const list = await call(mock, 'GET', '/__mock/deliveries', { key: null })
    expect(list.body.data).toEqual([])
  })
})
