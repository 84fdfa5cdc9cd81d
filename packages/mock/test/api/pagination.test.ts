// Pagination everywhere: 20 per page, meta, newest first, page validation.
import { PageMeta } from '@reseller-api/sdk/schemas'
import { describe, expect, test } from 'vitest'
import { call, expectError, KEYS, newMock, testSeed } from '../helpers/mock.js'

function bigSeed() {
  const seed = testSeed()
  const a = seed.resellers[0]!
  a.whm!.accounts_limit = 50
  a.packages!.push(...Array.from({ length: 19 }, (_, i) => ({ name: `pkg${i}` })))
  a.accounts = Array.from({ length: 41 }, (_, i) => ({ domain: `acct${i}.example`, whm_package: 'starter' }))
  a.invoices = Array.from({ length: 40 }, (_, i) => ({ total: i }))
  a.services = Array.from({ length: 20 }, (_, i) => ({ type: 'domain' as const, name: `d${i}.example` }))
  a.tickets = Array.from({ length: 21 }, (_, i) => ({
    subject: `t${i}`,
    department: 'sales' as const,
    messages: [{ message: 'm' }],
  }))
  return seed
}

const lists: [string, number][] = [
  ['/support/tickets', 21],
  ['/reseller/whm/accounts', 41],
  ['/reseller/whm/packages', 21],
  ['/services', 20],
  ['/invoices', 40],
  ['/reseller/accounts', 41],
  ['/reseller/packages', 21],
]

describe.each(lists)('%s', (path, total) => {
  test('pages of 20, meta, beyond the end', async () => {
    const mock = newMock(bigSeed())
    const pages = Math.ceil(total / 20)
    const seen: unknown[] = []
    for (let p = 1; p <= pages + 1; p++) {
      const answer = await call(mock, 'GET', `${path}?page=${p}`)
      expect(answer.status).toBe(200)
      expect(PageMeta.parse(answer.body.meta)).toEqual({ total, per_page: 20, current_page: p })
      const expected = p <= pages ? Math.min(20, total - (p - 1) * 20) : 0
      expect(answer.body.data).toHaveLength(expected)
      seen.push(...answer.body.data)
    }
    expect(seen).toHaveLength(total)
    expect(new Set(seen.map((item) => JSON.stringify(item))).size).toBe(total)
  })

  test('no page means page 1', async () => {
    const mock = newMock(bigSeed())
    expect((await call(mock, 'GET', path)).body).toEqual((await call(mock, 'GET', `${path}?page=1`)).body)
  })

  test.each(['0', 'abc', '-2', '2.0', '1e3', '9999999999'])('page=%s → 422', async (page) => {
    expectError(await call(newMock(bigSeed()), 'GET', `${path}?page=${page}`), 422, 'validation_error')
  })
})

test('a huge valid page number answers empty data', async () => {
  const answer = await call(newMock(), 'GET', '/invoices?page=999999999', { key: KEYS.a })
  expect(answer.body).toEqual({
    success: true,
    data: [],
    meta: { total: 2, per_page: 20, current_page: 999999999 },
  })
})

test('newest first: invoices by creation order', async () => {
  const answer = await call(newMock(bigSeed()), 'GET', '/invoices?page=2')
  expect(answer.body.data.map((v: { total: number }) => v.total)).toEqual(
    Array.from({ length: 20 }, (_, i) => 19 - i),
  )
})
