// mock.db: @msw/data queries over the records the mock holds now; records come out as frozen copies.
import { Query } from '@msw/data'
import { describe, expect, test } from 'vitest'
import type { MockDbRow } from '../../src/index.js'
import { call, KEYS, newMock } from '../helpers/mock.js'

describe('mock.db', () => {
  test('findMany, findFirst and count answer with where-queries over the seeded records', () => {
    const mock = newMock()
    const mine = mock.db.tickets.findMany((q) => q.where({ reseller_id: 1 }))
    expect(mine.length).toBeGreaterThan(0)
    expect(mine.every((t) => t.reseller_id === 1)).toBe(true)
    expect(mock.db.accounts.findFirst((q) => q.where({ username: 'existing' }))?.domain).toBe(
      'existing.example',
    )
    // Predicate fields, `or`, and a prebuilt Query.
    const paid = mock.db.invoices.count((q) => q.where({ status: 'paid' }))
    const unpaid = mock.db.invoices.count((q) => q.where({ status: 'unpaid' }))
    expect(paid + unpaid).toBe(
      mock.db.invoices.count((q) => q.where({ status: 'paid' }).or({ status: 'unpaid' })),
    )
    expect(mock.db.invoices.count(new Query<MockDbRow<'invoices'>>().where({ total: (t) => t > 15 }))).toBe(
      mock.db.invoices.findMany().filter((v) => v.total > 15).length,
    )
    expect(mock.db.apiKeys.findFirst((q) => q.where({ key: KEYS.aRead }))?.scopes).toEqual(['support:read'])
    expect(mock.db.tickets.findFirst((q) => q.where({ subject: 'no such subject' }))).toBeUndefined()
    expect(mock.db.apiKeys.size).toBe(mock.db.apiKeys.count())
  })

  test('orderBy, skip and take', () => {
    const mock = newMock()
    const all = mock.db.invoices.findMany()
    const byTotal = mock.db.invoices.findMany(undefined, { orderBy: { total: 'desc' } })
    expect(byTotal.map((v) => v.total)).toEqual(all.map((v) => v.total).sort((a, b) => b - a))
    const page = mock.db.invoices.findMany(undefined, {
      orderBy: [{ status: 'asc' }, { id: 'desc' }],
      skip: 1,
      take: 1,
    })
    const sorted = [...all].sort((a, b) =>
      a.status === b.status ? b.id - a.id : a.status < b.status ? -1 : 1,
    )
    expect(page).toEqual([sorted[1]])
  })

  test('queries see the live state: a request, a reset', async () => {
    const mock = newMock()
    const before = mock.db.tickets.count()
    const created = await call(mock, 'POST', '/support/tickets', {
      body: { subject: 'Printer on fire', message: 'Help', department: 'technical' },
    })
    expect(created.status).toBe(201)
    const ticket = mock.db.tickets.findFirst((q) => q.where({ uuid: created.body.data.ticket_id }))
    expect(ticket).toMatchObject({ subject: 'Printer on fire', status: 'open', reseller_id: 1 })
    expect(
      mock.db.messages.findMany((q) => q.where({ ticket_id: ticket!.id })).map((m) => m.message),
    ).toEqual(['Help'])
    expect(mock.db.tickets.count()).toBe(before + 1)
    mock.reset()
    expect(mock.db.tickets.count()).toBe(before)
    expect(mock.db.tickets.findFirst((q) => q.where({ uuid: created.body.data.ticket_id }))).toBeUndefined()
  })

  test('records handed out are frozen copies: assigning to one changes nothing the mock holds', async () => {
    const mock = newMock()
    const account = mock.db.accounts.findFirst((q) => q.where({ username: 'existing' }))!
    expect(() => {
      ;(account as { status: string }).status = 'suspended'
    }).toThrow(TypeError)
    const key = mock.db.apiKeys.findFirst((q) => q.where({ key: KEYS.aRead }))!
    expect(() => (key.scopes as string[]).push('support:write')).toThrow(TypeError)
    // Still read-only through the API's eyes, and still active.
    expect((await call(mock, 'POST', '/support/tickets', { key: KEYS.aRead, body: {} })).status).toBe(403)
    expect((await call(mock, 'GET', '/reseller/whm/accounts/existing')).body.data.status).toBe('active')
    expect(mock.db.accounts.findFirst((q) => q.where({ username: 'existing' }))).not.toBe(account)
  })

  test('bad arguments get an error naming the table, the method and the rule', () => {
    const mock = newMock()
    expect(() => mock.db.tickets.findMany(undefined, { take: -1 })).toThrow(
      'mock.db.tickets.findMany: take must be a whole number ≥ 0, got -1',
    )
    expect(() => mock.db.tickets.findMany(undefined, { skip: 1.5 })).toThrow('skip must be a whole number')
    expect(() => mock.db.tickets.findMany(undefined, { orderBy: { id: 'up' as never } })).toThrow(
      "mock.db.tickets.findMany: orderBy.id must be 'asc' or 'desc'",
    )
    expect(() => mock.db.tickets.findFirst((() => ({ status: 'open' })) as never)).toThrow(
      'mock.db.tickets.findFirst: the query must be an @msw/data Query',
    )
  })
})
