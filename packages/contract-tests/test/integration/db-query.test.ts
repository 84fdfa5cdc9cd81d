/**
 * `mock.db` takes a `Query` the application built with its own `@msw/data`: the published mock
 * inlines the copy it uses, so the two classes differ, and a query is recognised by its shape.
 */
import { Query } from '@msw/data'
import { createMockApi, type MockDbRow } from '@reseller-api/mock'
import { expect, test } from 'vitest'

test("a prebuilt Query of the application's own @msw/data selects what it says", () => {
  const mock = createMockApi()
  const paid = new Query<MockDbRow<'invoices'>>().where({ status: 'paid' })
  const expected = mock.db.invoices.findMany().filter((invoice) => invoice.status === 'paid')
  expect(expected.length).toBeGreaterThan(0)
  expect(mock.db.invoices.findMany(paid)).toEqual(expected)
  expect(mock.db.invoices.count(paid)).toBe(expected.length)
})
