import {
  envelope,
  pageEnvelope,
  Ticket,
  TicketCreated,
  TicketDetail,
  TicketMessage,
  TicketStatusChange,
} from '@reseller-api/sdk/schemas'
import { describe, expect, test } from 'vitest'
import {
  call,
  chars,
  expectError,
  KEYS,
  newMock,
  SERVICE_A,
  SERVICE_B,
  state,
  ticketUuid,
} from '../helpers/mock.js'

const create = (mock = newMock(), body: Record<string, unknown> = {}, key: string = KEYS.a) =>
  call(mock, 'POST', '/support/tickets', {
    key,
    body: { subject: 'Help', message: 'Please help', department: 'technical', ...body },
  })

describe('list', () => {
  test('newest first, with meta; items parse with the SDK schema', async () => {
    const mock = newMock()
    await create(mock, { subject: 'Newest' })
    const answer = await call(mock, 'GET', '/support/tickets', { key: KEYS.aRead })
    expect(answer.status).toBe(200)
    const page = pageEnvelope(Ticket).parse(answer.body)
    expect(page.data.map((t) => t.subject)).toEqual(['Newest', 'Closed one', 'Resolved one', 'First'])
    expect(page.meta).toEqual({ total: 4, per_page: 20, current_page: 1 })
    const times = page.data.map((t) => t.created_at)
    expect([...times].sort().reverse()).toEqual(times)
    expect(new Set(times).size).toBe(times.length)
  })

  test('20 per page; page 2; beyond the end → empty data, correct meta', async () => {
    const mock = newMock()
    for (let i = 1; i <= 22; i++) await create(mock, { subject: `T${i}` })
    const first = await call(mock, 'GET', '/support/tickets?page=1')
    expect(first.body.data).toHaveLength(20)
    expect(first.body.data[0].subject).toBe('T22')
    const second = await call(mock, 'GET', '/support/tickets?page=2')
    expect(second.body.data.map((t: { subject: string }) => t.subject)).toEqual([
      'T2',
      'T1',
      'Closed one',
      'Resolved one',
      'First',
    ])
    expect(second.body.meta).toEqual({ total: 25, per_page: 20, current_page: 2 })
    const beyond = await call(mock, 'GET', '/support/tickets?page=3')
    expect(beyond.body).toEqual({
      success: true,
      data: [],
      meta: { total: 25, per_page: 20, current_page: 3 },
    })
  })

  test.each(['0', 'abc', '-1', '1.5', ''])('page=%j → 422 validation_error on page', async (page) => {
    const answer = await call(newMock(), 'GET', `/support/tickets?page=${page}`)
    expectError(answer, 422, 'validation_error')
    expect(Object.keys(answer.body.error.fields)).toEqual(['page'])
  })
})

