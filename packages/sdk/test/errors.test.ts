import { inspect } from 'node:util'
import { describe, expect, it, vi } from 'vitest'
import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  DomainTakenError,
  InsufficientFundsError,
  InvalidStateError,
  isApiError,
  isResellerApiError,
  NoResellerServiceError,
  NotFoundError,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitError,
  ResellerApiError,
  ResponseValidationError,
  SandboxReadOnlyError,
  ServerError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
  WhmUnavailableError,
} from '../src/index.js'
import { API, fail, fixtures, json, LIVE_KEY, ok, setup } from './helpers/fake-api.js'

/** Runs `call` and returns what it rejected with (fails the test if it resolved). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    (value) => ({ resolved: value }),
    (error: unknown) => ({ error }),
  )
  if (!('error' in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.resolved)}`)
  return outcome.error as Error
}

describe('every non-2xx answer becomes its class, from status and error.code', () => {
  const cases: [number, string, abstract new (...args: never[]) => ApiError, string][] = [
    [401, 'unauthenticated', AuthenticationError, 'AuthenticationError'],
    [403, 'insufficient_scope', PermissionDeniedError, 'PermissionDeniedError'],
    [403, 'sandbox_read_only', SandboxReadOnlyError, 'SandboxReadOnlyError'],
    [404, 'not_found', NotFoundError, 'NotFoundError'],
    [422, 'validation_error', ValidationError, 'ValidationError'],
    [422, 'invalid_state', InvalidStateError, 'InvalidStateError'],
    [422, 'no_reseller_service', NoResellerServiceError, 'NoResellerServiceError'],
    [422, 'quota_exceeded', QuotaExceededError, 'QuotaExceededError'],
    [422, 'domain_taken', DomainTakenError, 'DomainTakenError'],
    [422, 'insufficient_funds', InsufficientFundsError, 'InsufficientFundsError'],
    [422, 'something_new', UnprocessableEntityError, 'UnprocessableEntityError'],
    [429, 'rate_limited', RateLimitError, 'RateLimitError'],
    [500, 'internal_error', ServerError, 'ServerError'],
    [503, 'whm_unavailable', WhmUnavailableError, 'WhmUnavailableError'],
    [409, 'conflict', ApiError, 'ApiError'],
  ]

  it.each(cases)('%i %s → %s', async (status, code, Class, name) => {
    const { api } = setup(() => fail(status, code, `the server says ${code}`), { maxRetries: 0 })
    const error = await rejection(api.whm.usage())
    expect(error).toBeInstanceOf(Class)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toBeInstanceOf(ResellerApiError)
    expect(error.name).toBe(name)
    expect(error.constructor).toBe(Class)
    const apiError = error as ApiError
    expect(apiError.status).toBe(status)
    expect(apiError.code).toBe(code)
    expect(apiError.message).toContain(`the server says ${code}`)
    expect(apiError.message).toContain(`GET ${API}/reseller/whm/usage`)
    expect(apiError.body).toEqual({ success: false, error: { code, message: `the server says ${code}` } })
  })

  it('families: a sandbox refusal is a permission error, WHM down is a server error, every 422 is unprocessable', async () => {
    const sandbox = await rejection(
      setup(() => fail(403, 'sandbox_read_only')).api.tickets.close(fixtures.uuid),
    )
    expect(sandbox).toBeInstanceOf(PermissionDeniedError)
    const whm = await rejection(setup(() => fail(503, 'whm_unavailable'), { maxRetries: 0 }).api.whm.usage())
    expect(whm).toBeInstanceOf(ServerError)
    for (const code of [
      'validation_error',
      'invalid_state',
      'quota_exceeded',
      'domain_taken',
      'insufficient_funds',
    ]) {
      const error = await rejection(setup(() => fail(422, code)).api.whm.usage())
      expect(error).toBeInstanceOf(UnprocessableEntityError)
    }
  })

  it('ValidationError from the server carries its fields', async () => {
    const fields = { domain: ['must be a domain name such as example.com'] }
    const { api } = setup(() => fail(422, 'validation_error', 'invalid body', { fields }))
    const error = await rejection(api.hosting.create(501, { domain: 'shop.example', whm_package: 'starter' }))
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).fields).toEqual(fields)
  })

  it('keeps X-Request-Id as requestId and the answer headers', async () => {
    const { api } = setup(() =>
      fail(404, 'not_found', 'no such ticket', { headers: { 'x-request-id': 'req_42' } }),
    )
    const error = (await rejection(api.tickets.get(fixtures.uuid))) as NotFoundError
    expect(error.requestId).toBe('req_42')
    expect(error.headers?.get('x-request-id')).toBe('req_42')
  })

  it('RateLimitError.retryAfter reads Retry-After seconds', async () => {
    const { api } = setup(() => fail(429, 'rate_limited', 'slow down', { headers: { 'retry-after': '120' } }))
    const error = (await rejection(api.whm.usage())) as RateLimitError
    expect(error).toBeInstanceOf(RateLimitError)
    expect(error.retryAfter).toBe(120)
  })

  it('a 5xx without an error envelope (a proxy page) is still a ServerError, with no code', async () => {
    const { api } = setup(
      () => new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway' }),
      { maxRetries: 0 },
    )
    const error = (await rejection(api.whm.usage())) as ServerError
    expect(error).toBeInstanceOf(ServerError)
    expect(error.status).toBe(502)
    expect(error.code).toBeUndefined()
    expect(error.body).toBe('<h1>Bad gateway</h1>')
    expect(error.message).toContain('Bad Gateway')
  })
})

describe('requests refused before sending', () => {
  it('throws ValidationError naming the field, and never calls fetch', async () => {
    const { api, sent } = setup(() => ok({}))
    const error = (await rejection(
      api.tickets.create({ subject: 'x'.repeat(256), message: 'Hello', department: 'technical' }),
    )) as ValidationError
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.status).toBe(422)
    expect(error.code).toBe('validation_error')
    expect(error.fields).toEqual({ subject: ['must be at most 255 characters'] })
    expect(error.message).toContain('subject: must be at most 255 characters')
    expect(error.headers).toBeUndefined()
    expect(sent).toHaveLength(0)
  })

  it('reports every failing field at once: path parameters and body', async () => {
    const { api, sent } = setup(() => ok({}))
    const error = (await rejection(
      api.hosting.create(0, { domain: 'not a domain', whm_package: 'starter', colour: 'red' } as never),
    )) as ValidationError
    expect(Object.keys(error.fields).sort()).toEqual(['clientId', 'colour', 'domain'])
    expect(error.fields.colour).toEqual(['is not a known field'])
    expect(sent).toHaveLength(0)
  })

  it('a missing required field is reported as required', async () => {
    const { api } = setup(() => ok({}))
    const error = (await rejection(
      api.tickets.create({ subject: 'Hi', message: 'Hello' } as never),
    )) as ValidationError
    expect(error.fields).toEqual({ department: ['is required'] })
  })
})

describe('2xx answers that break their schema', () => {
  it('throw ResponseValidationError whose message names the failing field', async () => {
    const broken = { ...fixtures.ticketDetail(), status: 'on_fire' }
    const { api } = setup(() => ok(broken, 200, { 'x-request-id': 'req_7' }), { strictResponses: true })
    const error = (await rejection(api.tickets.get(fixtures.uuid))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error).toBeInstanceOf(ResellerApiError)
    expect(error.name).toBe('ResponseValidationError')
    expect(error.status).toBe(200)
    expect(Object.keys(error.fields)).toEqual(['data.status'])
    expect(error.message).toContain('data.status: must be one of open, in_progress, resolved, closed')
    expect(error.requestId).toBe('req_7')
  })

  it('names a missing field inside a list item', async () => {
    const { id: _dropped, ...noId } = fixtures.ticket()
    const { api } = setup(() =>
      json(200, { success: true, data: [noId], meta: { total: 1, per_page: 20, current_page: 1 } }),
    )
    const error = (await rejection(api.tickets.list())) as ResponseValidationError
    expect(error.fields).toEqual({ 'data.0.id': ['is required'] })
  })

  it('refuses a body that is not JSON, or empty', async () => {
    const html = setup(() => new Response('<html>', { status: 200 }))
    expect(((await rejection(html.api.whm.usage())) as ResponseValidationError).fields).toEqual({
      body: ['is not valid JSON'],
    })
    const empty = setup(() => new Response(null, { status: 204 }))
    expect(((await rejection(empty.api.whm.usage())) as ResponseValidationError).fields).toEqual({
      body: ['is empty: expected a JSON envelope'],
    })
  })

  it('does not keep the body, which may hold a secret', async () => {
    const { api } = setup(() =>
      ok(
        { id: 'wh_1', url: 'https://x.example/h', events: ['ticket.created'], secret: 'whsec_DO_NOT_LEAK' },
        201,
      ),
    )
    const error = await rejection(
      api.webhooks.create({ url: 'https://x.example/h', events: ['ticket.created'] }),
    )
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect((error as ResponseValidationError).fields).toHaveProperty(['data.created_at'])
    expect(inspect(error, { depth: 10 })).not.toContain('whsec_DO_NOT_LEAK')
  })
})

describe('no answer', () => {
  it('a fetch that throws becomes ConnectionError, with the original error as cause', async () => {
    const cause = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:4010') })
    const { api } = setup(
      () => {
        throw cause
      },
      { maxRetries: 0 },
    )
    const error = (await rejection(api.whm.usage())) as ConnectionError
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error).not.toBeInstanceOf(TimeoutError)
    expect(error.name).toBe('ConnectionError')
    expect(error.cause).toBe(cause)
    expect(error.method).toBe('GET')
    expect(error.url).toBe(`${API}/reseller/whm/usage`)
  })

  it('no answer within timeoutMs becomes TimeoutError (a ConnectionError)', async () => {
    const { api } = setup(
      (request) =>
        new Promise<Response>((_, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason))
        }),
      { maxRetries: 0, timeoutMs: 30 },
    )
    const started = Date.now()
    const error = (await rejection(api.whm.usage())) as TimeoutError
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error.timeoutMs).toBe(30)
    expect(error.message).toContain('timed out after 30 ms')
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('a body that stalls after the status line also times out, and the attempt is aborted', async () => {
    let signal: AbortSignal | undefined
    const { api } = setup(
      (request) => {
        signal = request.signal
        return new Response(
          new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"succ')) }),
          {
            status: 200,
          },
        )
      },
      { maxRetries: 0, timeoutMs: 30 },
    )
    expect(await rejection(api.whm.usage())).toBeInstanceOf(TimeoutError)
    // A standard fetch ends the download when its request's signal aborts.
    expect(signal?.aborted).toBe(true)
  })

  it('timeoutMs bounds the whole attempt: an answer that starts in time but ends late times out', async () => {
    const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
    const { api } = setup(
      async () => {
        await later(40)
        const body = new ReadableStream({
          async start(c) {
            await later(40)
            c.enqueue(new TextEncoder().encode(JSON.stringify({ success: true, data: fixtures.usage() })))
            c.close()
          },
        })
        return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })
      },
      { maxRetries: 0, timeoutMs: 60 },
    )
    const error = (await rejection(api.whm.usage())) as TimeoutError
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error.timeoutMs).toBe(60)
  })

  it('a body that breaks off becomes ConnectionError (the answer was cut short), with the cause', async () => {
    const cause = new TypeError('terminated', { cause: new Error('other side closed') })
    const { api } = setup(
      () =>
        new Response(
          new ReadableStream({
            start(c) {
              c.enqueue(new TextEncoder().encode('{"success":true,"da'))
              c.error(cause)
            },
          }),
          { status: 200 },
        ),
      { maxRetries: 0 },
    )
    const error = (await rejection(api.whm.usage())) as ConnectionError
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error).not.toBeInstanceOf(TimeoutError)
    expect(error.message).toBe(
      `GET ${API}/reseller/whm/usage: the answer was cut short; it may have reached the service (outcome unknown); a GET changes nothing, sending it again is safe`,
    )
    expect(error.cause).toBe(cause)
  })

  it('per-call timeoutMs overrides the client default', async () => {
    const { api } = setup(
      (request) =>
        new Promise<Response>((_, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason))
        }),
      { maxRetries: 0 },
    )
    const error = (await rejection(api.whm.usage({ timeoutMs: 20 }))) as TimeoutError
    expect(error.timeoutMs).toBe(20)
  })

  it('an aborted call rejects with the signal reason and is not retried', async () => {
    const controller = new AbortController()
    const { api, sent } = setup((request) => {
      controller.abort(new Error('user gave up'))
      return Promise.reject(request.signal.reason)
    })
    const error = await rejection(api.whm.usage({ signal: controller.signal }))
    expect(error.message).toBe('user gave up')
    expect(sent).toHaveLength(1)
  })
})

describe('type guards work across copies of the package (by brand)', () => {
  it('recognise real instances', async () => {
    const error = await rejection(setup(() => fail(404, 'not_found')).api.whm.usage())
    expect(isApiError(error)).toBe(true)
    expect(isResellerApiError(error)).toBe(true)
  })

  it('recognise the errors of a second copy of the package, which instanceof misses', async () => {
    vi.resetModules()
    const copy = await import('../src/core/errors.js')
    const init = { status: 403, code: 'sandbox_read_only', message: 'm', body: undefined, headers: undefined }
    const foreign = new copy.SandboxReadOnlyError({ ...init, method: 'GET', url: API })
    expect(foreign).not.toBeInstanceOf(ApiError)
    expect(isApiError(foreign)).toBe(true)
    expect(isResellerApiError(foreign)).toBe(true)
    const timeout = new copy.TimeoutError({ method: 'GET', url: API, timeoutMs: 1, message: 'slow' })
    expect(isResellerApiError(timeout)).toBe(true)
    expect(isApiError(timeout)).toBe(false)
  })

  it('refuse look-alikes that only share a class name, and anything else', () => {
    // ky's own TimeoutError has this name: it is not one of the SDK's errors.
    expect(isResellerApiError(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toBe(false)
    expect(isApiError(Object.assign(new Error('x'), { name: 'NotFoundError' }))).toBe(false)
    expect(isApiError(new TypeError('x'))).toBe(false)
    expect(isResellerApiError(null)).toBe(false)
    expect(isResellerApiError('NotFoundError')).toBe(false)
  })
})

describe('the API key appears nowhere', () => {
  const places = (error: unknown) => [
    JSON.stringify(error),
    JSON.stringify(Object.getOwnPropertyDescriptors(error)),
    inspect(error, { depth: 10, showHidden: true }),
    String((error as Error).stack),
    String((error as Error).message),
    inspect((error as Error).cause, { depth: 10, showHidden: true }),
  ]

  const failures: [
    string,
    () => ReturnType<typeof setup>,
    (api: ReturnType<typeof setup>['api']) => Promise<unknown>,
  ][] = [
    ['401', () => setup(() => fail(401, 'unauthenticated')), (api) => api.whm.usage()],
    [
      '503 after retries',
      () => setup(() => fail(503, 'whm_unavailable'), { maxRetries: 0 }),
      (api) => api.whm.usage(),
    ],
    [
      'connection error',
      () =>
        setup(
          () => {
            throw new TypeError('fetch failed')
          },
          { maxRetries: 0 },
        ),
      (api) => api.whm.usage(),
    ],
    [
      'timeout',
      () =>
        setup(
          (request) =>
            new Promise((_, reject) =>
              request.signal.addEventListener('abort', () => reject(request.signal.reason)),
            ),
          {
            maxRetries: 0,
            timeoutMs: 10,
          },
        ),
      (api) => api.whm.usage(),
    ],
    ['response validation', () => setup(() => ok({ nope: true })), (api) => api.whm.usage()],
    [
      'request validation of a secret',
      () => setup(() => ok({})),
      (api) => api.resellerWebhook.update({ url: 'https://x.example', secret: LIVE_KEY.repeat(20) }),
    ],
  ]

  it.each(failures)('%s', async (_label, make, call) => {
    const { api } = make()
    const error = await rejection(call(api) as Promise<unknown>)
    expect(isResellerApiError(error)).toBe(true)
    for (const text of places(error)) expect(text).not.toContain('TOPSECRET')
  })

  it('the client object itself does not reveal it', () => {
    const { api } = setup(() => ok({}))
    expect(inspect(api, { depth: 20, showHidden: true })).not.toContain('TOPSECRET')
    expect(JSON.stringify(api)).not.toContain('TOPSECRET')
  })
})
