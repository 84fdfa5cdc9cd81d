// The MSW handlers, through setupServer and the global fetch.
import { envelope, pageEnvelope, Ticket, TicketCreated } from '@reseller-api/sdk/schemas'
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { createMockApi } from '../../src/index.js'
import { KEYS, testSeed } from '../helpers/mock.js'

const mock = createMockApi({ seed: testSeed(), baseUrl: 'https://msw.reseller.test' })
const server = setupServer(...mock.handlers)
const api = (path: string) => `${mock.baseUrl}/api/v1${path}`
const auth = { authorization: `Bearer ${KEYS.a}` }

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
beforeEach(() => {
  mock.reset()
  server.resetHandlers()
})
afterAll(() => server.close())

describe('setupServer(...mock.handlers) with the global fetch', () => {
  test('one handler per route plus a catch-all', () => {
    expect(mock.handlers.length).toBeGreaterThan(25)
    expect(mock.handlers.at(-1)!.info.header).toContain('https://msw.reseller.test/*')
  })

  test('reads a page of tickets', async () => {
    const response = await fetch(api('/support/tickets?page=1'), { headers: auth })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    const page = pageEnvelope(Ticket).parse(await response.json())
    expect(page.meta).toEqual({ total: 3, per_page: 20, current_page: 1 })
  })

  test('creates a ticket and sees it (state shared with mock.fetch)', async () => {
    const response = await fetch(api('/support/tickets'), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'via msw', message: 'hello', department: 'general' }),
    })
    expect(response.status).toBe(201)
    const created = envelope(TicketCreated).parse(await response.json()).data
    const detail = await mock.fetch(api(`/support/tickets/${created.ticket_id}`), { headers: auth })
    expect((await detail.json()).data.subject).toBe('via msw')
  })

  test('errors: 401, 422 with fields, deprecation headers', async () => {
    const noKey = await fetch(api('/support/tickets'))
    expect(noKey.status).toBe(401)
    expect((await noKey.json()).error.code).toBe('unauthenticated')
    const invalid = await fetch(api('/support/tickets?page=abc'), { headers: auth })
    expect((await invalid.json()).error.fields).toHaveProperty('page')
    const legacy = await fetch(api('/reseller/usage'), { headers: auth })
    expect(legacy.headers.get('deprecation')).toBe('true')
  })

  test('unknown routes under the base URL → 404 not_found from the catch-all', async () => {
    const response = await fetch(api('/nothing'), { method: 'PUT' })
    expect(response.status).toBe(404)
    expect((await response.json()).error.code).toBe('not_found')
    const outside = await fetch(`${mock.baseUrl}/elsewhere`)
    expect(outside.status).toBe(404)
  })

  test('control endpoints', async () => {
    const response = await fetch(`${mock.baseUrl}/__mock/state`)
    expect((await response.json()).data.format).toBe('reseller-mock-store')
  })

  test('handlers compose with server.use overrides', async () => {
    server.use(
      http.get(api('/services'), () =>
        HttpResponse.json({ success: true, data: [], meta: { total: 0, per_page: 20, current_page: 1 } }),
      ),
    )
    const response = await fetch(api('/services'), { headers: auth })
    expect((await response.json()).meta.total).toBe(0)
    const real = await mock.fetch(api('/services'), { headers: auth })
    expect((await real.json()).meta.total).toBe(1)
  })
})
