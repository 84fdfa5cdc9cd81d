// The core handler, mock.fetch and the route table, below the HTTP API.
import type { Endpoint, ListEndpoint } from '@reseller-api/sdk/schemas'
import { describe, expect, test, vi } from 'vitest'
import * as z from 'zod/mini'
import { createContext } from '../../src/context.js'
import { ApiError } from '../../src/errors.js'
import { createMockApi } from '../../src/index.js'
import { createHandle } from '../../src/routing/core.js'
import { jsonAnswer } from '../../src/routing/reply.js'
import { route } from '../../src/routing/route.js'
import { compileRoutes } from '../../src/routing/router.js'
import { parseSeed } from '../../src/seed/schema.js'
import { createClock } from '../../src/state/clock.js'
import { KEYS, newMock, testSeed } from '../helpers/mock.js'

const auth = { authorization: `Bearer ${KEYS.a}` }

describe('mock.fetch', () => {
  test('a URL outside the base URL rejects with a TypeError naming both', async () => {
    const mock = newMock()
    await expect(mock.fetch('https://example.com/api/v1/services')).rejects.toThrow(TypeError)
    await expect(mock.fetch('https://example.com/x')).rejects.toThrow('https://api.reseller.test')
    await expect(mock.fetch('http://api.reseller.test/api/v1/services')).rejects.toThrow(TypeError)
  })

  test('takes a string, a URL or a Request; plain, array or Headers headers', async () => {
    const mock = newMock()
    const url = `${mock.baseUrl}/api/v1/services`
    expect((await mock.fetch(url, { headers: auth })).status).toBe(200)
    expect(
      (await mock.fetch(new URL(url), { headers: [['Authorization', auth.authorization]] })).status,
    ).toBe(200)
    expect((await mock.fetch(new Request(url, { headers: new Headers(auth) }))).status).toBe(200)
    const post = new Request(`${mock.baseUrl}/api/v1/support/tickets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 's', message: 'm', department: 'sales' }),
    })
    expect((await mock.fetch(post)).status).toBe(201)
  })

  test('an aborted signal rejects', async () => {
    const mock = newMock()
    const controller = new AbortController()
    controller.abort()
    await expect(
      mock.fetch(`${mock.baseUrl}/api/v1/services`, { signal: controller.signal }),
    ).rejects.toThrow()
  })

  test('a base URL with a path prefix', async () => {
    const mock = createMockApi({ seed: testSeed(), baseUrl: 'http://localhost:4010/prefix/' })
    expect(mock.baseUrl).toBe('http://localhost:4010/prefix')
    expect((await mock.fetch('http://localhost:4010/prefix/api/v1/services', { headers: auth })).status).toBe(
      200,
    )
    await expect(mock.fetch('http://localhost:4010/prefixed/api/v1/services')).rejects.toThrow(TypeError)
    await expect(mock.fetch('http://localhost:4010/api/v1/services')).rejects.toThrow(TypeError)
  })

  test('a trailing slash matches the route; a bad percent-encoding is a 404', async () => {
    const mock = newMock()
    expect((await mock.fetch(`${mock.baseUrl}/api/v1/services/`, { headers: auth })).status).toBe(200)
    expect(
      (await mock.fetch(`${mock.baseUrl}/api/v1/support/tickets/%E0%A4%A`, { headers: auth })).status,
    ).toBe(404)
  })

  test('a bad base URL is refused at creation', () => {
    expect(() => createMockApi({ baseUrl: 'api.reseller.test' })).toThrow('baseUrl')
    expect(() => createMockApi({ baseUrl: 'ftp://x' })).toThrow('baseUrl')
  })
})

/** A mock context on the test seed, below the HTTP layers. */
const context = () =>
  createContext({
    baseUrl: 'https://x.test',
    insecureWebhooks: false,
    clock: createClock(),
    seed: parseSeed(testSeed()),
  })

describe('core handler', () => {
  const request = (method: string, path: string, headers: Record<string, string> = {}) => ({
    method,
    path,
    query: new URLSearchParams(),
    headers: new Headers(headers),
    body: '',
  })

  test('an unexpected exception → 500 internal_error without details; an ApiError keeps its own', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    const handle = createHandle(
      [
        route('GET', '/boom', { auth: 'none' }, () => {
          throw new Error('secret stack detail')
        }),
        route('GET', '/teapot', { auth: 'none' }, () => {
          throw new ApiError(422, 'invalid_state', 'nope', undefined, { 'retry-after': '1' })
        }),
        route('GET', '/async', { auth: 'none' }, async () => jsonAnswer(200, '{"success":true,"data":1}')),
      ],
      context(),
    )
    const boom = await handle(request('GET', '/boom'))
    expect(boom.status).toBe(500)
    expect(JSON.parse(boom.body)).toEqual({
      success: false,
      error: { code: 'internal_error', message: 'the mock failed to answer this request' },
    })
    expect(boom.body).not.toContain('secret')
    expect(spy).toHaveBeenCalled()
    spy.mockRestore()
    const teapot = await handle(request('GET', '/teapot'))
    expect(teapot.status).toBe(422)
    expect(teapot.headers['retry-after']).toBe('1')
    expect((await handle(request('GET', '/async'))).body).toBe('{"success":true,"data":1}')
  })

  test('a throw inside a route undoes its writes', async () => {
    const ctx = context()
    const handle = createHandle(
      [
        route('POST', '/half', { auth: 'none' }, (call) => {
          call.mock.store.clients.insert({ id: 9999, reseller_id: 1, name: 'x', email: 'x@x' })
          throw new ApiError(422, 'invalid_state', 'later rule failed')
        }),
      ],
      ctx,
    )
    expect((await handle(request('POST', '/half'))).status).toBe(422)
    expect(ctx.store.clients.get(9999)).toBeUndefined()
  })
})

describe('route table', () => {
  test('duplicate routes are refused at compile time', () => {
    const r = () => jsonAnswer(200, '{}')
    expect(() => compileRoutes([route('GET', '/a/:x', {}, r), route('GET', '/a/:y', {}, r)])).toThrow(
      'duplicate route',
    )
  })

  test('static paths win over parameters; parameters are decoded', () => {
    const r = () => jsonAnswer(200, '{}')
    const statics = route('GET', '/a/b', {}, r)
    const param = route('GET', '/a/:x', {}, r)
    const match = compileRoutes([param, statics])
    expect(match('GET', '/a/b')!.route).toBe(statics)
    expect(match('GET', '/a/c%20d')).toEqual({ route: param, params: { x: 'c d' } })
    expect(match('POST', '/a/b')).toBeUndefined()
    expect(match('GET', '/a/')).toBeUndefined()
  })
})

describe('answers through the bound declaration', () => {
  // Declarations as the SDK writes them (src/operations/), reduced to what the answer reads.
  const Thing = z.object({ id: z.number(), name: z.string() })
  const declaration = { method: 'POST', path: '/things', params: undefined, wireNames: undefined, access: {} }
  const create = {
    ...declaration,
    kind: 'one',
    successor: undefined,
    body: undefined,
    bodyOptional: false,
    data: Thing,
    status: 201,
    envelope: z.object({ data: Thing }),
  } as Endpoint<z.output<typeof Thing>, undefined>
  const list = {
    ...declaration,
    method: 'GET',
    kind: 'list',
    successor: undefined,
    body: undefined,
    bodyOptional: false,
    item: Thing,
    status: 200,
    envelope: z.object({ data: z.array(Thing) }),
  } as unknown as ListEndpoint<z.output<typeof Thing>>
  const send = (method: string) => ({
    method,
    path: '/api/v1/things',
    query: new URLSearchParams(),
    headers: new Headers({ authorization: `Bearer ${KEYS.a}` }),
    body: '',
  })

  test('call.answer: the declared status, the value through the declared schema (storage fields dropped)', async () => {
    const handle = createHandle(
      [route(create, (call) => call.answer({ id: 1, name: 'a', secret: 'kept in storage' } as never))],
      context(),
    )
    const answer = await handle(send('POST'))
    expect(answer.status).toBe(201)
    expect(JSON.parse(answer.body)).toEqual({ success: true, data: { id: 1, name: 'a' } })
  })

  test('call.answerRecord projects once per version of the record', async () => {
    const ctx = context()
    const row = ctx.store.clients.insert({ id: 9001, reseller_id: 1, name: 'c', email: 'c@x.test' })
    const project = vi.fn(() => ({ id: 7, name: ctx.store.clients.get(9001)!.name }))
    const handle = createHandle([route(create, (call) => call.answerRecord(row, project))], ctx)
    expect(JSON.parse((await handle(send('POST'))).body).data).toEqual({ id: 7, name: 'c' })
    await handle(send('POST'))
    expect(project).toHaveBeenCalledTimes(1)
    ctx.store.clients.update(row, { name: 'renamed' })
    expect(JSON.parse((await handle(send('POST'))).body).data).toEqual({ id: 7, name: 'renamed' })
    expect(project).toHaveBeenCalledTimes(2)
  })

  test('call.answerPage: newest first, the page of the query, meta of the whole list', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, name: `n${i + 1}` }))
    const handle = createHandle([route(list, (call) => call.answerPage(rows))], context())
    const second = await handle({ ...send('GET'), query: new URLSearchParams('page=2') })
    expect(second.status).toBe(200)
    const body = JSON.parse(second.body)
    expect(body.data.map((thing: { id: number }) => thing.id)).toEqual([5, 4, 3, 2, 1])
    expect(body.meta).toEqual({ total: 25, per_page: 20, current_page: 2 })
  })

  test('answering without a declaration of that kind is a bug of the mock: a 500, logged', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const handle = createHandle(
        [
          route('GET', '/control', { auth: 'none' }, (call) => call.answer({} as never)),
          route(create, (call) => call.answerPage([])),
        ],
        context(),
      )
      expect((await handle({ ...send('GET'), path: '/control' })).status).toBe(500)
      expect((await handle(send('POST'))).status).toBe(500)
      expect(String(spy.mock.calls.flat().join(' '))).toContain('not bound to a declaration that answers')
    } finally {
      spy.mockRestore()
    }
  })
})
