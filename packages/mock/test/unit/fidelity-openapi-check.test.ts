import { beforeAll, describe, expect, it } from 'vitest'
import { createExchangeChecker, type ExchangeToCheck } from '../../src/fidelity/openapi-check.js'
import { createAnswerChecker } from '../helpers/answer-check.js'
import { KEYS, newMock } from '../helpers/mock.js'

type Checker = ReturnType<typeof createExchangeChecker>
let checker: Checker
let ajvChecker: ReturnType<typeof createAnswerChecker>
const mock = newMock()

/** Sends one request to the in-process mock and returns it as an exchange to check. */
async function exchange(method: string, path: string, body?: unknown, key: string | null = KEYS.a) {
  const requestHeaders: Record<string, string> = {}
  if (key !== null) requestHeaders.authorization = `Bearer ${key}`
  const requestBody = body === undefined ? null : JSON.stringify(body)
  if (requestBody !== null) requestHeaders['content-type'] = 'application/json'
  const response = await mock.fetch(`${mock.baseUrl}${path}`, {
    method,
    headers: requestHeaders,
    body: requestBody,
  })
  const text = await response.text()
  return {
    method,
    path,
    requestHeaders,
    requestBody,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: text === '' ? null : text,
  } satisfies ExchangeToCheck
}

function withBody(ex: ExchangeToCheck, change: (body: Record<string, unknown>) => void): ExchangeToCheck {
  const body = JSON.parse(ex.body!) as Record<string, unknown>
  change(body)
  return { ...ex, body: JSON.stringify(body) }
}

beforeAll(async () => {
  const document = await (await mock.fetch(`${mock.baseUrl}/__mock/openapi.json`)).json()
  checker = createExchangeChecker(document)
  ajvChecker = createAnswerChecker(document)
})

describe('createExchangeChecker', () => {
  it("finds nothing in the mock's own answers, as the ajv check of the tests does not", async () => {
    const tickets = await exchange('GET', '/api/v1/support/tickets')
    const uuid = JSON.parse(tickets.body!).data[0].uuid as string
    const exchanges = [
      tickets,
      await exchange('GET', `/api/v1/support/tickets/${uuid}`),
      await exchange('GET', '/api/v1/support/tickets?page=0'),
      await exchange('GET', '/api/v1/services', undefined, null),
      await exchange('GET', '/api/v1/reseller/whm/usage'),
      await exchange('GET', '/api/v1/reseller/whm/packages/nope'),
      await exchange('POST', '/api/v1/support/tickets', {
        subject: 'Hi',
        department: 'technical',
        message: 'm',
      }),
      await exchange('POST', '/api/v1/webhooks', {
        url: 'https://hooks.example.com/x',
        events: ['ticket.created'],
      }),
      await exchange('GET', '/api/v1/no/such/route'),
    ]
    expect(exchanges.map((e) => e.status)).toEqual([200, 200, 422, 401, 200, 404, 201, 201, 404])
    for (const ex of exchanges) {
      expect(checker.check(ex), `${ex.method} ${ex.path}`).toEqual([])
      const bare = ex.path.split('?')[0]!
      const answer = {
        ...ex,
        path: bare,
        contentType: ex.headers['content-type'] ?? null,
        body: ex.body ?? '',
      }
      expect(ajvChecker.check(answer), `${ex.method} ${ex.path}`).toEqual([])
    }
  })

  it('names a field of another type, an enum value and a missing field by pointer', async () => {
    const tickets = await exchange('GET', '/api/v1/support/tickets')
    const changed = withBody(tickets, (body) => {
      const [first, second, third] = body.data as Record<string, unknown>[]
      first!.priority_score = 3
      second!.messages_count = '2'
      third!.status = 'escalated'
      delete (body.meta as Record<string, unknown>).total
    })
    const violations = checker.check(changed).join('\n')
    expect(violations).toMatch(/answer \/data\/1\/messages_count: .*number/)
    expect(violations).toMatch(/answer \/data\/2\/status: /)
    expect(violations).toMatch(/answer \/meta\/total: /)
  })

  it('tells a status the operation does not list, but not a transient one', async () => {
    const usage = await exchange('GET', '/api/v1/reseller/whm/usage')
    const error = JSON.stringify({ success: false, error: { code: 'conflict', message: 'x' } })
    expect(checker.check({ ...usage, status: 409, body: error })).toEqual([
      expect.stringMatching(
        /status 409 is not one the document lists for GET \/api\/v1\/reseller\/whm\/usage/,
      ),
    ])
    expect(checker.check({ ...usage, status: 500, body: error })).toEqual([])
    expect(checker.check({ ...usage, status: 500, body: '{"oops":1}' })).not.toEqual([])
    // A listed status is held to its own schema.
    expect(checker.check({ ...usage, status: 503, body: '{"oops":1}' })).not.toEqual([])
  })

  it('tells an answer that is not JSON where the document says JSON', async () => {
    const usage = await exchange('GET', '/api/v1/reseller/whm/usage')
    expect(checker.check({ ...usage, headers: { 'content-type': 'text/html' }, body: '<html>' })).toEqual([
      expect.stringMatching(/Content-Type is text\/html, the document says application\/json/),
    ])
    expect(checker.check({ ...usage, body: '{not json' })).toEqual([
      expect.stringMatching(/answer: the body is not JSON/),
    ])
  })

  it('tells a request body the service accepted against the document, not one it refused', async () => {
    const created = await exchange('POST', '/api/v1/support/tickets', {
      subject: 'Hi',
      department: 'technical',
      message: 'm',
    })
    const accepted = {
      ...created,
      requestBody: JSON.stringify({ subject: 'Hi', department: 'hr', message: 'm' }),
    }
    expect(checker.check(accepted)).toEqual([expect.stringMatching(/request body \/department: /)])
    const refused = await exchange('POST', '/api/v1/support/tickets', { subject: 'Hi', department: 'hr' })
    expect(refused.status).toBe(422)
    expect(checker.check(refused)).toEqual([])
  })

  it('tells an operation the document does not have, unless it was answered 404', async () => {
    const usage = await exchange('GET', '/api/v1/reseller/whm/usage')
    expect(checker.check({ ...usage, path: '/api/v1/reseller/whm/usage/extra' })).toEqual([
      expect.stringMatching(/the document has no operation GET \/api\/v1\/reseller\/whm\/usage\/extra/),
    ])
  })

  it('checks the headers the document declares', async () => {
    const usage = await exchange('GET', '/api/v1/reseller/whm/usage')
    expect(checker.check({ ...usage, headers: { ...usage.headers, 'x-request-id': 'abc' } })).toEqual([
      expect.stringMatching(/header X-Request-Id "abc"/),
    ])
  })
})
