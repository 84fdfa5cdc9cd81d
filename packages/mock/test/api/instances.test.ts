// Fast instances: a seed is prepared once and loaded by copy. What a test sees must not change:
// clock-given seed timestamps are the mock's creation time, seed-given ones stay, every mock and
// every reset starts from the same state, and a seed object changed between two mocks is read again.
import { afterEach, describe, expect, test, vi } from 'vitest'
import { createMockApi, demoSeed, SeedError, type SeedInput } from '../../src/index.js'
import { assembleMock } from '../../src/mock-api.js'
import { call, newMock, state, testSeed } from '../helpers/mock.js'

afterEach(() => {
  vi.useRealTimers()
})

const seedWithTimes = (): SeedInput => ({
  resellers: [
    {
      id: 1,
      api_keys: [{ key: 'svc_live_one' }],
      invoices: [
        { total: 1, created_at: '2025-12-31T08:00:00Z' },
        // Later than the mocks below are made: still the seed's own time, not the clock's.
        { total: 2, created_at: '2031-01-01T00:00:00.5Z', due_at: '2031-02-01T00:00:00Z' },
      ],
      tickets: [{ subject: 'A', department: 'billing', messages: [{ message: 'one' }, { message: 'two' }] }],
    },
  ],
})

describe('mocks made from one seed', () => {
  test('clock-given timestamps are each mock’s creation time; seed-given ones stay as given', () => {
    const seed = seedWithTimes()
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-03-01T10:00:00Z'))
    const first = createMockApi({ seed })
    vi.setSystemTime(new Date('2026-03-02T11:00:00Z'))
    const second = createMockApi({ seed })
    for (const [mock, day] of [
      [first, '2026-03-01T10:00:00.'],
      [second, '2026-03-02T11:00:00.'],
    ] as const) {
      const ticket = mock.db.tickets.findFirst()!
      expect(ticket.created_at.startsWith(day)).toBe(true)
      const [one, two] = mock.db.messages.findMany()
      expect(one!.created_at).toBe(ticket.created_at)
      expect(two!.created_at > one!.created_at).toBe(true)
      expect(ticket.updated_at).toBe(two!.created_at)
      expect(mock.db.invoices.findMany().map((v) => [v.created_at, v.due_at])).toEqual([
        ['2025-12-31T08:00:00.000000Z', null],
        ['2031-01-01T00:00:00.500000Z', '2031-02-01T00:00:00.000000Z'],
      ])
    }
  })

  test('a ticket created after the seed is newer than every seeded one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-03-01T10:00:00Z'))
    createMockApi({ seed: demoSeed })
    const mock = createMockApi({ seed: demoSeed })
    const created = await call(mock, 'POST', '/support/tickets', {
      key: 'svc_live_acme_full',
      body: { subject: 'New', message: 'Hi', department: 'technical' },
    })
    const ticket = mock.db.tickets.findFirst((q) => q.where({ uuid: created.body.data.ticket_id }))!
    const seeded = mock.db.tickets.findMany((q) => q.where({ uuid: (u: string) => u !== ticket.uuid }))
    expect(seeded.length).toBeGreaterThan(0)
    expect(seeded.every((t) => t.created_at < ticket.created_at)).toBe(true)
  })

  test('every mock and every reset starts from the same state; mocks share no record', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-03-01T10:00:00Z'))
    const seed = testSeed()
    const one = newMock(seed)
    const initial = await state(one)
    await call(one, 'POST', '/support/tickets', {
      body: { subject: 'x', message: 'y', department: 'billing' },
    })
    expect((await call(one, 'POST', '/reseller/whm/accounts/existing/suspend')).status).toBe(200)
    const two = newMock(seed)
    expect(await state(two)).toEqual(initial)
    expect(two.db.accounts.findFirst((q) => q.where({ username: 'existing' }))?.status).toBe('active')
    expect(two.db.tickets.count()).toBe(one.db.tickets.count() - 1)
    // The same tables and counters; `last_micros` keeps increasing across a reset, on purpose.
    const { last_micros: _, ...rest } = initial as typeof initial & { last_micros: number }
    for (let i = 0; i < 2; i++) {
      one.reset()
      expect(await state(one)).toEqual({ ...rest, last_micros: expect.any(Number) })
    }
  })

  test('a reset tells the state file the whole state was replaced', async () => {
    const { mock, context } = assembleMock({ seed: testSeed() })
    const commits: unknown[] = []
    context.store.onCommit((change) => commits.push(change))
    await call(mock, 'POST', '/support/tickets', {
      body: { subject: 'x', message: 'y', department: 'billing' },
    })
    expect(commits).toHaveLength(1)
    mock.reset()
    expect(commits.slice(1)).toEqual(['replaced'])
  })

  test('a seed object changed between two mocks is read again', () => {
    const seed = testSeed()
    expect(newMock(seed).db.resellers.findFirst((q) => q.where({ id: 1 }))?.wallet_balance).toBe(30)
    seed.resellers[0]!.wallet_balance = 99
    expect(newMock(seed).db.resellers.findFirst((q) => q.where({ id: 1 }))?.wallet_balance).toBe(99)
  })

  test('randomSeed picks the seed’s uuids: same value, same uuids; another value, others', () => {
    const seed = testSeed()
    const uuids = (randomSeed?: string) =>
      createMockApi({ seed, randomSeed })
        .db.tickets.findMany()
        .map((t) => t.uuid)
    expect(uuids('a')).toEqual(uuids('a'))
    expect(uuids('a')).not.toEqual(uuids('b'))
    expect(uuids()).not.toEqual(uuids('b'))
  })

  test('a large seed (applied directly, not templated) loads, resets and refuses bad records alike', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-03-01T10:00:00Z'))
    const tickets = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        subject: `T${i}`,
        department: 'billing' as const,
        messages: [{ message: 'm' }],
      }))
    const seed = { resellers: [{ id: 1, api_keys: [{ key: 'svc_live_big' }], tickets: tickets(6_000) }] }
    const mock = createMockApi({ seed })
    expect(mock.db.tickets.size).toBe(6_000)
    expect(mock.db.messages.size).toBe(6_000)
    const last = mock.db.tickets.findFirst((q) => q.where({ subject: 'T5999' }))!
    expect(last).toMatchObject({ id: 6_000, messages_count: 1, created_at: '2026-03-01T10:00:00.005999Z' })
    const initial = await state(mock)
    await call(mock, 'POST', '/support/tickets', {
      key: 'svc_live_big',
      body: { subject: 'x', message: 'y', department: 'billing' },
    })
    mock.reset()
    expect((await state(mock)).tables).toEqual(initial.tables)
    const bad = { resellers: [{ id: 1, api_keys: [{ key: 'svc_live_big' }], tickets: tickets(6_000) }] }
    bad.resellers[0]!.tickets[5_999]!.department = 'nowhere' as never
    expect(() => createMockApi({ seed: bad as never })).toThrow('resellers[0].tickets[5999].department')
    // Three seeds of 6,000 tickets: well under a second alone, several on a loaded machine.
  }, 30_000)

  test('a bad seed is refused every time, not only the first', () => {
    const bad = { resellers: [{ id: 1, api_keys: [{ key: 'nope' }] }] }
    expect(() => createMockApi({ seed: bad as never })).toThrow(SeedError)
    expect(() => createMockApi({ seed: bad as never })).toThrow(SeedError)
    // Not JSON at all: still the seed's own error, naming the field.
    const bigint = { resellers: [{ id: 1, api_keys: [{ key: 'svc_live_x' }], wallet_balance: 10n }] }
    expect(() => createMockApi({ seed: bigint as never })).toThrow('resellers[0].wallet_balance')
  })
})
