// Faults, through mock.fetch and the /__mock/faults endpoints.
import { describe, expect, test } from 'vitest'
import { FaultJson, type FaultSpec } from '../../src/index.js'
import { call, expectError, KEYS, newMock, state, ticketUuid } from '../helpers/mock.js'

const HOSTING = '/api/v1/reseller/clients/:client_id/hosting'
const newTicket = { subject: 'S', message: 'M', department: 'general' }

async function ticketCount(mock: ReturnType<typeof newMock>) {
  return (await state(mock)).tables.tickets!.length
}

describe('respond', () => {
  test('answers the error envelope with Retry-After and an id, and changes nothing', async () => {
    const mock = newMock()
    const before = await ticketCount(mock)
    const fault = mock.faults.add({ match: { method: 'POST' }, respond: { status: 429, retryAfter: 2 } })
    const answer = await call(mock, 'POST', '/support/tickets', { body: newTicket })
    expectError(answer, 429, 'rate_limited')
    expect(answer.headers.get('retry-after')).toBe('2')
    expect(answer.headers.get('x-request-id')).toMatch(/^req_/)
    expect(await ticketCount(mock)).toBe(before)
    expect(mock.requests.list()).toMatchObject([
      {
        id: answer.headers.get('x-request-id'),
        method: 'POST',
        status: 429,
        error_code: 'rate_limited',
        fault: fault.id,
        key_mode: 'live',
        reseller_id: 1,
        body: newTicket,
      },
    ])
  })

  test('default codes: 429, 503, other 5xx, 408, 401, 404, other 4xx; code and message as given', async () => {
    const mock = newMock()
    const codes: Record<number, string> = {
      429: 'rate_limited',
      503: 'service_unavailable',
      500: 'internal_error',
      502: 'internal_error',
      408: 'request_timeout',
      401: 'unauthenticated',
      404: 'not_found',
      409: 'client_error',
    }
    for (const [status, code] of Object.entries(codes)) {
      mock.faults.add({ respond: { status: Number(status) }, times: 1 })
      expectError(await call(mock, 'GET', '/services'), Number(status), code)
    }
    mock.faults.add({ respond: { status: 503, code: 'maintenance', message: 'back at noon' }, times: 1 })
    const custom = await call(mock, 'GET', '/services')
    expect(custom.body).toEqual({ success: false, error: { code: 'maintenance', message: 'back at noon' } })
    expect(custom.headers.get('retry-after')).toBeNull()
  })
})

describe('matching', () => {
  test('by method, route template and exact path without query; others pass', async () => {
    const mock = newMock()
    const uuid = await ticketUuid(mock, 'First')
    mock.faults.add({
      match: { method: 'PATCH', route: '/api/v1/support/tickets/:ticket_uuid/close' },
      respond: { status: 500 },
    })
    mock.faults.add({ match: { path: '/api/v1/services' }, respond: { status: 503 } })
    mock.faults.add({ match: { method: 'delete' }, respond: { status: 502 } })
    expect((await call(mock, 'PATCH', `/support/tickets/${uuid}/close`)).status).toBe(500)
    expect((await call(mock, 'PATCH', `/support/tickets/${uuid}/reopen`)).status).toBe(422)
    expect((await call(mock, 'GET', '/services?page=2')).status).toBe(503)
    expect((await call(mock, 'GET', '/services/')).status).toBe(200)
    expect((await call(mock, 'GET', '/invoices')).status).toBe(200)
    expect((await call(mock, 'DELETE', '/reseller/whm/packages/starter')).status).toBe(502)
  })

  test('in the order added: the first match wins', async () => {
    const mock = newMock()
    const first = mock.faults.add({ match: { method: 'GET' }, respond: { status: 503 }, times: 1 })
    const second = mock.faults.add({ respond: { status: 500 } })
    expect((await call(mock, 'GET', '/services')).status).toBe(503)
    expect((await call(mock, 'GET', '/services')).status).toBe(500)
    expect(mock.requests.list().map((e) => e.fault)).toEqual([first.id, second.id])
  })

  test('times: the next N matching requests, then the fault leaves list()', async () => {
    const mock = newMock()
    const fault = mock.faults.add({
      match: { route: '/api/v1/services' },
      respond: { status: 503 },
      times: 2,
    })
    expect(fault.remaining).toBe(2)
    await call(mock, 'GET', '/invoices')
    expect(fault.remaining).toBe(2)
    expect((await call(mock, 'GET', '/services')).status).toBe(503)
    expect(mock.faults.list()).toEqual([fault])
    expect(mock.faults.list()[0]).toBe(fault)
    expect(mock.faults.list()[0]).toMatchObject({ applied: 1, remaining: 1 })
    expect((await call(mock, 'GET', '/services')).status).toBe(503)
    expect((await call(mock, 'GET', '/services')).status).toBe(200)
    expect({ applied: fault.applied, remaining: fault.remaining }).toEqual({ applied: 2, remaining: 0 })
    expect(mock.faults.list()).toEqual([])
    expect(fault.remove()).toBe(false)
  })

  test('control requests never meet a fault', async () => {
    const mock = newMock()
    mock.faults.add({ respond: { status: 503 } })
    expect((await call(mock, 'GET', '/__mock/state', { key: null })).status).toBe(200)
    expect((await call(mock, 'GET', '/__mock/faults', { key: null })).status).toBe(200)
    expect((await call(mock, 'GET', '/services')).status).toBe(503)
  })
})

