import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi, type MockApi } from '../../src/node.js'
import type { RunningServer } from '../../src/server/http/listen.js'

let mock: MockApi
let server: RunningServer
const KEY = 'svc_live_acme_full'
const auth = { authorization: `Bearer ${KEY}` }
const json = { 'content-type': 'application/json' }

beforeAll(async () => {
  mock = createMockApi()
  server = await mock.listen({ port: 0 })
})
afterAll(async () => {
  await server.close()
})

interface Probe {
  method: string
  path: string
  headers?: Record<string, string>
  body?: string
}

/** What a client can observe of an answer, minus the transport's own headers (date, connection…). */
async function observe(res: Response) {
  const keep = ['content-type', 'deprecation', 'link']
  return {
    status: res.status,
    headers: Object.fromEntries(keep.map((h) => [h, res.headers.get(h)])),
    body: await res.text(),
  }
}

describe('mock.listen(): the standalone server answers like mock.fetch', () => {
  const reads: Probe[] = [
    { method: 'GET', path: '/api/v1/support/tickets', headers: auth },
    { method: 'GET', path: '/api/v1/support/tickets?page=2', headers: auth },
    { method: 'GET', path: '/api/v1/support/tickets?page=0', headers: auth },
    { method: 'GET', path: '/api/v1/support/tickets' },
    { method: 'GET', path: '/api/v1/support/tickets', headers: { authorization: 'Bearer svc_live_nope' } },
    { method: 'GET', path: '/api/v1/reseller/whm/usage', headers: auth },
    { method: 'GET', path: '/api/v1/reseller/usage', headers: auth },
    { method: 'GET', path: '/api/v1/reseller/whm/accounts', headers: auth },
    { method: 'GET', path: '/api/v1/reseller/webhook', headers: auth },
    { method: 'GET', path: '/api/v1/services', headers: auth },
    { method: 'GET', path: '/api/v1/invoices?page=2', headers: auth },
    { method: 'GET', path: '/api/v1/no/such/route', headers: auth },
    { method: 'POST', path: '/api/v1/support/tickets', headers: { ...auth, ...json }, body: '{"subject":' },
    {
      method: 'POST',
      path: '/api/v1/support/tickets',
      headers: { ...auth, ...json },
      body: '{"subject":"x"}',
    },
    { method: 'POST', path: '/__mock/clock/advance', headers: json, body: '{"seconds":-5}' },
    // A JSON body sent as text (fetch's default for a string): refused by both, 415.
    { method: 'POST', path: '/api/v1/support/tickets', headers: auth, body: '{"subject":"x"}' },
  ]

  it.each(reads)('$method $path', async (probe) => {
    const init = { method: probe.method, headers: probe.headers, body: probe.body }
    const viaFetch = await observe(await mock.fetch(`${mock.baseUrl}${probe.path}`, init))
    const viaServer = await observe(await fetch(`${server.url}${probe.path}`, init))
    expect(viaServer).toEqual(viaFetch)
  })

  it('a ticket detail and the answer of a change read the same', async () => {
    const list = await (await fetch(`${server.url}/api/v1/support/tickets`, { headers: auth })).json()
    const uuid = list.data[0].uuid
    const viaFetch = await observe(
      await mock.fetch(`${mock.baseUrl}/api/v1/support/tickets/${uuid}`, { headers: auth }),
    )
    const viaServer = await observe(
      await fetch(`${server.url}/api/v1/support/tickets/${uuid}`, { headers: auth }),
    )
    expect(viaServer).toEqual(viaFetch)

    const created = await fetch(`${server.url}/api/v1/support/tickets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'Über ✓', message: 'Unicode body', department: 'billing' }),
    })
    expect(created.status).toBe(201)
    const text = await created.text()
    expect(Number(created.headers.get('content-length'))).toBe(Buffer.byteLength(text))
    const ticketId = JSON.parse(text).data.ticket_id
    // The change made through the server is the mock's state: mock.fetch sees it.
    const seen = await mock.fetch(`${mock.baseUrl}/api/v1/support/tickets/${ticketId}`, { headers: auth })
    expect((await seen.json()).data.subject).toBe('Über ✓')
  })

  it('a record read again answers its new bytes once it changed (the encoded answer is cached per version)', async () => {
    const created = await fetch(`${server.url}/api/v1/support/tickets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'Größe ✓', message: 'first', department: 'billing' }),
    })
    const uuid = (await created.json()).data.ticket_id
    const read = async () => {
      const res = await fetch(`${server.url}/api/v1/support/tickets/${uuid}`, { headers: auth })
      const bytes = Buffer.from(await res.arrayBuffer())
      expect(Number(res.headers.get('content-length'))).toBe(bytes.length)
      return JSON.parse(bytes.toString('utf8')).data
    }
    expect((await read()).messages_count).toBe(1)
    expect((await read()).subject).toBe('Größe ✓')
    const reply = await fetch(`${server.url}/api/v1/support/tickets/${uuid}/messages`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'second, ü' }),
    })
    expect(reply.status).toBe(201)
    const after = await read()
    expect(after.messages_count).toBe(2)
    expect(after.messages.map((m: { message: string }) => m.message)).toContain('second, ü')
    // And through mock.fetch, which never asks for bytes, the same answer.
    const viaFetch = await mock.fetch(`${mock.baseUrl}/api/v1/support/tickets/${uuid}`, { headers: auth })
    expect((await viaFetch.json()).data).toEqual(after)
  })

  it('keeps the connection alive across requests (HTTP/1.1 keep-alive)', async () => {
    const first = await fetch(`${server.url}/api/v1/support/tickets`, { headers: auth })
    await first.text()
    expect(first.headers.get('connection')).toBe('keep-alive')
    expect(first.headers.get('keep-alive')).toMatch(/timeout=\d+/)
  })
})
