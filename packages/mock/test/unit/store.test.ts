// The store: indexes, transactions, snapshot/restore, timestamps.
import { describe, expect, test, vi } from 'vitest'
import { createClock } from '../../src/state/clock.js'
import { createOutbox } from '../../src/state/events.js'
import { createStore } from '../../src/state/store.js'
import { formatMicros, parseMicros } from '../../src/state/timestamps.js'

const fixedClock = (ms = Date.UTC(2026, 0, 1)) => createClock({ realNow: () => ms })
const reseller = (id: number) => ({
  id,
  name: `R${id}`,
  wallet_balance: 0,
  whm_status: 'online' as const,
  accounts_limit: 5,
  disk_limit_mb: 1,
  bandwidth_limit_mb: 1,
})
const account = (username: string, domain: string, reseller_id = 1) => ({
  username,
  domain,
  client_id: null,
  whm_package: 'p',
  status: 'active' as const,
  disk_used_mb: 1,
  bandwidth_used_mb: 1,
  created_at: '2026-01-01T00:00:00.000000Z',
  suspended_at: null,
  reseller_id,
})

describe('tables', () => {
  test('primary, unique and group indexes; update moves index keys', () => {
    const store = createStore(fixedClock())
    const a = store.accounts.insert(account('alpha', 'alpha.example'))
    store.accounts.insert(account('beta', 'beta.example', 2))
    expect(store.accounts.get('alpha')).toBe(a)
    expect(store.accounts.by('domain', 'alpha.example')).toBe(a)
    expect(store.accounts.group('reseller', 1)).toEqual([a])
    store.accounts.update(a, { domain: 'new.example', reseller_id: 2 })
    expect(store.accounts.by('domain', 'alpha.example')).toBeUndefined()
    expect(store.accounts.by('domain', 'new.example')).toBe(a)
    expect(store.accounts.group('reseller', 1)).toEqual([])
    expect(store.accounts.group('reseller', 2).map((r) => r.username)).toEqual(['beta', 'alpha'])
  })

  test('invalid rows and key clashes are refused', () => {
    const store = createStore(fixedClock())
    store.accounts.insert(account('alpha', 'alpha.example'))
    expect(() => store.accounts.insert(account('alpha', 'other.example'))).toThrow('duplicate key')
    expect(() => store.accounts.insert(account('gamma', 'alpha.example'))).toThrow('duplicate domain')
    expect(() => store.accounts.insert({ ...account('x', 'x.example'), status: 'gone' as never })).toThrow(
      'invalid row',
    )
    const row = store.accounts.get('alpha')!
    expect(() => store.accounts.update(row, { disk_used_mb: -1 })).toThrow('invalid row')
    expect(row.disk_used_mb).toBe(1)
  })

  test('deleting the oldest row of a group keeps the group in order; a rolled-back delete puts it back', () => {
    const store = createStore(fixedClock())
    const rows = ['a', 'b', 'c'].map((n) => store.accounts.insert(account(n, `${n}.example`)))
    store.accounts.delete(rows[0]!)
    expect(store.accounts.group('reseller', 1).map((r) => r.username)).toEqual(['b', 'c'])
    expect(() =>
      store.transact(() => {
        store.accounts.delete(rows[1]!)
        throw new Error('boom')
      }),
    ).toThrow('boom')
    expect(store.accounts.group('reseller', 1).map((r) => r.username)).toEqual(['b', 'c'])
  })

  test('a rolled-back update that moved a row to another group puts it back in its place', () => {
    const store = createStore(fixedClock())
    const rows = ['a', 'b', 'c'].map((n) => store.accounts.insert(account(n, `${n}.example`)))
    store.accounts.insert(account('d', 'd.example', 2))
    expect(() =>
      store.transact(() => {
        store.accounts.update(rows[1]!, { reseller_id: 2 })
        throw new Error('boom')
      }),
    ).toThrow('boom')
    // Lists and pages read groups in order: a failed request must not reorder them.
    expect(store.accounts.group('reseller', 1).map((r) => r.username)).toEqual(['a', 'b', 'c'])
    expect(store.accounts.group('reseller', 2).map((r) => r.username)).toEqual(['d'])
  })
})

describe('transactions', () => {
  test('a throw undoes inserts, updates, deletes and ids', async () => {
    const store = createStore(fixedClock())
    store.resellers.insert(reseller(1))
    const keep = store.accounts.insert(account('keep', 'keep.example'))
    const before = store.snapshot()
    const listener = vi.fn()
    store.onChange(listener)
    expect(() =>
      store.transact(() => {
        store.nextId('ticket')
        store.accounts.insert(account('temp', 'temp.example'))
        store.accounts.update(keep, { status: 'suspended', domain: 'moved.example' })
        store.resellers.delete(store.resellers.get(1)!)
        throw new Error('boom')
      }),
    ).toThrow('boom')
    expect(store.snapshot()).toEqual(before)
    expect(store.accounts.by('domain', 'keep.example')).toBe(keep)
    expect(store.accounts.get('temp')).toBeUndefined()
    expect(listener).not.toHaveBeenCalled()
  })

  test('a commit notifies once; events reach listeners only after commit', () => {
    const store = createStore(fixedClock())
    const outbox = createOutbox(store)
    const changes = vi.fn()
    const events = vi.fn()
    store.onChange(changes)
    outbox.onEvent(events)
    store.transact(() => {
      store.resellers.insert(reseller(1))
      outbox.emit({
        resellerId: 1,
        style: 'general',
        event: 'ticket.created',
        sandbox: false,
        data: {
          ticket_id: crypto.randomUUID(),
          subject: 's',
          department: 'sales',
          priority: 'low',
          status: 'open',
        },
      })
      expect(events).not.toHaveBeenCalled()
    })
    expect(changes).toHaveBeenCalledTimes(1)
    expect(events).toHaveBeenCalledTimes(1)
    expect(() =>
      store.transact(() => {
        outbox.emit({
          resellerId: 1,
          style: 'reseller',
          event: 'wallet.debited',
          sandbox: false,
          data: { amount: 1, balance: 0, reason: 'x' },
        })
        throw new Error('rollback')
      }),
    ).toThrow('rollback')
    expect(events).toHaveBeenCalledTimes(1)
    expect(store.events.size).toBe(1)
  })

  test('an event payload that does not match the SDK schema is refused', () => {
    const store = createStore(fixedClock())
    const outbox = createOutbox(store)
    expect(() =>
      outbox.emit({
        resellerId: 1,
        style: 'reseller',
        event: 'hosting.created',
        sandbox: false,
        data: { domain: 1 },
      }),
    ).toThrow('does not match the SDK schema')
  })
})

