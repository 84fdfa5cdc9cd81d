// Ids and secrets come from each mock's own seeded generator: createMockApi works where
// crypto.randomUUID and crypto.getRandomValues are missing (insecure pages) or refused (workerd at
// module scope), and two runs making the same calls get the same ids.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMockApi } from '../../src/index.js'
import { createRandom, localCounter } from '../../src/state/random.js'
import { call, KEYS, state, testSeed } from '../helpers/mock.js'

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

afterEach(() => {
  vi.restoreAllMocks()
})

/** A seed whose tickets, services and webhook secret the mock must fill in. */
function seedToResolve() {
  const seed = testSeed()
  const reseller = seed.resellers[0]!
  reseller.tickets = [
    {
      subject: 'Seeded',
      department: 'technical',
      priority: 'normal',
      status: 'open',
      messages: [{ message: 'First', internal: false, from: 'client' }],
    },
  ]
  reseller.services = [{ type: 'hosting', name: 'Seeded service', status: 'active' }]
  reseller.webhooks = [{ url: 'https://hooks.example.com/a', events: ['ticket.created'] }]
  return seed
}

/** Makes a ticket and a webhook, and returns every generated value the run produced. */
async function run(mock: ReturnType<typeof createMockApi>) {
  const ticket = await call(mock, 'POST', '/support/tickets', {
    body: { subject: 'New', message: 'Hello', department: 'billing', priority: 'low' },
  })
  const hook = await call(mock, 'POST', '/webhooks', {
    key: KEYS.a,
    body: { url: 'https://hooks.example.com/b', events: ['ticket.created'] },
  })
  expect(hook.status, JSON.stringify(hook.body)).toBe(201)
  expect(ticket.status, JSON.stringify(ticket.body)).toBe(201)
  const { tables } = await state(mock)
  return {
    ticket: ticket.body.data.ticket_id as string,
    secret: hook.body.data.secret as string,
    seeded: tables.tickets!.map((t) => t.uuid),
    services: tables.services!.map((s) => s.id),
    secrets: tables.webhooks!.map((w) => w.secret),
    deliveries: tables.deliveries!.map((d) => d.delivery_id),
  }
}

describe('the seeded generator', () => {
  it('needs neither crypto.randomUUID nor crypto.getRandomValues', async () => {
    const randomUUID = vi.spyOn(crypto, 'randomUUID').mockImplementation(() => {
      throw new Error('crypto.randomUUID is not available here')
    })
    const getRandomValues = vi.spyOn(crypto, 'getRandomValues').mockImplementation(() => {
      throw new Error('crypto.getRandomValues is not available here')
    })
    const mock = createMockApi({ seed: seedToResolve() })
    const values = await run(mock)
    expect(values.ticket).toMatch(UUID_V4)
    expect(values.secret).toMatch(/^whsec_[0-9a-f]{32}$/)
    for (const uuid of [...values.seeded, ...values.services]) expect(uuid).toMatch(UUID_V4)
    expect(values.deliveries.length).toBeGreaterThan(0)
    for (const id of values.deliveries) expect(id).toMatch(/^dlv_[0-9a-f]{32}$/)
    expect(randomUUID).not.toHaveBeenCalled()
    expect(getRandomValues).not.toHaveBeenCalled()
  })

  it('makes runs reproducible: same randomSeed and calls, same ids; another seed, other ids', async () => {
    const first = await run(createMockApi({ seed: seedToResolve(), randomSeed: 7 }))
    const second = await run(createMockApi({ seed: seedToResolve(), randomSeed: 7 }))
    const other = await run(createMockApi({ seed: seedToResolve(), randomSeed: 'other' }))
    expect(second).toEqual(first)
    expect(other.ticket).not.toBe(first.ticket)
    expect(other.secret).not.toBe(first.secret)
    expect(other.seeded).not.toEqual(first.seeded)
  })

  it('a failing request draws nothing: the next id is the one it would have been', async () => {
    const clean = createMockApi({ seed: testSeed() })
    const withFailure = createMockApi({ seed: testSeed() })
    const bad = await call(withFailure, 'POST', '/support/tickets', {
      body: { subject: 'x', message: 'y', department: 'nope', priority: 'low' },
    })
    expect(bad.status).toBe(422)
    expect((await run(withFailure)).ticket).toBe((await run(clean)).ticket)
  })

  it('reset() replays the run: the seed keeps its uuids, new ones start over and never repeat a seeded one', async () => {
    const mock = createMockApi({ seed: seedToResolve() })
    const before = await run(mock)
    mock.reset()
    const after = await run(mock)
    expect(after).toEqual(before)
    const seededOnly = before.seeded.filter((uuid) => uuid !== before.ticket)
    expect(seededOnly).not.toContain(after.ticket)
  })

  it('draws 100,000 distinct uuids from one stream', () => {
    const random = createRandom('reseller-mock', 'run', localCounter())
    const seen = new Set<string>()
    for (let i = 0; i < 100_000; i++) seen.add(random.uuid())
    expect(seen.size).toBe(100_000)
  })
})
