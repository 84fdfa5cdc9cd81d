// The request journal and request ids, through mock.fetch.
import { describe, expect, test } from 'vitest'
import { JournalEntry } from '../../src/index.js'
import { call, expectError, KEYS, newMock, ticketUuid } from '../helpers/mock.js'

const HOUR = 3_600_000

describe('X-Request-Id', () => {
  test('every API answer carries one, unique, naming its journal entry', async () => {
    const mock = newMock()
    const answers = [
      await call(mock, 'GET', '/support/tickets'),
      await call(mock, 'GET', '/support/tickets', { key: 'svc_live_unknown' }),
      await call(mock, 'GET', '/no/such/route'),
      await call(mock, 'POST', '/support/tickets', { body: { subject: '' } }),
    ]
    const ids = answers.map((a) => a.headers.get('x-request-id'))
    for (const id of ids) expect(id).toMatch(/^req_\w+$/)
    expect(new Set(ids).size).toBe(ids.length)
    expect(mock.requests.list().map((e) => e.id)).toEqual(ids)
  })

  test('control requests get none and are not journaled', async () => {
    const mock = newMock()
    const answer = await call(mock, 'GET', '/__mock/state', { key: null })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('x-request-id')).toBeNull()
    await call(mock, 'POST', '/__mock/clock/advance', { key: null, body: { seconds: 1 } })
    expect(mock.requests.list()).toEqual([])
  })
})

describe('journal entries', () => {
  test('a created ticket: every field, the body parsed, the key nowhere', async () => {
    const mock = newMock()
    await mock.clock.advance(HOUR)
    const before = mock.clock.nowMs()
    const body = { subject: 'Disk full', message: 'help', department: 'technical' }
    const answer = await call(mock, 'POST', '/support/tickets', { body })
    expect(answer.status).toBe(201)
    const [entry] = mock.requests.list()
    expect(JournalEntry.safeParse(entry).success).toBe(true)
    expect(entry).toEqual({
      id: answer.headers.get('x-request-id'),
      at: expect.any(String),
      method: 'POST',
      path: '/api/v1/support/tickets',
      route: '/api/v1/support/tickets',
      key_mode: 'live',
      reseller_id: 1,
      status: 201,
      error_code: null,
      body,
      fault: null,
      response: {
        status: 201,
        headers: { 'content-type': 'application/json', 'x-request-id': answer.headers.get('x-request-id') },
        body: answer.body,
      },
    })
    // Mock time (an hour ahead of the wall clock), ISO 8601 UTC.
    expect(entry!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(Date.parse(entry!.at)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(entry!.at)).toBeGreaterThan(Date.now() + HOUR - 60_000)
    expect(JSON.stringify(mock.requests.list())).not.toContain(KEYS.a)
  })

  test('the route is the matched template; the path keeps its query', async () => {
    const mock = newMock()
    const uuid = await ticketUuid(mock, 'First')
    mock.requests.clear()
    await call(mock, 'GET', `/support/tickets/${uuid}?x=1&y=a%20b`)
    const [entry] = mock.requests.list()
    expect(entry).toMatchObject({
      path: `/api/v1/support/tickets/${uuid}?x=1&y=a%20b`,
      route: '/api/v1/support/tickets/:ticket_uuid',
      status: 200,
      body: null,
    })
  })

  test('refused requests: error code, no caller when the key failed, route null when none matched', async () => {
    const mock = newMock()
    await call(mock, 'GET', '/support/tickets', { key: 'svc_live_unknown' })
    await call(mock, 'GET', '/support/tickets', { key: KEYS.aHosting })
    await call(mock, 'GET', '/nowhere')
    await call(mock, 'POST', '/support/tickets', { key: KEYS.aSandbox, body: {} })
    await call(mock, 'POST', '/support/tickets', { raw: '{not json' })
    const pick = ({ route, key_mode, reseller_id, status, error_code, body }: JournalEntry) => ({
      route,
      key_mode,
      reseller_id,
      status,
      error_code,
      body,
    })
    expect(mock.requests.list().map(pick)).toEqual([
      {
        route: '/api/v1/support/tickets',
        key_mode: null,
        reseller_id: null,
        status: 401,
        error_code: 'unauthenticated',
        body: null,
      },
      {
        route: '/api/v1/support/tickets',
        key_mode: 'live',
        reseller_id: 1,
        status: 403,
        error_code: 'insufficient_scope',
        body: null,
      },
      { route: null, key_mode: null, reseller_id: null, status: 404, error_code: 'not_found', body: null },
      {
        route: '/api/v1/support/tickets',
        key_mode: 'sandbox',
        reseller_id: 1,
        status: 403,
        error_code: 'sandbox_read_only',
        body: {},
      },
      // Not JSON: body null.
      {
        route: '/api/v1/support/tickets',
        key_mode: 'live',
        reseller_id: 1,
        status: 422,
        error_code: 'validation_error',
        body: null,
      },
    ])
  })

  test('a body beyond 16,384 characters is journaled as null (memory stays bounded)', async () => {
    const mock = newMock()
    const long = await call(mock, 'POST', '/support/tickets', {
      body: { subject: 's', message: 'x'.repeat(20_000), department: 'sales' },
    })
    expect(long.status).toBe(422)
    expect(mock.requests.list()).toMatchObject([{ status: 422, body: null, error_code: 'validation_error' }])
  })

  test('entries are copies: changing one changes nothing', async () => {
    const mock = newMock()
    await call(mock, 'POST', '/support/tickets', {
      body: { subject: 's', message: 'm', department: 'sales' },
    })
    const [entry] = mock.requests.list()
    ;(entry!.body as { subject: string }).subject = 'changed'
    entry!.status = 500
    expect(mock.requests.list()[0]).toMatchObject({ status: 201, body: { subject: 's' } })
  })
})

describe('filters', () => {
  async function traffic() {
    const mock = newMock()
    const uuid = await ticketUuid(mock, 'First')
    mock.requests.clear()
    await call(mock, 'GET', '/support/tickets?page=1')
    await call(mock, 'GET', `/support/tickets/${uuid}`)
    await call(mock, 'POST', `/support/tickets/${uuid}/messages`, { body: { message: 'hi' } })
    await call(mock, 'POST', `/support/tickets/${uuid}/messages`, { body: {} })
    return { mock, uuid }
  }

  test('in-process: method, route, path without query, status; all given must match', async () => {
    const { mock, uuid } = await traffic()
    expect(mock.requests.list({ method: 'POST' })).toHaveLength(2)
    expect(mock.requests.list({ method: 'post' })).toHaveLength(2)
    expect(mock.requests.list({ route: '/api/v1/support/tickets/:ticket_uuid/messages' })).toHaveLength(2)
    expect(mock.requests.list({ path: '/api/v1/support/tickets' })).toHaveLength(1)
    expect(mock.requests.list({ path: `/api/v1/support/tickets/${uuid}` })).toHaveLength(1)
    expect(mock.requests.list({ method: 'POST', status: 422 })).toMatchObject([
      { error_code: 'validation_error' },
    ])
    expect(mock.requests.list({ method: 'GET', status: 422 })).toEqual([])
  })

  test('in-process: a bad filter is a TypeError naming the field', async () => {
    const mock = newMock()
    expect(() => mock.requests.list({ path: '/api/v1/support/tickets?page=1' })).toThrow(
      /invalid journal filter: path: must not carry a query/,
    )
    expect(() => mock.requests.list({ status: 'ok' as never })).toThrow(
      /status: must be a number|status: must be an integer/,
    )
    expect(() => mock.requests.list({ methd: 'GET' } as never)).toThrow(/methd: is not a known field/)
    expect(() => mock.requests.list({ method: 'FETCH' })).toThrow(TypeError)
  })

  test('over HTTP: the same filters as query parameters; unknown or bad ones → 422 naming them', async () => {
    const { mock } = await traffic()
    const all = await call(mock, 'GET', '/__mock/requests', { key: null })
    expect(all.status).toBe(200)
    expect(all.body.data).toEqual(mock.requests.list())
    const posts = await call(mock, 'GET', '/__mock/requests?method=POST&status=201', { key: null })
    expect(posts.body.data).toHaveLength(1)
    expect(posts.body.data[0]).toMatchObject({ method: 'POST', status: 201 })
    const byPath = await call(mock, 'GET', '/__mock/requests?path=%2Fapi%2Fv1%2Fsupport%2Ftickets', {
      key: null,
    })
    expect(byPath.body.data.map((e: JournalEntry) => e.path)).toEqual(['/api/v1/support/tickets?page=1'])
    const bad = await call(mock, 'GET', '/__mock/requests?status=abc&sort=asc', { key: null })
    expectError(bad, 422, 'validation_error')
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['sort', 'status'])
  })
})