describe('timestamps', () => {
  test('strictly increasing microseconds within one millisecond', () => {
    const store = createStore(fixedClock(Date.UTC(2026, 0, 1, 10, 15, 30, 123)))
    const stamps = Array.from({ length: 3 }, () => store.timestamp())
    expect(stamps).toEqual([
      '2026-01-01T10:15:30.123000Z',
      '2026-01-01T10:15:30.123001Z',
      '2026-01-01T10:15:30.123002Z',
    ])
  })

  test('formatMicros / parseMicros round trip', () => {
    const micros = Date.UTC(2026, 10, 22, 1, 2, 3) * 1000 + 456789
    expect(formatMicros(micros)).toBe('2026-11-22T01:02:03.456789Z')
    expect(parseMicros('2026-11-22T01:02:03.456789Z')).toBe(micros)
    expect(parseMicros('2026-11-22T01:02:03Z')).toBe(micros - 456789)
  })
})

describe('snapshot and restore', () => {
  test('JSON round trip of the whole state into another store', () => {
    const one = createStore(fixedClock())
    one.resellers.insert(reseller(1))
    one.accounts.insert(account('alpha', 'alpha.example'))
    one.nextId('ticket')
    one.timestamp()
    const snapshot = JSON.parse(JSON.stringify(one.snapshot()))
    const two = createStore(fixedClock(0))
    two.restore(snapshot)
    expect(two.snapshot()).toEqual(one.snapshot())
    expect(two.accounts.by('domain', 'alpha.example')!.username).toBe('alpha')
    expect(two.nextId('ticket')).toBe(2)
    // Timestamps keep increasing after a restore, even on a clock that is behind.
    expect(two.timestamp() > '2026-01-01T00:00:00.000000Z').toBe(true)
  })

  test('a bad snapshot is refused and changes nothing', () => {
    const store = createStore(fixedClock())
    store.resellers.insert(reseller(1))
    const before = store.snapshot()
    expect(() => store.restore({ format: 'x' })).toThrow('not a store snapshot')
    const bad = { ...before, tables: { ...before.tables, resellers: [{ id: 'x' }] } }
    expect(() => store.restore(bad)).toThrow('tables.resellers[0]')
    expect(store.snapshot()).toEqual(before)
    // Each row valid, two with one key: refused before anything is replaced.
    const clash = {
      ...before,
      tables: { ...before.tables, accounts: [account('a', 'same.example'), account('b', 'SAME.example')] },
    }
    expect(() => store.restore(clash)).toThrow('accounts: duplicate domain "same.example"')
    expect(store.snapshot()).toEqual(before)
  })

  test("deferred rows are read on a table's first use, once; a reset before that never reads them", () => {
    const source = createStore(fixedClock())
    source.resellers.insert(reseller(1))
    source.accounts.insert(account('alpha', 'alpha.example'))
    const { tables, ...rest } = source.snapshot()
    const read = vi.fn((name: string) => (tables[name] ?? []) as object[])
    const store = createStore(fixedClock())
    store.restore({ ...rest, tables: {} }, { deferredRows: read })
    expect(read).not.toHaveBeenCalled()
    expect(store.accounts.by('domain', 'alpha.example')?.username).toBe('alpha')
    expect(store.accounts.size).toBe(1)
    expect(read.mock.calls).toEqual([['accounts']])
    expect(store.snapshot().tables).toEqual(tables)
    expect(read).toHaveBeenCalledTimes(Object.keys(tables).length)
    const cleared = createStore(fixedClock())
    const never = vi.fn(() => [])
    cleared.restore({ ...rest, tables: {} }, { deferredRows: never })
    cleared.clear()
    expect(cleared.accounts.size).toBe(0)
    expect(never).not.toHaveBeenCalled()
  })

  test('the clock offset is restored when the clock supports it', () => {
    const clock = createClock({ realNow: () => 0 })
    const store = createStore(clock)
    const snapshot = { ...store.snapshot(), clock_offset_ms: 60_000 }
    store.restore(snapshot)
    expect(clock.offsetMs).toBe(60_000)
  })
})

describe('timestamps at the far end of the clock', () => {
  test('stay strictly increasing in year 9999, where a double skips microseconds', () => {
    const at = Date.UTC(9999, 11, 30, 12)
    const store = createStore(createClock({ realNow: () => at }))
    const stamps = Array.from({ length: 5 }, () => store.timestamp())
    expect(new Set(stamps).size).toBe(5)
    const micros = stamps.map(parseMicros)
    for (let i = 1; i < micros.length; i++) expect(micros[i]).toBeGreaterThan(micros[i - 1]!)
    for (const stamp of stamps) expect(stamp).toMatch(/^9999-12-30T12:00:00\.\d{6}Z$/)
  })
})