describe('delayMs and drop', () => {
  test('delayMs waits in real time, then handles the request', async () => {
    const mock = newMock()
    mock.faults.add({ delayMs: 150, times: 1 })
    const started = performance.now()
    const answer = await call(mock, 'GET', '/services')
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    expect(answer.status).toBe(200)
    // `times: 1`: used up, so the next request runs without a delay.
    expect(mock.faults.list()).toEqual([])
  })

  test('a request whose caller aborts during the delay rejects with the reason', async () => {
    const mock = newMock()
    mock.faults.add({ delayMs: 5_000, times: 1 })
    // The 5 s delay is never waited out: the abort settles the call (the test would time out first).
    const pending = mock.fetch(`${mock.baseUrl}/api/v1/services`, {
      headers: { authorization: `Bearer ${KEYS.a}` },
      signal: AbortSignal.timeout(50),
    })
    await expect(pending).rejects.toMatchObject({ name: 'TimeoutError' })
  })

  test("drop: 'before' rejects mock.fetch with a TypeError and changes nothing", async () => {
    const mock = newMock()
    const before = await ticketCount(mock)
    const fault = mock.faults.add({
      match: { method: 'POST', route: '/api/v1/support/tickets' },
      drop: 'before',
    })
    await expect(call(mock, 'POST', '/support/tickets', { body: newTicket })).rejects.toThrow(TypeError)
    expect(await ticketCount(mock)).toBe(before)
    expect(mock.requests.list()).toMatchObject([
      { method: 'POST', status: null, error_code: null, fault: fault.id, key_mode: 'live', reseller_id: 1 },
    ])
  })

  test("drop: 'after' takes effect, then loses the answer", async () => {
    const mock = newMock()
    const before = await ticketCount(mock)
    mock.faults.add({ match: { method: 'POST' }, drop: 'after', times: 1 })
    await expect(call(mock, 'POST', '/support/tickets', { body: newTicket })).rejects.toThrow(TypeError)
    expect(await ticketCount(mock)).toBe(before + 1)
    expect(mock.requests.list({ method: 'POST' })).toMatchObject([
      { status: null, route: '/api/v1/support/tickets' },
    ])
    // The requests left without an answer, in-process and over HTTP.
    await call(mock, 'GET', '/services')
    expect(mock.requests.list({ status: null })).toHaveLength(1)
    const dropped = await call(mock, 'GET', '/__mock/requests?status=null', { key: null })
    expect(dropped.body.data).toEqual(mock.requests.list({ status: null }))
  })

  test('delay then respond', async () => {
    const mock = newMock()
    mock.faults.add({ delayMs: 60, respond: { status: 503 }, times: 1 })
    const started = performance.now()
    expect((await call(mock, 'GET', '/services')).status).toBe(503)
    expect(performance.now() - started).toBeGreaterThanOrEqual(50)
  })
})

