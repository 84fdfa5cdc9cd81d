import {
  envelope,
  HostingCreatedLive,
  HostingCreatedSandbox,
  WhmAccount,
  WhmAccountDeleted,
} from '@reseller-api/sdk/schemas'
import { describe, expect, test } from 'vitest'
import { call, expectError, KEYS, newMock, state } from '../helpers/mock.js'

const provision = (
  mock = newMock(),
  body: Record<string, unknown> = {},
  key: string = KEYS.a,
  client = 501,
) =>
  call(mock, 'POST', `/reseller/clients/${client}/hosting`, {
    key,
    body: { domain: 'shop.example', whm_package: 'starter', ...body },
  })

describe('provisioning (live)', () => {
  test('201 with the live shape; the account is listed and counted', async () => {
    const mock = newMock()
    const answer = await provision(mock, { domain: 'My-Shop.example' })
    expect(answer.status).toBe(201)
    const data = envelope(HostingCreatedLive).parse(answer.body).data
    expect(data).toEqual({
      sandbox: false,
      client_id: 501,
      domain: 'my-shop.example',
      username: 'myshop',
      cpanel_url: 'https://my-shop.example:2083',
      domain_registered: false,
      amount_debited: 0,
    })
    const account = await call(mock, 'GET', '/reseller/whm/accounts/myshop')
    expect(envelope(WhmAccount).parse(account.body).data).toMatchObject({
      username: 'myshop',
      domain: 'my-shop.example',
      client_id: 501,
      whm_package: 'starter',
      status: 'active',
      suspended_at: null,
    })
    const usage = await call(mock, 'GET', '/reseller/whm/usage')
    expect(usage.body.data.accounts_used).toBe(2)
  })

  test('usernames: cPanel style from the domain, at most 8 characters, unique with a numeric suffix', async () => {
    const mock = newMock(undefined)
    const a = await provision(mock, { domain: 'www.123verylongname.example' })
    expect(a.body.data.username).toBe('verylong')
    const b = await provision(mock, { domain: 'verylongname.test' })
    expect(b.body.data.username).toBe('verylong1')
    expect(b.body.data.username).toMatch(/^[a-z][a-z0-9]*$/)
  })

  test('register_domain debits domain_price only; events hosting.created, domain.registered, wallet.debited', async () => {
    const mock = newMock()
    const answer = await provision(mock, { register_domain: true })
    expect(answer.status).toBe(201)
    expect(answer.body.data).toMatchObject({ domain_registered: true, amount_debited: 12.5 })
    const s = await state(mock)
    expect(s.tables.resellers!.find((r) => r.id === 1)!.wallet_balance).toBe(17.5)
    const events = s.tables.events!.map((e) => [e.event, e.style, e.sandbox])
    expect(events).toEqual([
      ['hosting.created', 'reseller', false],
      ['domain.registered', 'reseller', false],
      ['wallet.debited', 'reseller', false],
    ])
    const debit = s.tables.events![2]!.payload as { data: unknown; timestamp: string }
    expect(debit.data).toEqual({ amount: 12.5, balance: 17.5, reason: 'domain registration: shop.example' })
    expect(debit.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    const created = s.tables.events![0]!.payload as { data: unknown }
    expect(created.data).toEqual({
      client_id: 501,
      domain: 'shop.example',
      username: 'shop',
      whm_package: 'starter',
    })
  })

  test('without register_domain the wallet is untouched and only hosting.created is emitted', async () => {
    const mock = newMock()
    await provision(mock)
    const s = await state(mock)
    expect(s.tables.resellers!.find((r) => r.id === 1)!.wallet_balance).toBe(30)
    expect(s.tables.events!.map((e) => e.event)).toEqual(['hosting.created'])
  })

  test('insufficient_funds (422) below the price, and nothing is created', async () => {
    const mock = newMock()
    await call(mock, 'DELETE', '/reseller/whm/accounts/existing')
    expect((await provision(mock, { domain: 'a.example', register_domain: true })).status).toBe(201)
    expect((await provision(mock, { domain: 'b.example', register_domain: true })).status).toBe(201)
    const third = await provision(mock, { domain: 'c.example', register_domain: true })
    expectError(third, 422, 'insufficient_funds')
    const s = await state(mock)
    expect(s.tables.resellers!.find((r) => r.id === 1)!.wallet_balance).toBe(5)
    expect(s.tables.accounts!.map((a) => a.domain)).not.toContain('c.example')
  })

  test('domain_taken (422) across all resellers, case-insensitive', async () => {
    const mock = newMock()
    expectError(await provision(mock, { domain: 'TAKEN-by-beta.EXAMPLE' }), 422, 'domain_taken')
    expectError(await provision(mock, { domain: 'existing.example' }), 422, 'domain_taken')
  })

  test('quota_exceeded (422) at accounts_limit', async () => {
    const mock = newMock()
    expect((await provision(mock, { domain: 'one.example' })).status).toBe(201)
    expect((await provision(mock, { domain: 'two.example' })).status).toBe(201)
    expectError(await provision(mock, { domain: 'three.example' }), 422, 'quota_exceeded')
  })

  test('unknown whm_package → 422 validation_error on whm_package', async () => {
    const answer = await provision(newMock(), { whm_package: 'gold' })
    expectError(answer, 422, 'validation_error')
    expect(Object.keys(answer.body.error.fields)).toEqual(['whm_package'])
  })

  test('invalid bodies → 422 with fields', async () => {
    const mock = newMock()
    const missing = await call(mock, 'POST', '/reseller/clients/501/hosting', { body: {} })
    expectError(missing, 422, 'validation_error')
    expect(missing.body.error.fields).toEqual({ domain: ['is required'], whm_package: ['is required'] })
    const unknown = await provision(mock, { send_welcom_email: false })
    expect(unknown.body.error.fields).toEqual({ send_welcom_email: ['is not a known field'] })
    const domain = await provision(mock, { domain: 'not a domain' })
    expect(Object.keys(domain.body.error.fields)).toEqual(['domain'])
    const malformed = await call(mock, 'POST', '/reseller/clients/501/hosting', { raw: '{"domain":' })
    expectError(malformed, 422, 'validation_error')
    expect(malformed.body.error.fields).toEqual({ body: ['must be valid JSON'] })
  })

  test('client of another reseller or unknown → 404, before body validation', async () => {
    const mock = newMock()
    expectError(await provision(mock, {}, KEYS.a, 601), 404, 'not_found')
    expectError(await provision(mock, {}, KEYS.a, 999), 404, 'not_found')
    const invalid = await call(mock, 'POST', '/reseller/clients/999/hosting', { body: {} })
    expectError(invalid, 404, 'not_found')
    expectError(await call(mock, 'POST', '/reseller/clients/abc/hosting', { body: {} }), 404, 'not_found')
  })

  test('WHM offline → 503 whm_unavailable; no WHM → 422 no_reseller_service', async () => {
    const mock = newMock()
    expectError(await provision(mock, { whm_package: 'basic' }, KEYS.b, 601), 503, 'whm_unavailable')
    expectError(await provision(mock, {}, KEYS.c, 701), 422, 'no_reseller_service')
  })
})

describe('provisioning (sandbox)', () => {
  test('simulated 201: sb_ username, fake password, nothing registered, message; nothing changes', async () => {
    const mock = newMock()
    const before = await state(mock)
    const answer = await provision(mock, { register_domain: true }, KEYS.aSandbox)
    expect(answer.status).toBe(201)
    const data = envelope(HostingCreatedSandbox).parse(answer.body).data
    expect(data).toMatchObject({
      sandbox: true,
      client_id: 501,
      domain: 'shop.example',
      domain_registered: false,
    })
    expect(data.username).toMatch(/^sb_/)
    expect(data.password).not.toBe('')
    expect(data.message).toMatch(/simulated/i)
    const after = await state(mock)
    expect(after.tables.accounts).toEqual(before.tables.accounts)
    expect(after.tables.resellers).toEqual(before.tables.resellers)
    expect((await call(mock, 'GET', '/reseller/whm/usage')).body.data.accounts_used).toBe(1)
    // The event it causes carries sandbox: true.
    expect(after.tables.events!.map((e) => [e.event, e.sandbox])).toEqual([['hosting.created', true]])
  })

  test('sandbox skips quota, domain and wallet (it consumes none) but keeps 404, 422 and the WHM gate', async () => {
    const mock = newMock()
    await provision(mock, { domain: 'one.example' })
    await provision(mock, { domain: 'two.example' })
    expect(
      (await provision(mock, { domain: 'existing.example', register_domain: true }, KEYS.aSandbox)).status,
    ).toBe(201)
    expectError(await provision(mock, { whm_package: 'gold' }, KEYS.aSandbox), 422, 'validation_error')
    expectError(await provision(mock, {}, KEYS.aSandbox, 601), 404, 'not_found')
    expectError(await provision(mock, { whm_package: 'basic' }, KEYS.bSandbox, 601), 503, 'whm_unavailable')
  })
})

describe('suspend, unsuspend, delete: one account through both route families', () => {
  test('suspend via hosting route, seen via WHM; unsuspend via WHM, seen via hosting', async () => {
    const mock = newMock()
    const suspended = await call(mock, 'POST', '/reseller/clients/501/hosting/existing/suspend')
    expect(suspended.status).toBe(200)
    expect(envelope(WhmAccount).parse(suspended.body).data).toMatchObject({ status: 'suspended' })
    expect(suspended.body.data.suspended_at).toMatch(/\.\d{6}Z$/)
    expect((await call(mock, 'GET', '/reseller/whm/accounts/existing')).body.data.status).toBe('suspended')
    expectError(await call(mock, 'POST', '/reseller/whm/accounts/existing/suspend'), 422, 'invalid_state')
    const active = await call(mock, 'POST', '/reseller/whm/accounts/existing/unsuspend')
    expect(active.body.data).toMatchObject({ status: 'active', suspended_at: null })
    expectError(
      await call(mock, 'POST', '/reseller/clients/501/hosting/existing/unsuspend'),
      422,
      'invalid_state',
    )
  })

  test('delete frees the slot and the domain; a second delete is 404', async () => {
    const mock = newMock()
    await provision(mock, { domain: 'one.example' })
    await provision(mock, { domain: 'two.example' })
    expectError(await provision(mock, { domain: 'three.example' }), 422, 'quota_exceeded')
    const deleted = await call(mock, 'DELETE', '/reseller/clients/501/hosting/existing')
    expect(envelope(WhmAccountDeleted).parse(deleted.body).data).toEqual({
      username: 'existing',
      deleted: true,
    })
    expectError(await call(mock, 'DELETE', '/reseller/whm/accounts/existing'), 404, 'not_found')
    expect((await provision(mock, { domain: 'existing.example' })).status).toBe(201)
  })

  test('delete through the WHM route', async () => {
    const mock = newMock()
    expect((await call(mock, 'DELETE', '/reseller/whm/accounts/existing')).status).toBe(200)
    expect((await call(mock, 'GET', '/reseller/whm/usage')).body.data.accounts_used).toBe(0)
  })

  test('an account of another client of the same reseller → 404 on the hosting route', async () => {
    const mock = newMock()
    expectError(await call(mock, 'POST', '/reseller/clients/502/hosting/existing/suspend'), 404, 'not_found')
    expectError(await call(mock, 'POST', '/reseller/clients/501/hosting/nobody/suspend'), 404, 'not_found')
  })

  test('sandbox suspend/delete answer as they would and change nothing', async () => {
    const mock = newMock()
    const suspended = await call(mock, 'POST', '/reseller/whm/accounts/existing/suspend', {
      key: KEYS.aSandbox,
    })
    expect(suspended.body.data.status).toBe('suspended')
    const deleted = await call(mock, 'DELETE', '/reseller/clients/501/hosting/existing', {
      key: KEYS.aSandbox,
    })
    expect(deleted.body.data).toEqual({ username: 'existing', deleted: true })
    const account = await call(mock, 'GET', '/reseller/whm/accounts/existing')
    expect(account.body.data.status).toBe('active')
  })

  test('WHM gate on the hosting routes', async () => {
    const mock = newMock()
    expectError(
      await call(mock, 'POST', '/reseller/clients/601/hosting/betaacct/suspend', { key: KEYS.b }),
      503,
      'whm_unavailable',
    )
    expectError(
      await call(mock, 'DELETE', '/reseller/clients/701/hosting/whatever', { key: KEYS.c }),
      422,
      'no_reseller_service',
    )
  })
})

describe('deprecated POST /reseller/accounts', () => {
  test('provisions with client_id in the body; Deprecation and Link headers', async () => {
    const mock = newMock()
    const answer = await call(mock, 'POST', '/reseller/accounts', {
      body: { client_id: 502, domain: 'legacy.example', whm_package: 'pro' },
    })
    expect(answer.status).toBe(201)
    expect(answer.body.data).toMatchObject({ client_id: 502, domain: 'legacy.example', sandbox: false })
    expect(answer.headers.get('deprecation')).toBe('true')
    expect(answer.headers.get('link')).toBe(
      '</api/v1/reseller/clients/{client_id}/hosting>; rel="successor-version"',
    )
    expectError(
      await call(mock, 'POST', '/reseller/accounts', {
        body: { client_id: 601, domain: 'x.example', whm_package: 'pro' },
      }),
      404,
      'not_found',
    )
    const invalid = await call(mock, 'POST', '/reseller/accounts', {
      body: { domain: 'x.example', whm_package: 'pro' },
    })
    expectError(invalid, 422, 'validation_error')
    expect(invalid.body.error.fields).toEqual({ client_id: ['is required'] })
    expect(invalid.headers.get('deprecation')).toBe('true')
  })
})