describe('clearing, reset, bounds', () => {
  test('DELETE /__mock/requests and clear() empty it; ids keep counting', async () => {
    const mock = newMock()
    await call(mock, 'GET', '/services')
    await call(mock, 'GET', '/services')
    const cleared = await call(mock, 'DELETE', '/__mock/requests', { key: null })
    expect(cleared.body).toEqual({ success: true, data: { cleared: 2 } })
    expect(mock.requests.list()).toEqual([])
    const third = await call(mock, 'GET', '/services')
    mock.requests.clear()
    const fourth = await call(mock, 'GET', '/services')
    const ids = [third, fourth].map((a) => a.headers.get('x-request-id'))
    expect(mock.requests.list().map((e) => e.id)).toEqual([ids[1]])
    expect(new Set(ids).size).toBe(2)
  })

  test('reset() and POST /__mock/reset empty the journal; ids are never reused', async () => {
    const mock = newMock()
    const seen = new Set<string | null>()
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 3; i++) seen.add((await call(mock, 'GET', '/services')).headers.get('x-request-id'))
      if (round === 0) mock.reset()
      else await call(mock, 'POST', '/__mock/reset', { key: null })
      expect(mock.requests.list()).toEqual([])
    }
    expect(seen.size).toBe(9)
  })

  test('journalLimit keeps the last N entries, oldest first', async () => {
    const mock = newMock(undefined, { journalLimit: 3 })
    const ids: (string | null)[] = []
    for (let page = 1; page <= 7; page++) {
      ids.push((await call(mock, 'GET', `/support/tickets?page=${page}`)).headers.get('x-request-id'))
    }
    const entries = mock.requests.list()
    expect(entries.map((e) => e.id)).toEqual(ids.slice(-3))
    expect(entries.map((e) => e.path)).toEqual([5, 6, 7].map((n) => `/api/v1/support/tickets?page=${n}`))
  })

  test('journalLimit: 0 records nothing, but answers still carry unique ids', async () => {
    const mock = newMock(undefined, { journalLimit: 0 })
    const a = await call(mock, 'GET', '/services')
    const b = await call(mock, 'GET', '/services')
    expect(a.headers.get('x-request-id')).toMatch(/^req_/)
    expect(b.headers.get('x-request-id')).not.toBe(a.headers.get('x-request-id'))
    expect(mock.requests.list()).toEqual([])
  })

  test('a bad journalLimit is refused at creation', () => {
    expect(() => newMock(undefined, { journalLimit: -1 })).toThrow(/journalLimit/)
    expect(() => newMock(undefined, { journalLimit: 1.5 })).toThrow(TypeError)
  })
})
