// A reseller never sees or touches another's clients, accounts, packages, tickets, webhooks (→ 404).
import { describe, expect, test } from 'vitest'
import { call, expectError, KEYS, newMock, testSeed, ticketUuid } from '../helpers/mock.js'

/** Both resellers online, so that WHM state does not mask isolation. */
function twoOnline() {
  const seed = testSeed()
  seed.resellers[1]!.whm!.status = 'online'
  return newMock(seed)
}

describe('isolation between resellers', () => {
  test('tickets: not listed, not readable, not writable', async () => {
    const mock = twoOnline()
    const beta = await ticketUuid(mock, 'Beta ticket', KEYS.b)
    const listA = (await call(mock, 'GET', '/support/tickets')).body.data.map((t: { uuid: string }) => t.uuid)
    expect(listA).not.toContain(beta)
    expectError(await call(mock, 'GET', `/support/tickets/${beta}`), 404, 'not_found')
    expectError(
      await call(mock, 'POST', `/support/tickets/${beta}/messages`, { body: { message: 'x' } }),
      404,
      'not_found',
    )
    expectError(await call(mock, 'PATCH', `/support/tickets/${beta}/close`), 404, 'not_found')
    expectError(await call(mock, 'PATCH', `/support/tickets/${beta}/reopen`), 404, 'not_found')
    expect((await call(mock, 'GET', `/support/tickets/${beta}`, { key: KEYS.b })).body.data.status).toBe(
      'open',
    )
  })

  test('accounts: not listed, not readable, not suspendable or deletable through either route', async () => {
    const mock = twoOnline()
    const accounts = (await call(mock, 'GET', '/reseller/whm/accounts')).body.data.map(
      (a: { username: string }) => a.username,
    )
    expect(accounts).toEqual(['existing'])
    expectError(await call(mock, 'GET', '/reseller/whm/accounts/betaacct'), 404, 'not_found')
    expectError(await call(mock, 'POST', '/reseller/whm/accounts/betaacct/suspend'), 404, 'not_found')
    expectError(await call(mock, 'DELETE', '/reseller/whm/accounts/betaacct'), 404, 'not_found')
    expectError(await call(mock, 'POST', '/reseller/clients/601/hosting/betaacct/suspend'), 404, 'not_found')
    expectError(await call(mock, 'POST', '/reseller/clients/501/hosting/betaacct/suspend'), 404, 'not_found')
    expect(
      (await call(mock, 'GET', '/reseller/whm/accounts/betaacct', { key: KEYS.b })).body.data.status,
    ).toBe('active')
  })

  test('clients and packages', async () => {
    const mock = twoOnline()
    expectError(
      await call(mock, 'POST', '/reseller/clients/601/hosting', {
        body: { domain: 'x.example', whm_package: 'starter' },
      }),
      404,
      'not_found',
    )
    // Reseller 1 cannot name reseller 2's package.
    const foreign = await call(mock, 'POST', '/reseller/clients/501/hosting', {
      body: { domain: 'x.example', whm_package: 'basic' },
    })
    expectError(foreign, 422, 'validation_error')
    expectError(await call(mock, 'DELETE', '/reseller/whm/packages/basic'), 404, 'not_found')
    const names = (await call(mock, 'GET', '/reseller/whm/packages')).body.data.map(
      (p: { name: string }) => p.name,
    )
    expect(names).not.toContain('basic')
    // Package names are per reseller: both may have "basic".
    const created = await call(mock, 'POST', '/reseller/whm/packages', {
      body: { name: 'basic', quota: 1, bandwidth: 1, maxsql: 1, maxpop: 1, maxftp: 1, maxsub: 1 },
    })
    expect(created.status).toBe(201)
  })

  test('webhooks: configurations are per reseller', async () => {
    const mock = twoOnline()
    await call(mock, 'PUT', '/reseller/webhook', { body: { url: 'https://a.example/hook', secret: 'a' } })
    expect((await call(mock, 'GET', '/reseller/webhook', { key: KEYS.b })).body.data).toEqual({
      url: null,
      has_secret: false,
    })
    await call(mock, 'POST', '/webhooks', {
      body: { url: 'https://a.example/g', events: ['ticket.created'] },
    })
    const s = (await call(mock, 'GET', '/__mock/state', { key: null })).body.data
    expect(s.tables.webhooks.map((w: { reseller_id: number }) => w.reseller_id)).toEqual([1])
  })

  test('services, invoices and WHM usage are per reseller', async () => {
    const mock = twoOnline()
    expect((await call(mock, 'GET', '/invoices', { key: KEYS.b })).body.meta.total).toBe(0)
    expect((await call(mock, 'GET', '/invoices')).body.meta.total).toBe(2)
    expect((await call(mock, 'GET', '/reseller/whm/usage', { key: KEYS.b })).body.data.accounts_used).toBe(1)
  })

  test('events of one reseller carry its id (for delivery to its own receivers only)', async () => {
    const mock = twoOnline()
    await call(mock, 'POST', '/support/tickets', {
      key: KEYS.b,
      body: { subject: 's', message: 'm', department: 'sales' },
    })
    const s = (await call(mock, 'GET', '/__mock/state', { key: null })).body.data
    expect(s.tables.events.map((e: { reseller_id: number }) => e.reseller_id)).toEqual([2])
  })
})
