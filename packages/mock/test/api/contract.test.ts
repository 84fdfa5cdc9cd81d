// The "must show" scenario in one place: a seed with resellers in different WHM states, walked
// through the API's rules (docs/spec-decisions.md) over HTTP-shaped requests.
import { envelope, HostingCreatedLive, pageEnvelope, Ticket, WhmUsage } from '@reseller-api/sdk/schemas'
import { expect, test } from 'vitest'
import { call, expectError, KEYS, newMock, state } from '../helpers/mock.js'

test('two resellers, WHM online and offline (and one without): the documented behaviour end to end', async () => {
  const mock = newMock()
  // Reseller 1, WHM online: provisioning with domain registration, quota, domain rules.
  const created = await call(mock, 'POST', '/reseller/clients/501/hosting', {
    body: { domain: 'walk.example', whm_package: 'starter', register_domain: true },
  })
  expect(envelope(HostingCreatedLive).parse(created.body).data.amount_debited).toBe(12.5)
  expectError(
    await call(mock, 'POST', '/reseller/clients/502/hosting', {
      body: { domain: 'WALK.example', whm_package: 'pro' },
    }),
    422,
    'domain_taken',
  )
  await call(mock, 'POST', '/reseller/clients/502/hosting', {
    body: { domain: 'walk2.example', whm_package: 'pro' },
  })
  expectError(
    await call(mock, 'POST', '/reseller/clients/502/hosting', {
      body: { domain: 'walk3.example', whm_package: 'pro' },
    }),
    422,
    'quota_exceeded',
  )
  const usage = envelope(WhmUsage).parse((await call(mock, 'GET', '/reseller/whm/usage')).body).data
  expect(usage).toMatchObject({ accounts_used: 3, accounts_limit: 3 })

  // Reseller 2, WHM offline: every WHM-backed call is 503, the support API works.
  expectError(await call(mock, 'GET', '/reseller/whm/usage', { key: KEYS.b }), 503, 'whm_unavailable')
  expectError(
    await call(mock, 'POST', '/reseller/clients/601/hosting', {
      key: KEYS.b,
      body: { domain: 'b.example', whm_package: 'basic' },
    }),
    503,
    'whm_unavailable',
  )
  const ticket = await call(mock, 'POST', '/support/tickets', {
    key: KEYS.b,
    body: { subject: 'WHM down', message: 'help', department: 'technical', priority: 'urgent' },
  })
  expect(ticket.status).toBe(201)
  // Reseller 3, no reseller service.
  expectError(await call(mock, 'GET', '/reseller/whm/accounts', { key: KEYS.c }), 422, 'no_reseller_service')

  // Isolation: reseller 1 does not see reseller 2's new ticket.
  const uuid = ticket.body.data.ticket_id
  expectError(await call(mock, 'GET', `/support/tickets/${uuid}`), 404, 'not_found')
  // Ticket life: staff reply, close, reply refused, reopen.
  await call(mock, 'POST', `/__mock/tickets/${uuid}/replies`, { key: null, body: { message: 'looking' } })
  const list = pageEnvelope(Ticket).parse((await call(mock, 'GET', '/support/tickets', { key: KEYS.b })).body)
  expect(list.data[0]).toMatchObject({ uuid, status: 'in_progress', messages_count: 2 })
  await call(mock, 'PATCH', `/support/tickets/${uuid}/close`, { key: KEYS.b })
  expectError(
    await call(mock, 'POST', `/support/tickets/${uuid}/messages`, { key: KEYS.b, body: { message: 'x' } }),
    422,
    'invalid_state',
  )
  expect(
    (await call(mock, 'PATCH', `/support/tickets/${uuid}/reopen`, { key: KEYS.b })).body.data.status,
  ).toBe('open')

  // Events: reseller style for reseller 1's provisioning, general style for reseller 2's ticket.
  const events = (await state(mock)).tables.events!.map((e) => [e.reseller_id, e.style, e.event])
  expect(events).toEqual([
    [1, 'reseller', 'hosting.created'],
    [1, 'reseller', 'domain.registered'],
    [1, 'reseller', 'wallet.debited'],
    [1, 'reseller', 'hosting.created'],
    [2, 'general', 'ticket.created'],
    [2, 'general', 'ticket.replied'],
  ])
})