describe('create', () => {
  test('201 with TicketCreated; status open; ticket.created general event', async () => {
    const mock = newMock()
    const answer = await create(mock, { priority: 'high', department: 'billing' })
    expect(answer.status).toBe(201)
    const data = envelope(TicketCreated).parse(answer.body).data
    expect(data).toEqual({
      ticket_id: data.ticket_id,
      subject: 'Help',
      department: 'billing',
      priority: 'high',
      status: 'open',
    })
    const s = await state(mock)
    const event = s.tables.events!.at(-1)!
    expect(event).toMatchObject({ event: 'ticket.created', style: 'general', sandbox: false, reseller_id: 1 })
    expect(event.payload).toMatchObject({
      event: 'ticket.created',
      data: {
        ticket_id: data.ticket_id,
        subject: 'Help',
        department: 'billing',
        priority: 'high',
        status: 'open',
      },
    })
    expect((event.payload as { created_at: string }).created_at).toMatch(/\+00:00$/)
  })

  test('priority defaults to normal', async () => {
    expect((await create(newMock())).body.data.priority).toBe('normal')
  })

  test("service_id is kept only if it is one of the caller's services", async () => {
    const mock = newMock()
    const own = await create(mock, { service_id: SERVICE_A })
    const other = await create(mock, { service_id: SERVICE_B })
    const unknown = await create(mock, { service_id: '33333333-3333-4333-8333-333333333333' })
    const detail = async (uuid: string) =>
      (await call(mock, 'GET', `/support/tickets/${uuid}`)).body.data.service_id
    expect(await detail(own.body.data.ticket_id)).toBe(SERVICE_A)
    expect(await detail(other.body.data.ticket_id)).toBeNull()
    expect(await detail(unknown.body.data.ticket_id)).toBeNull()
    expectError(await create(mock, { service_id: 'not-a-uuid' }), 422, 'validation_error')
  })

  test('boundaries: subject 255 ok, 256 refused; message 5000 ok, 5001 refused', async () => {
    const mock = newMock()
    expect((await create(mock, { subject: chars(255) })).status).toBe(201)
    const subject = await create(mock, { subject: chars(256) })
    expectError(subject, 422, 'validation_error')
    expect(subject.body.error.fields).toEqual({ subject: ['must be at most 255 characters'] })
    expect((await create(mock, { message: chars(5000) })).status).toBe(201)
    const message = await create(mock, { message: chars(5001) })
    expect(message.body.error.fields).toEqual({ message: ['must be at most 5000 characters'] })
  })

  test('department, priority, empty subject, missing fields', async () => {
    const mock = newMock()
    const answer = await call(mock, 'POST', '/support/tickets', {
      body: { subject: '', department: 'legal', priority: 'asap' },
    })
    expectError(answer, 422, 'validation_error')
    expect(Object.keys(answer.body.error.fields).sort()).toEqual([
      'department',
      'message',
      'priority',
      'subject',
    ])
  })
})

describe('detail and messages', () => {
  test('non-internal messages oldest first; messages_count counts them', async () => {
    const mock = newMock()
    const uuid = await ticketUuid(mock, 'First')
    const answer = await call(mock, 'GET', `/support/tickets/${uuid}`, { key: KEYS.aRead })
    const data = envelope(TicketDetail).parse(answer.body).data
    expect(data.messages.map((m) => [m.message, m.from])).toEqual([
      ['hello', 'client'],
      ['staff answer', 'staff'],
    ])
    expect(data.messages_count).toBe(2)
    expect(JSON.stringify(answer.body)).not.toContain('internal note')
  })

  test('reply: 201 TicketMessage; count and updated_at move; resolved → open; closed → 422', async () => {
    const mock = newMock()
    const uuid = await ticketUuid(mock, 'First')
    const before = (await call(mock, 'GET', `/support/tickets/${uuid}`)).body.data
    const reply = await call(mock, 'POST', `/support/tickets/${uuid}/messages`, { body: { message: 'more' } })
    expect(reply.status).toBe(201)
    expect(envelope(TicketMessage).parse(reply.body).data).toMatchObject({ message: 'more', from: 'client' })
    const after = (await call(mock, 'GET', `/support/tickets/${uuid}`)).body.data
    expect(after.messages_count).toBe(before.messages_count + 1)
    expect(after.updated_at > before.updated_at).toBe(true)
    expect(after.messages.at(-1).message).toBe('more')

    const resolved = await ticketUuid(mock, 'Resolved one')
    await call(mock, 'POST', `/support/tickets/${resolved}/messages`, { body: { message: 'still broken' } })
    expect((await call(mock, 'GET', `/support/tickets/${resolved}`)).body.data.status).toBe('open')

    const closed = await ticketUuid(mock, 'Closed one')
    expectError(
      await call(mock, 'POST', `/support/tickets/${closed}/messages`, { body: { message: 'hi' } }),
      422,
      'invalid_state',
    )
  })

  test('reply body: 5000 ok, 5001 and empty refused; unknown ticket 404 before body validation', async () => {
    const mock = newMock()
    const uuid = await ticketUuid(mock, 'First')
    expect(
      (await call(mock, 'POST', `/support/tickets/${uuid}/messages`, { body: { message: chars(5000) } }))
        .status,
    ).toBe(201)
    expectError(
      await call(mock, 'POST', `/support/tickets/${uuid}/messages`, { body: { message: chars(5001) } }),
      422,
      'validation_error',
    )
    expectError(
      await call(mock, 'POST', `/support/tickets/${uuid}/messages`, { body: { message: '' } }),
      422,
      'validation_error',
    )
    const missing = '44444444-4444-4444-8444-444444444444'
    expectError(
      await call(mock, 'POST', `/support/tickets/${missing}/messages`, { body: {} }),
      404,
      'not_found',
    )
    expectError(await call(mock, 'GET', '/support/tickets/not-a-uuid'), 404, 'not_found')
  })
})

