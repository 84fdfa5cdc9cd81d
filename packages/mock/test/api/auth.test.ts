import { describe, expect, test } from 'vitest'
import { call, expectError, KEYS, newMock, ticketUuid } from '../helpers/mock.js'

describe('401 unauthenticated', () => {
  test.each([
    ['missing header', undefined],
    ['empty', ''],
    ['no Bearer scheme', 'svc_live_a_full'],
    ['Basic scheme', 'Basic c3ZjOng='],
    ['Bearer without key', 'Bearer '],
    ['unknown key', 'Bearer svc_live_nobody'],
    ['key of no known kind', 'Bearer sk_live_a_full'],
  ])('%s', async (_case, authorization) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization }
    const answer = await call(newMock(), 'GET', '/support/tickets', { key: null, headers })
    expectError(answer, 401, 'unauthenticated')
  })

  test('the key never appears in an error message', async () => {
    const answer = await call(newMock(), 'GET', '/support/tickets', { key: 'svc_live_secret_value' })
    expect(JSON.stringify(answer.body)).not.toContain('secret_value')
  })

  test('a key accepted once is no pass for a mock that does not hold it, though the same header is sent', async () => {
    const mock = newMock()
    expect((await call(mock, 'GET', '/support/tickets')).status).toBe(200)
    // Another mock in the same process, whose only key is another: the header read last is no pass.
    const other = newMock({ resellers: [{ id: 1, name: 'Other', api_keys: [{ key: 'svc_live_other' }] }] })
    expectError(await call(other, 'GET', '/support/tickets'), 401, 'unauthenticated')
    expect((await call(other, 'GET', '/support/tickets', { key: 'svc_live_other' })).status).toBe(200)
    expect((await call(mock, 'GET', '/support/tickets')).status).toBe(200)
  })

  test('the Bearer scheme is case-insensitive', async () => {
    const answer = await call(newMock(), 'GET', '/support/tickets', {
      key: null,
      headers: { authorization: `bearer ${KEYS.a}` },
    })
    expect(answer.status).toBe(200)
  })
})

describe('403 insufficient_scope', () => {
  const endpoints: [string, string, string, string[]][] = [
    [
      'POST',
      '/reseller/clients/501/hosting',
      'reseller:hosting',
      [KEYS.aRead, KEYS.aWrite, KEYS.aWebhooks, KEYS.aNone],
    ],
    [
      'POST',
      '/reseller/clients/501/hosting/existing/suspend',
      'reseller:hosting',
      [KEYS.aRead, KEYS.aWebhooks],
    ],
    ['DELETE', '/reseller/clients/501/hosting/existing', 'reseller:hosting', [KEYS.aWrite]],
    ['GET', '/reseller/whm/usage', 'reseller:hosting', [KEYS.aRead, KEYS.aWebhooks, KEYS.aNone]],
    ['GET', '/reseller/whm/accounts', 'reseller:hosting', [KEYS.aRead]],
    ['GET', '/reseller/whm/packages', 'reseller:hosting', [KEYS.aWrite]],
    ['POST', '/reseller/whm/packages', 'reseller:hosting', [KEYS.aWebhooks]],
    ['GET', '/reseller/accounts', 'reseller:hosting', [KEYS.aRead]],
    ['GET', '/reseller/webhook', 'reseller:webhooks', [KEYS.aHosting, KEYS.aRead, KEYS.aNone]],
    ['PUT', '/reseller/webhook', 'reseller:webhooks', [KEYS.aHosting, KEYS.aWrite]],
    ['POST', '/webhooks', 'reseller:webhooks', [KEYS.aHosting, KEYS.aRead, KEYS.aWrite, KEYS.aNone]],
    ['GET', '/support/tickets', 'support:read', [KEYS.aWrite, KEYS.aHosting, KEYS.aNone]],
    ['POST', '/support/tickets', 'support:write', [KEYS.aRead, KEYS.aHosting]],
  ]
  test.each(endpoints)('%s %s needs %s', async (method, path, scope, refused) => {
    const mock = newMock()
    for (const key of refused) {
      const answer = await call(mock, method, path, { key, body: {} })
      expectError(answer, 403, 'insufficient_scope')
      expect(answer.body.error.message).toContain(scope)
    }
  })

  test('ticket detail needs support:read; close needs support:write', async () => {
    const mock = newMock()
    const uuid = await ticketUuid(mock, 'First')
    expectError(
      await call(mock, 'GET', `/support/tickets/${uuid}`, { key: KEYS.aWrite }),
      403,
      'insufficient_scope',
    )
    expectError(
      await call(mock, 'PATCH', `/support/tickets/${uuid}/close`, { key: KEYS.aRead }),
      403,
      'insufficient_scope',
    )
    expect((await call(mock, 'PATCH', `/support/tickets/${uuid}/close`, { key: KEYS.aWrite })).status).toBe(
      200,
    )
  })

  test('services and invoices need only a valid key (even one without scopes)', async () => {
    const mock = newMock()
    expect((await call(mock, 'GET', '/services', { key: KEYS.aNone })).status).toBe(200)
    expect((await call(mock, 'GET', '/invoices', { key: KEYS.aNone })).status).toBe(200)
    expectError(await call(mock, 'GET', '/services', { key: null }), 401, 'unauthenticated')
  })
})

