// Every error code the API and the mock answer, with its status, in one table.
import { ERROR_CODES } from '@reseller-api/sdk/schemas'
import { expect, test } from 'vitest'
import { type Answer, call, expectError, KEYS, newMock, testSeed, ticketUuid } from '../helpers/mock.js'

type Case = [code: string, status: number, run: () => Promise<Answer>]

const full = () => {
  const seed = testSeed()
  seed.resellers[0]!.whm!.accounts_limit = 1
  return newMock(seed)
}

const cases: Case[] = [
  ['unauthenticated', 401, () => call(newMock(), 'GET', '/services', { key: 'svc_live_unknown' })],
  ['insufficient_scope', 403, () => call(newMock(), 'GET', '/support/tickets', { key: KEYS.aHosting })],
  [
    'sandbox_read_only',
    403,
    () => call(newMock(), 'POST', '/support/tickets', { key: KEYS.aSandbox, body: {} }),
  ],
  ['not_found', 404, () => call(newMock(), 'GET', '/reseller/whm/accounts/nobody')],
  ['validation_error', 422, () => call(newMock(), 'GET', '/support/tickets?page=0')],
  [
    'unsupported_media_type',
    415,
    () =>
      call(newMock(), 'POST', '/support/tickets', {
        raw: '{"subject":"s","message":"m","department":"sales"}',
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
      }),
  ],
  [
    'invalid_state',
    422,
    async () => {
      const mock = newMock()
      return call(mock, 'POST', `/support/tickets/${await ticketUuid(mock, 'Closed one')}/messages`, {
        body: { message: 'x' },
      })
    },
  ],
  ['no_reseller_service', 422, () => call(newMock(), 'GET', '/reseller/whm/usage', { key: KEYS.c })],
  ['whm_unavailable', 503, () => call(newMock(), 'GET', '/reseller/whm/usage', { key: KEYS.b })],
  [
    'quota_exceeded',
    422,
    () =>
      call(full(), 'POST', '/reseller/clients/501/hosting', {
        body: { domain: 'q.example', whm_package: 'starter' },
      }),
  ],
  [
    'domain_taken',
    422,
    () =>
      call(newMock(), 'POST', '/reseller/clients/501/hosting', {
        body: { domain: 'existing.example', whm_package: 'starter' },
      }),
  ],
  [
    'insufficient_funds',
    422,
    () => {
      const seed = testSeed()
      seed.resellers[0]!.wallet_balance = 12.49
      return call(newMock(seed), 'POST', '/reseller/clients/501/hosting', {
        body: { domain: 'f.example', whm_package: 'starter', register_domain: true },
      })
    },
  ],
  // Codes only a fault makes the mock answer, each with its default code.
  ...(
    [
      ['rate_limited', 429],
      ['service_unavailable', 503],
      ['request_timeout', 408],
    ] as const
  ).map(
    ([code, status]): Case => [
      code,
      status,
      () => {
        const mock = newMock()
        mock.faults.add({ respond: { status }, times: 1 })
        return call(mock, 'GET', '/services')
      },
    ],
  ),
]

test.each(cases)('%s → %i', async (code, status, run) => {
  expectError(await run(), status, code)
})

/** Codes only the standalone server's node:http layer answers: tested in server-guard.test.ts and client-error.test.ts. */
const SERVER_ONLY = new Set(['forbidden_host', 'cross_origin', 'bad_request', 'headers_too_large'])

test('every answerable code of the SDK is covered (internal_error and server-only codes aside)', () => {
  const covered = new Set(cases.map(([code]) => code))
  const expected = ERROR_CODES.filter((code) => code !== 'internal_error' && !SERVER_ONLY.has(code))
  expect([...covered].sort()).toEqual([...expected].sort())
})

test('error bodies: success false, code, message; fields only on validation errors', async () => {
  const notFound = await call(newMock(), 'GET', '/reseller/whm/accounts/nobody')
  expect(Object.keys(notFound.body.error).sort()).toEqual(['code', 'message'])
  expect(notFound.body.success).toBe(false)
  const invalid = await call(newMock(), 'GET', '/support/tickets?page=0')
  expect(invalid.body.error.fields).toEqual({ page: ['must be 1 or more'] })
  expect(invalid.headers.get('content-type')).toBe('application/json')
})
