// The core handler, mock.fetch and the route table, below the HTTP API.
import { describe, expect, test, vi } from 'vitest'
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

describe('core handler', () => {
  const context = () =>
    createContext({
      baseUrl: 'https://x.test',
      insecureWebhooks: false,
      clock: createClock(),
      seed: parseSeed(testSeed()),
    })
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