describe('validation', () => {
  const refused: [name: string, spec: unknown, field: string, rule: RegExp][] = [
    ['a 3xx status', { respond: { status: 302 } }, 'respond.status', /4xx or 5xx/],
    ['a 2xx status', { respond: { status: 200 } }, 'respond.status', /4xx or 5xx/],
    ['a status that is no number', { respond: { status: '429' } }, 'respond.status', /must be/],
    ['times: 0', { times: 0, respond: { status: 503 } }, 'times', /1 or more/],
    [
      'both respond and drop',
      { respond: { status: 503 }, drop: 'after' },
      'drop',
      /cannot be combined with respond/,
    ],
    [
      'neither respond, drop nor delayMs',
      { match: { method: 'GET' } },
      'respond',
      /respond, drop or delayMs/,
    ],
    [
      'an unknown route',
      { match: { route: '/api/v1/nothing' }, drop: 'before' },
      'match.route',
      /matches no route/,
    ],
    [
      'a route with other parameter names',
      { match: { route: '/api/v1/support/tickets/:uuid' }, drop: 'before' },
      'match.route',
      /did you mean \/api\/v1\/support\/tickets\/:ticket_uuid/,
    ],
    ['a control route', { match: { route: '/__mock/reset' }, drop: 'before' }, 'match.route', /\/api\//],
    [
      'a control path',
      { match: { path: '/__mock/state' }, respond: { status: 500 } },
      'match.path',
      /\/api\//,
    ],
    [
      'a path with a query',
      { match: { path: '/api/v1/services?page=1' }, drop: 'before' },
      'match.path',
      /query/,
    ],
    [
      'a method the route does not answer',
      { match: { method: 'DELETE', route: HOSTING }, drop: 'before' },
      'match.method',
      /answers POST/,
    ],
    ['an unknown method', { match: { method: 'FETCH' }, drop: 'before' }, 'match.method', /one of GET/],
    [
      'a path that cannot fit the route',
      { match: { route: HOSTING, path: '/api/v1/services' }, drop: 'before' },
      'match.path',
      /cannot match/,
    ],
    ['an unknown field', { respond: { status: 503 }, delay: 5 }, 'delay', /not a known field/],
    [
      'a negative retryAfter',
      { respond: { status: 429, retryAfter: -1 } },
      'respond.retryAfter',
      /0 or more/,
    ],
    ['a fractional delayMs', { delayMs: 1.5 }, 'delayMs', /integer/],
    ['an unknown drop', { drop: 'later' }, 'drop', /"before" or "after"/],
  ]

  test.each(refused)(
    '%s: a TypeError in-process naming the field and the rule',
    (_name, spec, field, rule) => {
      const mock = newMock()
      let error: unknown
      try {
        mock.faults.add(spec as FaultSpec)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(TypeError)
      const message = (error as TypeError).message
      expect(message).toContain(`${field}:`)
      expect(message).toMatch(rule)
      expect(mock.faults.list()).toEqual([])
    },
  )

  test.each(refused)(
    '%s: 422 validation_error over HTTP with fields naming it',
    async (_name, spec, field, rule) => {
      const mock = newMock()
      const answer = await call(mock, 'POST', '/__mock/faults', { key: null, body: spec })
      expectError(answer, 422, 'validation_error')
      expect(Object.keys(answer.body.error.fields)).toContain(field)
      expect(answer.body.error.fields[field].join(' ')).toMatch(rule)
      expect(mock.faults.list()).toEqual([])
    },
  )

  test('over HTTP, a body that is no JSON object is refused too', async () => {
    const mock = newMock()
    expectError(
      await call(mock, 'POST', '/__mock/faults', { key: null, raw: '{nope' }),
      422,
      'validation_error',
    )
    expectError(await call(mock, 'POST', '/__mock/faults', { key: null }), 422, 'validation_error')
    expectError(await call(mock, 'POST', '/__mock/faults', { key: null, body: [] }), 422, 'validation_error')
  })
})

describe('over HTTP', () => {
  test('POST → 201 with the fault; GET lists; DELETE /{id} removes; DELETE empties', async () => {
    const mock = newMock()
    const created = await call(mock, 'POST', '/__mock/faults', {
      key: null,
      body: {
        match: { method: 'get', route: '/api/v1/services' },
        times: 3,
        respond: { status: 429, retryAfter: 1 },
      },
    })
    expect(created.status).toBe(201)
    expect(FaultJson.safeParse(created.body.data).success).toBe(true)
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^flt_/),
      match: { method: 'GET', route: '/api/v1/services' },
      times: 3,
      respond: { status: 429, code: 'rate_limited', message: expect.any(String), retryAfter: 1 },
      applied: 0,
      remaining: 3,
    })
    const id = created.body.data.id
    expect((await call(mock, 'GET', '/services')).status).toBe(429)
    const listed = await call(mock, 'GET', '/__mock/faults', { key: null })
    expect(listed.body.data).toEqual([{ ...created.body.data, applied: 1, remaining: 2 }])
    expect(mock.faults.list().map((f) => JSON.parse(JSON.stringify(f)))).toEqual(listed.body.data)

    const removed = await call(mock, 'DELETE', `/__mock/faults/${id}`, { key: null })
    expect(removed.body.data).toMatchObject({ id, applied: 1 })
    expectError(await call(mock, 'DELETE', `/__mock/faults/${id}`, { key: null }), 404, 'not_found')
    expect((await call(mock, 'GET', '/services')).status).toBe(200)

    mock.faults.add({ drop: 'before' })
    mock.faults.add({ delayMs: 1 })
    const cleared = await call(mock, 'DELETE', '/__mock/faults', { key: null })
    expect(cleared.body).toEqual({ success: true, data: { cleared: 2 } })
    expect(mock.faults.list()).toEqual([])
  })

  test('reset() and POST /__mock/reset clear the faults; fault ids are never reused', async () => {
    const mock = newMock()
    const ids = new Set<string>()
    ids.add(mock.faults.add({ respond: { status: 503 } }).id)
    mock.reset()
    expect(mock.faults.list()).toEqual([])
    expect((await call(mock, 'GET', '/services')).status).toBe(200)
    ids.add(mock.faults.add({ respond: { status: 503 } }).id)
    await call(mock, 'POST', '/__mock/reset', { key: null })
    expect(mock.faults.list()).toEqual([])
    ids.add(mock.faults.add({ respond: { status: 503 } }).id)
    mock.faults.clear()
    ids.add(mock.faults.add({ respond: { status: 503 } }).id)
    expect(ids.size).toBe(4)
  })

  test('two mocks share no faults', async () => {
    const a = newMock()
    const b = newMock()
    a.faults.add({ respond: { status: 503 } })
    expect((await call(b, 'GET', '/services')).status).toBe(200)
    expect(b.faults.list()).toEqual([])
  })
})
