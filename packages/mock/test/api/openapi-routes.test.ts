/**
 * One declaration per route: the route table against the SDK's declarations and the mock's control
 * declarations (a declaration without a handler, or a route without a declaration, fails here), the
 * schemas each route really reads against the ones documented, and the answer checker against the
 * strict reading of the service's document.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { exampleRequests, type OpenApiDocument, operations } from '@reseller-api/sdk/schemas'
import { describe, expect, it } from 'vitest'
import { endpoint } from '../../../sdk/src/core/endpoint.js'
import { buildServiceDocument } from '../../../sdk/src/openapi/service.js'
import { controlEndpoint } from '../../src/control/endpoint.js'
import { control } from '../../src/control/operations.js'
import { ClockState } from '../../src/control/schemas.js'
import { FaultSpec } from '../../src/faults/schema.js'
import { routes } from '../../src/handlers/index.js'
import { createMockApi } from '../../src/index.js'
import { captureExamples } from '../../src/openapi/capture.js'
import { routeTableProblems } from '../../src/openapi/coverage.js'
import { servedDocument } from '../../src/openapi/served.js'
import { type Call, route } from '../../src/routing/route.js'
import { createAnswerChecker, sampleTicketDetail } from '../helpers/answer-check.js'

const file = createRequire(import.meta.url).resolve('@reseller-api/sdk/openapi.json')
const published = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument
const unused = () => Promise.reject(new Error('unused'))

describe('the route table', () => {
  it('binds every service operation the SDK declares, and every control endpoint the mock declares, exactly once', () => {
    expect(routeTableProblems(routes)).toEqual([])
    const count = (areas: object) =>
      Object.values(areas).reduce((n: number, area: object) => n + Object.keys(area).length, 0)
    // Every declaration but the standalone server's own (its two event streams, its namespaces), which
    // it serves in front of the table.
    const servedByServer = Object.values(control).flatMap((area) =>
      Object.values(area).filter(
        (declaration) => 'servedBy' in declaration && declaration.servedBy === 'server',
      ),
    )
    expect(servedByServer.map((d) => `${d.method} ${d.path}`).sort()).toEqual([
      'DELETE /__mock/namespaces',
      'DELETE /__mock/namespaces/{id}',
      'GET /__mock/deliveries/stream',
      'GET /__mock/namespaces',
      'GET /__mock/namespaces/{id}',
      'GET /__mock/stream',
      'POST /__mock/namespaces',
    ])
    expect(routes.filter((r) => r.operation).length).toBe(
      count(operations) + count(control) - servedByServer.length,
    )
    expect(routes.every((r) => r.operation)).toBe(true)
  })

  it("fails for a declaration no route answers, naming it, the SDK's or the mock's", () => {
    const brandNew = endpoint('GET', '/brand-new', { data: FaultSpec })
    const areas = { ...operations, extra: { brandNew } }
    expect(routeTableProblems(routes, areas)).toEqual([
      'operations.extra.brandNew is answered by 0 routes, not 1',
    ])
    const time = controlEndpoint('GET', '/__mock/time', { data: ClockState })
    expect(routeTableProblems(routes, operations, { ...control, extra: { time } })).toEqual([
      'control.extra.time is answered by 0 routes, not 1',
    ])
  })

  it('fails for an API route or a control route bound to no declaration, or to one nobody lists', () => {
    const extra = [
      route('GET', '/api/v1/brand-new', {}, unused),
      route('GET', '/__mock/brand-new', { auth: 'none' }, unused),
      route(controlEndpoint('GET', '/__mock/unlisted', { data: ClockState }), unused),
    ]
    expect(routeTableProblems([...routes, ...extra])).toEqual([
      'GET /api/v1/brand-new is not bound to a declaration of the SDK (route(operations.area.name, …))',
      'GET /__mock/brand-new is not bound to a control declaration (route(control.area.name, …), control/operations.ts)',
      'GET /__mock/unlisted is bound to a declaration control/operations.ts does not list',
    ])
  })

  it('fails for a declaration answered twice, or not at all, and for the stream answered by a route', () => {
    const twice = route(operations.tickets.get, unused)
    const withoutReset = routes.filter((r) => r.path !== '/__mock/reset')
    const stream = route(control.meta.stream, unused)
    expect(routeTableProblems([...withoutReset, twice, stream])).toEqual([
      'operations.tickets.get is answered by 2 routes, not 1',
      'control.state.reset is answered by 0 routes, not 1',
      'control.meta.stream is answered by 1 routes, not 0',
    ])
  })

  it("takes method, path, access and successor from the declaration, the SDK's or the mock's", () => {
    const bound = routes.find((r) => r.operation === operations.tickets.reply)!
    expect([bound.method, bound.path, bound.scope, bound.sandbox]).toEqual([
      'POST',
      '/api/v1/support/tickets/:ticket_uuid/messages',
      'support:write',
      'refuse',
    ])
    const legacy = routes.find((r) => r.operation === operations.legacy.createAccount)!
    expect([legacy.path, legacy.successor]).toEqual([
      '/api/v1/reseller/accounts',
      '/api/v1/reseller/clients/{client_id}/hosting',
    ])
    const staff = routes.find((r) => r.operation === control.tickets.staffReply)!
    expect([staff.method, staff.path, staff.auth]).toEqual(['POST', '/__mock/tickets/:uuid/replies', 'none'])
  })
})

describe('the example requests', () => {
  it('name rows of the demo seed in the states their operations need', () => {
    const state = createMockApi().state()
    const requests = exampleRequests(published)
    const param = (operationId: string) =>
      requests.find((r) => r.operationId === operationId)!.path.split('/')
    const ticket = (uuid: string) => state.tables.tickets.find((t) => t.uuid === uuid)?.status
    const account = (username: string) => state.tables.accounts.find((a) => a.username === username)
    expect(ticket(param('getTicket')[5]!)).toBe('resolved')
    expect(ticket(param('closeTicket')[5]!)).toBe('open')
    expect(ticket(param('reopenTicket')[5]!)).toBe('closed')
    const [, , , , , clientId, , username] = param('suspendHosting')
    expect(account(username!)).toMatchObject({ status: 'active', client_id: Number(clientId) })
    const [, , , , , otherClient, , suspended] = param('unsuspendHosting')
    expect(account(suspended!)).toMatchObject({ status: 'suspended', client_id: Number(otherClient) })
  })
})

describe('the documented request schemas', () => {
  it('are the very schemas the routes read their body and query with, and a page where the route pages', async () => {
    // Each route's `call.body` / `call.query` / `call.page` is watched while the example requests
    // run: the document must describe what the route reads, not a copy that has drifted.
    const read = new Map<string, { body?: unknown; query?: unknown; page?: true }>()
    const originals = routes.map((r) => r.resolve)
    for (const r of routes) {
      const resolve = r.resolve
      r.resolve = (call) => {
        const seen = read.get(`${r.method} ${r.path}`) ?? {}
        read.set(`${r.method} ${r.path}`, seen)
        const watched: Call = Object.create(call)
        // Without a schema, `call.body()` reads with the bound declaration's.
        const body = call.body as (schema?: unknown, options?: unknown) => unknown
        watched.body = ((schema?: unknown, options?: unknown) => {
          seen.body = schema ?? r.operation?.body
          return body.call(call, schema, options)
        }) as Call['body']
        // Without a schema, `call.query()` reads with the bound declaration's.
        const query = call.query as (schema?: unknown) => unknown
        watched.query = ((schema?: unknown) => {
          seen.query = schema ?? (r.operation && 'query' in r.operation ? r.operation.query : undefined)
          return query.call(call, schema)
        }) as Call['query']
        watched.page = () => {
          seen.page = true
          return call.page()
        }
        return resolve(watched)
      }
    }
    try {
      await captureExamples(servedDocument(published, {}))
    } finally {
      routes.forEach((r, i) => {
        r.resolve = originals[i]!
      })
    }
    // `POST /__mock/faults` reads the body raw: `faults.check` validates it with FaultSpec and the
    // route-table rules at once, so that a 422 names every failing field.
    const raw = new Set(['POST /__mock/faults'])
    let checked = 0
    for (const r of routes) {
      const key = `${r.method} ${r.path}`
      const declared = r.operation!
      const documented = {
        body: declared.body,
        query: 'query' in declared ? declared.query : undefined,
        page: declared.kind === 'list',
      }
      const seen = read.get(key)
      expect(seen, `${key} ran`).toBeDefined()
      checked++
      if (raw.has(key)) expect(documented.body, key).toBe(FaultSpec)
      else expect(seen!.body === documented.body, `${key}: body schema`).toBe(true)
      expect(seen!.query === documented.query, `${key}: query schema`).toBe(true)
      expect(seen!.page ?? false, `${key}: page`).toBe(documented.page)
    }
    expect(checked).toBe(routes.length)
  }, 30_000)
})

describe('the answer checker (ajv against the strict document)', () => {
  const strict = buildServiceDocument({}, { strict: true })
  const { check } = createAnswerChecker(strict as never)
  const ticket = sampleTicketDetail
  const answer = (status: number, body: unknown) => ({
    method: 'GET',
    path: `/api/v1/support/tickets/${ticket.uuid}`,
    status,
    contentType: 'application/json',
    body: JSON.stringify(body),
  })

  it('accepts a conforming answer', () => {
    expect(check(answer(200, { success: true, data: ticket }))).toEqual([])
    expect(
      check(answer(404, { success: false, error: { code: 'not_found', message: 'ticket x not found' } })),
    ).toEqual([])
  })

  it('reports a missing field, an extra field, a wrong enum value, a wrong error code and a success body under an unlisted status', () => {
    const { status: _status, ...withoutStatus } = ticket
    expect(check(answer(200, { success: true, data: withoutStatus })).join('\n')).toContain(
      "must have required property 'status'",
    )
    expect(check(answer(200, { success: true, data: { ...ticket, secret: 'x' } })).join('\n')).toContain(
      'must NOT have additional properties',
    )
    expect(
      check(answer(200, { success: true, data: { ...ticket, department: 'sport' } })).join('\n'),
    ).toContain('must be equal to one of the allowed values')
    // A status's codes are open to a fault's (any snake_case code), never to another shape.
    expect(
      check(answer(404, { success: false, error: { code: 'Quota Exceeded', message: 'x' } })),
    ).not.toEqual([])
    expect(
      check({
        ...answer(200, { success: true, data: ticket }),
        method: 'POST',
        path: '/api/v1/support/tickets',
        status: 204,
        fault: true,
      }),
    ).not.toEqual([]) // 204 is not listed: `default` (the error envelope) applies, which a success body is not
  })

  it('accepts an error under an unlisted status only while a fault is set (the `default` answer)', () => {
    const rateLimited = answer(429, { success: false, error: { code: 'rate_limited', message: 'slow down' } })
    expect(check(rateLimited).join('\n')).toContain(
      'status 429 not documented for GET /api/v1/support/tickets/{ticket_uuid}',
    )
    expect(check({ ...rateLimited, fault: true })).toEqual([])
  })
})
