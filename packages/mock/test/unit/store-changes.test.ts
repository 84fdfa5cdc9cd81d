// Change capture for the state file: store.onCommit reports what each committed transaction touched,
// store.applyChange replays it; a replica fed only the records ends equal to the original.
import { describe, expect, test } from 'vitest'
import type { StoreChange } from '../../src/state/changes.js'
import { createClock } from '../../src/state/clock.js'
import { createStore } from '../../src/state/store.js'

const clock = () => createClock({ realNow: () => Date.UTC(2026, 0, 1) })
const reseller = (id: number, name = `R${id}`) => ({
  id,
  name,
  wallet_balance: 0,
  whm_status: 'online' as const,
  accounts_limit: 5,
  disk_limit_mb: 1,
  bandwidth_limit_mb: 1,
})

function recorded() {
  const store = createStore(clock())
  const changes: (StoreChange | 'replaced')[] = []
  // Records are serialized at once, as the state file does: later writes must not alter them.
  store.onCommit((change) =>
    changes.push(change === 'replaced' ? change : JSON.parse(JSON.stringify(change))),
  )
  return { store, changes }
}

describe('store.onCommit / applyChange', () => {
  test('one record per committed transaction; writes outside one are records of their own; rollbacks none', () => {
    const { store, changes } = recorded()
    store.transact(() => {
      store.resellers.insert(reseller(1))
      store.resellers.insert(reseller(2))
      store.nextId('ticket')
    })
    expect(changes).toHaveLength(1)
    expect(changes[0]).toMatchObject({
      tables: { resellers: { put: [{ id: 1 }, { id: 2 }] } },
      counters: { ticket: 1 },
    })
    store.resellers.update(store.resellers.get(1)!, { name: 'renamed' })
    expect(changes[1]).toMatchObject({ tables: { resellers: { put: [{ id: 1, name: 'renamed' }] } } })
    expect(() =>
      store.transact(() => {
        store.resellers.delete(store.resellers.get(2)!)
        throw new Error('no')
      }),
    ).toThrow('no')
    expect(changes).toHaveLength(2)
    store.resellers.delete(store.resellers.get(2)!)
    expect(changes[2]).toMatchObject({ tables: { resellers: { del: [2] } } })
    store.clear()
    expect(changes[3]).toBe('replaced')
  })

  test('a replica fed the records equals the original, row order included', () => {
    const { store, changes } = recorded()
    store.transact(() => {
      for (let i = 1; i <= 4; i++) store.resellers.insert(reseller(i))
    })
    store.resellers.update(store.resellers.get(2)!, { name: 'two' })
    // Deleted and inserted again in one transaction: it moves to the end, in the replica too.
    store.transact(() => {
      store.resellers.delete(store.resellers.get(1)!)
      store.resellers.insert(reseller(1, 'again'))
      store.resellers.delete(store.resellers.get(3)!)
    })
    const replica = createStore(clock())
    for (const change of changes) replica.applyChange(change as StoreChange)
    expect(replica.snapshot().tables).toEqual(store.snapshot().tables)
    expect(Array.from(replica.resellers.all(), (r) => r.id)).toEqual([2, 4, 1])
  })

  test('a row deleted then inserted again after another insert keeps its live place in the replica', () => {
    const { store, changes } = recorded()
    store.transact(() => {
      for (let i = 1; i <= 3; i++) store.resellers.insert(reseller(i))
    })
    store.transact(() => {
      store.resellers.delete(store.resellers.get(1)!)
      store.resellers.insert(reseller(5))
      store.resellers.insert(reseller(1, 'again'))
      // An update after the re-insert does not move it again.
      store.resellers.update(store.resellers.get(1)!, { name: 'again 2' })
      store.resellers.insert(reseller(6))
    })
    expect(Array.from(store.resellers.all(), (r) => r.id)).toEqual([2, 3, 5, 1, 6])
    const replica = createStore(clock())
    for (const change of changes) replica.applyChange(change as StoreChange)
    expect(Array.from(replica.resellers.all(), (r) => r.id)).toEqual([2, 3, 5, 1, 6])
    expect(replica.snapshot().tables).toEqual(store.snapshot().tables)
  })

  test('an id drawn outside any transaction is a record of its own', () => {
    const { store, changes } = recorded()
    expect(store.nextId('random')).toBe(1)
    expect(changes).toEqual([{ tables: {}, counters: { random: 1 }, last_micros: 0, clock_offset_ms: 0 }])
    const replica = createStore(clock())
    replica.applyChange(changes[0] as StoreChange)
    expect(replica.nextId('random')).toBe(2)
  })

  test('a bad record changes nothing and says which table', () => {
    const store = createStore(clock())
    store.resellers.insert(reseller(1))
    const before = store.snapshot()
    const bad = {
      tables: { resellers: { put: [reseller(2), { id: 3, name: 5 }] } },
      counters: {},
      last_micros: 0,
      clock_offset_ms: 0,
    }
    expect(() => store.applyChange(bad as never)).toThrow(/change record: resellers: invalid row/)
    expect(() => store.applyChange({ ...bad, tables: { nope: {} } } as never)).toThrow(/unknown table "nope"/)
    expect(store.snapshot()).toEqual(before)
  })
})