describe('check order: 401, 403 scope, 403 sandbox, 404, 422, business rules', () => {
  test('bad key + bad body → 401', async () => {
    const answer = await call(newMock(), 'POST', '/support/tickets', { key: 'svc_live_nope', raw: '{' })
    expectError(answer, 401, 'unauthenticated')
  })

  test('missing scope beats sandbox: sandbox key without support:write → insufficient_scope', async () => {
    const seed = (await import('../helpers/mock.js')).testSeed()
    seed.resellers[0]!.api_keys.push({ key: 'svc_test_a_readonly', scopes: ['support:read'] })
    const answer = await call(newMock(seed), 'POST', '/support/tickets', {
      key: 'svc_test_a_readonly',
      body: {},
    })
    expectError(answer, 403, 'insufficient_scope')
  })

  test('sandbox key on POST ticket with an invalid body → 403 sandbox_read_only', async () => {
    const answer = await call(newMock(), 'POST', '/support/tickets', {
      key: KEYS.aSandbox,
      body: { subject: 1 },
    })
    expectError(answer, 403, 'sandbox_read_only')
  })

  test('sandbox key on an unknown ticket → 403 before 404', async () => {
    const answer = await call(
      newMock(),
      'PATCH',
      '/support/tickets/44444444-4444-4444-8444-444444444444/close',
      {
        key: KEYS.aSandbox,
      },
    )
    expectError(answer, 403, 'sandbox_read_only')
  })

  test('unknown ticket + invalid body → 404 before 422', async () => {
    const answer = await call(
      newMock(),
      'POST',
      '/support/tickets/44444444-4444-4444-8444-444444444444/messages',
      {
        body: { message: '' },
      },
    )
    expectError(answer, 404, 'not_found')
  })

  test('invalid body with the quota full → 422 validation_error before quota_exceeded', async () => {
    const seed = (await import('../helpers/mock.js')).testSeed()
    seed.resellers[0]!.whm!.accounts_limit = 1
    const answer = await call(newMock(seed), 'POST', '/reseller/clients/501/hosting', {
      body: { domain: 'x' },
    })
    expectError(answer, 422, 'validation_error')
  })

  test('unknown route → 404 even without a key', async () => {
    expectError(await call(newMock(), 'GET', '/nothing/here', { key: null }), 404, 'not_found')
    expectError(await call(newMock(), 'DELETE', '/support/tickets', { key: null }), 404, 'not_found')
  })
})
