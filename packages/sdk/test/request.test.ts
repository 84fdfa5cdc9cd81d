/**
 * `api.request(method, path, { query?, body? })`: any endpoint under /api/v1 with the client's key,
 * retries, errors and logging; the answer's `data` as JSON without a schema; a path that cannot
 * leave /api/v1.
 */
import { describe, expect, it, vi } from 'vitest'
import { ConnectionError, NotFoundError, ResponseValidationError, ServerError } from '../src/index.js'
import { API, fail, json, LIVE_KEY, ok, setup } from './helpers/fake-api.js'

describe('api.request', () => {
  it('sends under /api/v1 with the key, and resolves the answer data as it is (no schema)', async () => {
    const data = { brand_new: true, nested: { status: 'whatever' } }
    const { api, sent } = setup(() => ok(data))
    const got = await api.request<typeof data>('GET', '/reseller/new-thing/7')
    expect(got).toEqual(data)
    expect(sent[0]).toMatchObject({ method: 'GET', url: `${API}/reseller/new-thing/7` })
    expect(sent[0]?.headers.get('authorization')).toBe(`Bearer ${LIVE_KEY}`)
  })

  it('adds query parameters (arrays repeat, undefined and null left out) and sends a JSON body', async () => {
    const { api, sent } = setup(() => ok({ id: 1 }, 201))
    await api.request('POST', '/support/tickets?source=sdk', {
      query: { tag: ['a', 'b'], page: 2, dry: false, skip: undefined, none: null, text: 'x y&z' },
      body: { subject: 'S', message: 'M' },
    })
    expect(sent[0]?.url).toBe(`${API}/support/tickets?source=sdk&tag=a&tag=b&page=2&dry=false&text=x+y%26z`)
    expect(sent[0]?.body).toEqual({ subject: 'S', message: 'M' })
    expect(sent[0]?.headers.get('content-type')).toContain('application/json')
  })

  it('withResponse() gives the answer beside the data; an empty 2xx resolves undefined', async () => {
    const { api } = setup((_r, _s, i) =>
      i === 0 ? ok([1, 2], 200, { 'x-request-id': 'req_1' }) : new Response(null, { status: 204 }),
    )
    const { data, response } = await api.request('GET', '/numbers').withResponse()
    expect(data).toEqual([1, 2])
    expect(response.headers.get('x-request-id')).toBe('req_1')
    expect(await api.request('DELETE', '/numbers/1')).toBeUndefined()
  })

  it("error answers are the SDK's classes; a 2xx that is not JSON a ResponseValidationError", async () => {
    const { api } = setup((_r, _s, i) =>
      i === 0 ? fail(404, 'not_found', 'no such thing') : new Response('<html>', { status: 200 }),
    )
    await expect(api.request('GET', '/nothing')).rejects.toBeInstanceOf(NotFoundError)
    await expect(api.request('GET', '/html')).rejects.toBeInstanceOf(ResponseValidationError)
  })

  it('retries a GET like any method, and never a POST', async () => {
    const busy = () => fail(503, 'service_unavailable', 'busy', { headers: { 'retry-after': '0' } })
    const get = setup((_r, _s, i) => (i < 2 ? busy() : ok('fine')), { maxRetries: 2 })
    expect(await get.api.request('GET', '/flaky')).toBe('fine')
    expect(get.sent).toHaveLength(3)
    const post = setup(() => busy(), { maxRetries: 2 })
    await expect(post.api.request('POST', '/flaky', { body: {} })).rejects.toBeInstanceOf(ServerError)
    expect(post.sent).toHaveLength(1)
  })

  it('no answer is a ConnectionError with its outcome; logging covers it', async () => {
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() }
    const { api } = setup(
      () => {
        throw new TypeError('fetch failed')
      },
      { maxRetries: 0, logger, logLevel: 'debug' },
    )
    const error = await api.request('PATCH', '/things/1', { body: { a: 1 } }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConnectionError)
    expect((error as ConnectionError).outcome).toBe('unknown')
    expect(logger.debug).toHaveBeenCalledWith(
      expect.stringContaining(`→ PATCH ${API}/things/1`),
      expect.any(Object),
    )
  })

  it('a lower-case method is the same method', async () => {
    const { api, sent } = setup(() => ok(null))
    await api.request('put' as 'PUT', '/x', { body: { a: 1 } })
    expect(sent[0]?.method).toBe('PUT')
  })

  it('a path under a baseUrl with a path of its own stays below its /api/v1', async () => {
    const { api, sent } = setup(() => ok(1), { baseUrl: 'https://gw.example.test/reseller' })
    await api.request('GET', '/whm/usage')
    expect(sent[0]?.url).toBe('https://gw.example.test/reseller/api/v1/whm/usage')
    await expect(api.request('GET', '/../../other')).rejects.toThrow('path must stay below /api/v1')
  })

  describe('refuses before sending, naming the argument and the rule', () => {
    const cases: [string, () => Promise<unknown>, string][] = []
    const { api, sent } = setup(() => json(200, {}))
    const add = (name: string, call: () => Promise<unknown>, message: string) =>
      cases.push([name, call, message])
    add('no leading slash', () => api.request('GET', 'support/tickets'), 'path must start with "/"')
    add('a full URL', () => api.request('GET', 'https://evil.example/x'), 'path must start with "/"')
    add(
      'a dot-dot path',
      () => api.request('GET', '/../admin'),
      'api.request: path must stay below /api/v1, without "#": "/../admin" is /api/admin',
    )
    add('an encoded dot-dot', () => api.request('GET', '/%2e%2e/%2E%2E/x'), 'path must stay below /api/v1')
    add('a backslash climb', () => api.request('GET', '/..\\..\\x'), 'path must stay below /api/v1')
    add('a fragment', () => api.request('GET', '/x#frag'), 'without "#"')
    // ky sends a method it is not given as a GET: a HEAD or a typo would read instead of writing.
    add(
      'a method the API has not',
      () => api.request('HEAD' as never, '/x'),
      'method must be GET, POST, PUT, PATCH or DELETE',
    )
    add(
      'a misspelt method',
      () => api.request('DELET' as never, '/x'),
      'method must be GET, POST, PUT, PATCH or DELETE',
    )
    // fetch's and JSON's own refusals, before anything is sent.
    add('a body with GET', () => api.request('GET', '/x', { body: { a: 1 } }), 'GET')
    add('a body JSON cannot carry', () => api.request('POST', '/x', { body: { n: 1n } }), 'BigInt')
    add(
      'a query value of another type',
      () => api.request('GET', '/x', { query: { when: new Date() as never } }),
      'query.when must be a string, number or boolean',
    )
    add(
      'the Authorization header',
      () => api.request('GET', '/x', undefined, { headers: { Authorization: 'x' } }),
      'Authorization header',
    )

    it.each(cases)('%s', async (_name, call, message) => {
      const error = await call().catch((e: unknown) => e)
      expect(error).toBeInstanceOf(TypeError)
      expect((error as Error).message).toContain(message)
      expect(sent).toHaveLength(0)
    })
  })
})
