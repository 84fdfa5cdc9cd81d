// GET /services and GET /invoices: paginated, from the seed, any valid key.
import { Invoice, pageEnvelope, Service } from '@reseller-api/sdk/schemas'
import { describe, expect, test } from 'vitest'
import { call, KEYS, newMock, SERVICE_A, SERVICE_B, testSeed } from '../helpers/mock.js'

describe('services', () => {
  test("the caller's services, parsed by the SDK schema", async () => {
    const mock = newMock()
    const page = pageEnvelope(Service).parse((await call(mock, 'GET', '/services')).body)
    expect(page.data.map((s) => s.id)).toEqual([SERVICE_A])
    expect(page.data[0]).toMatchObject({ type: 'hosting', name: 'Hosting A', status: 'active' })
    expect(page.meta).toEqual({ total: 1, per_page: 20, current_page: 1 })
    const b = await call(mock, 'GET', '/services', { key: KEYS.b })
    expect(b.body.data.map((s: { id: string }) => s.id)).toEqual([SERVICE_B])
  })

  test('ids are generated when the seed leaves them out; newest (last in the seed) first', async () => {
    const seed = testSeed()
    seed.resellers[0]!.services = [
      { type: 'domain', name: 'first.example', created_at: '2025-01-01T00:00:00Z' },
      { type: 'vps', name: 'second', status: 'cancelled' },
    ]
    const page = pageEnvelope(Service).parse((await call(newMock(seed), 'GET', '/services')).body)
    expect(page.data.map((s) => s.name)).toEqual(['second', 'first.example'])
    expect(page.data[1]!.created_at).toBe('2025-01-01T00:00:00.000000Z')
  })
})

describe('invoices', () => {
  test('paginated, generated ids and numbers, defaults', async () => {
    const seed = testSeed()
    seed.resellers[0]!.invoices = Array.from({ length: 23 }, (_, i) => ({ total: i, currency: 'USD' }))
    seed.resellers[0]!.invoices.push({
      id: 900,
      number: 'X-1',
      total: 5,
      status: 'refunded',
      due_at: '2026-01-31T00:00:00Z',
    })
    const mock = newMock(seed)
    const first = pageEnvelope(Invoice).parse((await call(mock, 'GET', '/invoices')).body)
    expect(first.meta).toEqual({ total: 24, per_page: 20, current_page: 1 })
    expect(first.data[0]).toMatchObject({
      id: 900,
      number: 'X-1',
      status: 'refunded',
      due_at: '2026-01-31T00:00:00.000000Z',
    })
    expect(first.data[1]).toMatchObject({
      id: 23,
      number: 'INV-000023',
      status: 'unpaid',
      currency: 'USD',
      due_at: null,
    })
    const second = pageEnvelope(Invoice).parse((await call(mock, 'GET', '/invoices?page=2')).body)
    expect(second.data.map((v) => v.id)).toEqual([4, 3, 2, 1])
    expect((await call(mock, 'GET', '/invoices', { key: KEYS.b })).body.data).toEqual([])
  })
})
