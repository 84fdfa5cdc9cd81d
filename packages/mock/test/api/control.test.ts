// Control endpoints under {baseUrl}/__mock/: no key needed.
import { envelope, Ticket } from '@reseller-api/sdk/schemas'
import { describe, expect, test } from 'vitest'
import { call, expectError, KEYS, newMock, state, ticketUuid } from '../helpers/mock.js'

const reply = (mock: ReturnType<typeof newMock>, uuid: string, body: unknown) =>
  call(mock, 'POST', `/__mock/tickets/${uuid}/replies`, { key: null, body })

describe('staff replies', () => {
  test('visible reply: open → in_progress, counted, shown, emits ticket.replied', async () => {
    const mock = newMock()
    const uuid = await ticketUuid(mock, 'First')
    const answer = await reply(mock, uuid, { message: 'We are on it', internal: false })
    expect(answer.status).toBe(201)
    expect(answer.body.data).toMatchObject({ message: 'We are on it', from: 'staff', internal: false })
    const detail = (await call(mock, 'GET', `/support/tickets/${uuid}`)).body.data
    expect(detail.status).toBe('in_progress')
    expect(detail.messages_count).toBe(3)
    expect(detail.messages.at(-1)).toMatchObject({ message: 'We are on it', from: 'staff' })
    const event = (await state(mock)).tables.events!.at(-1)!
    expect(event).toMatchObject({ event: 'ticket.replied', style: 'general', reseller_id: 1 })
    expect(event.payload).toMatchObject({
      event: 'ticket.replied',
      data: {
        ticket_id: uuid,
        message_id: answer.body.data.id,
        message: 'We are on it',
        status: 'in_progress',
      },
    })
  })

  test('internal note: hidden, not counted, no status change, no event; internal defaults to false', async () => {
    const mock = newMock()
    const uuid = await ticketUuid(mock, 'First')
    const before = (await call(mock, 'GET', `/support/tickets/${uuid}`)).body.data
    await reply(mock, uuid, { message: 'secret note', internal: true })
    const after = (await call(mock, 'GET', `/support/tickets/${uuid}`)).body.data
    expect(after).toEqual(before)
    expect((await state(mock)).tables.events).toEqual([])
    const visible = await reply(mock, uuid, { message: 'default' })
    expect(visible.body.data.internal).toBe(false)
  })

  test('a staff reply to a resolved ticket keeps it resolved; to a closed one → 422', async () => {
    const mock = newMock()
    const resolved = await ticketUuid(mock, 'Resolved one')
    await reply(mock, resolved, { message: 'fyi' })
    expect((await call(mock, 'GET', `/support/tickets/${resolved}`)).body.data.status).toBe('resolved')
    expectError(
      await reply(mock, await ticketUuid(mock, 'Closed one'), { message: 'x' }),
      422,
      'invalid_state',
    )
  })

  test('validation and 404', async () => {
    const mock = newMock()
    const uuid = await ticketUuid(mock, 'First')
    const invalid = await reply(mock, uuid, { message: '', internal: 'no', extra: 1 })
    expectError(invalid, 422, 'validation_error')
    expect(Object.keys(invalid.body.error.fields).sort()).toEqual(['extra', 'internal', 'message'])
    expectError(await reply(mock, '44444444-4444-4444-8444-444444444444', { message: 'x' }), 404, 'not_found')
  })
})

describe('PATCH /__mock/tickets/{uuid}', () => {
  test('staff sets any status; answers the ticket', async () => {
    const mock = newMock()
    const uuid = await ticketUuid(mock, 'Closed one')
    for (const status of ['in_progress', 'resolved', 'open', 'closed', 'closed']) {
      const answer = await call(mock, 'PATCH', `/__mock/tickets/${uuid}`, { key: null, body: { status } })
      expect(envelope(Ticket).parse(answer.body).data.status).toBe(status)
    }
    const invalid = await call(mock, 'PATCH', `/__mock/tickets/${uuid}`, {
      key: null,
      body: { status: 'done' },
    })
    expectError(invalid, 422, 'validation_error')
    expect(Object.keys(invalid.body.error.fields)).toEqual(['status'])
  })
})

describe('reset and state', () => {
  test('POST /__mock/reset and mock.reset() return to the seed', async () => {
    const mock = newMock()
    const seeded = await state(mock)
    await call(mock, 'POST', '/support/tickets', {
      body: { subject: 's', message: 'm', department: 'sales' },
    })
    await call(mock, 'POST', '/reseller/clients/501/hosting', {
      body: { domain: 'r.example', whm_package: 'starter' },
    })
    const changed = await state(mock)
    expect(changed.tables.tickets).not.toEqual(seeded.tables.tickets)
    const answer = await call(mock, 'POST', '/__mock/reset', { key: null })
    expect(answer.body).toEqual({ success: true, data: { reset: true } })
    const back = await state(mock)
    expect(back.tables.accounts).toEqual(seeded.tables.accounts)
    expect(back.tables.resellers).toEqual(seeded.tables.resellers)
    expect(back.tables.events).toEqual([])
    expect(back.tables.tickets!.map((t) => t.subject)).toEqual(seeded.tables.tickets!.map((t) => t.subject))
    await call(mock, 'POST', '/reseller/clients/501/hosting', {
      body: { domain: 'r.example', whm_package: 'starter' },
    })
    mock.reset()
    expect((await state(mock)).tables.accounts).toEqual(seeded.tables.accounts)
  })

  test('GET /__mock/state: every table, counters, the outbox and secrets (the operator view)', async () => {
    const mock = newMock()
    await call(mock, 'PUT', '/reseller/webhook', { body: { url: 'https://h.example/x', secret: 'shh' } })
    const s = await state(mock)
    expect(Object.keys(s.tables).sort()).toEqual(
      [
        'accounts',
        'apiKeys',
        'clients',
        'deliveries',
        'events',
        'invoices',
        'messages',
        'packages',
        'resellerWebhooks',
        'resellers',
        'services',
        'settings',
        'tickets',
        'webhooks',
      ].sort(),
    )
    expect(s.tables.resellerWebhooks![0]).toMatchObject({ reseller_id: 1, secret: 'shh' })
    expect(s.tables.messages!.some((m) => m.internal === true)).toBe(true)
    expect(s.counters.ticket).toBe(4)
  })

  test('control endpoints need no key and are under the base URL only', async () => {
    const mock = newMock()
    expect((await call(mock, 'GET', '/__mock/state', { key: KEYS.aNone })).status).toBe(200)
    expectError(await call(mock, 'GET', '/__mock/nothing', { key: null }), 404, 'not_found')
  })
})