describe('close and reopen', () => {
  test.each([
    ['open', 'First'],
    ['resolved', 'Resolved one'],
  ])('close from %s → closed; close again → 422 invalid_state', async (_from, subject) => {
    const mock = newMock()
    const uuid = await ticketUuid(mock, subject)
    const closed = await call(mock, 'PATCH', `/support/tickets/${uuid}/close`)
    expect(envelope(TicketStatusChange).parse(closed.body).data).toEqual({
      ticket_id: uuid,
      status: 'closed',
    })
    expectError(await call(mock, 'PATCH', `/support/tickets/${uuid}/close`), 422, 'invalid_state')
  })

  test('close from in_progress', async () => {
    const mock = newMock()
    const uuid = await ticketUuid(mock, 'First')
    await call(mock, 'POST', `/__mock/tickets/${uuid}/replies`, { key: null, body: { message: 'on it' } })
    expect((await call(mock, 'GET', `/support/tickets/${uuid}`)).body.data.status).toBe('in_progress')
    expect((await call(mock, 'PATCH', `/support/tickets/${uuid}/close`)).body.data.status).toBe('closed')
  })

  test('reopen: closed → open, resolved → open; open and in_progress → 422', async () => {
    const mock = newMock()
    for (const subject of ['Closed one', 'Resolved one']) {
      const uuid = await ticketUuid(mock, subject)
      const reopened = await call(mock, 'PATCH', `/support/tickets/${uuid}/reopen`)
      expect(reopened.body.data).toEqual({ ticket_id: uuid, status: 'open' })
      expectError(await call(mock, 'PATCH', `/support/tickets/${uuid}/reopen`), 422, 'invalid_state')
    }
    const first = await ticketUuid(mock, 'First')
    await call(mock, 'PATCH', `/__mock/tickets/${first}`, { key: null, body: { status: 'in_progress' } })
    expectError(await call(mock, 'PATCH', `/support/tickets/${first}/reopen`), 422, 'invalid_state')
  })
})

describe('sandbox keys on the support API', () => {
  test('read allowed; POST and PATCH → 403 sandbox_read_only, nothing changes', async () => {
    const mock = newMock()
    expect((await call(mock, 'GET', '/support/tickets', { key: KEYS.aSandbox })).status).toBe(200)
    const uuid = await ticketUuid(mock, 'First')
    expectError(await create(mock, {}, KEYS.aSandbox), 403, 'sandbox_read_only')
    expectError(
      await call(mock, 'POST', `/support/tickets/${uuid}/messages`, {
        key: KEYS.aSandbox,
        body: { message: 'x' },
      }),
      403,
      'sandbox_read_only',
    )
    expectError(
      await call(mock, 'PATCH', `/support/tickets/${uuid}/close`, { key: KEYS.aSandbox }),
      403,
      'sandbox_read_only',
    )
    expectError(
      await call(mock, 'PATCH', `/support/tickets/${uuid}/reopen`, { key: KEYS.aSandbox }),
      403,
      'sandbox_read_only',
    )
    expect((await call(mock, 'GET', '/support/tickets')).body.meta.total).toBe(3)
  })
})
