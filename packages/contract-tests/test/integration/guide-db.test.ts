/**
 * The `mock.db` recipe of docs/testing-with-the-mock.md, run: the guide's block is the region below,
 * word for word (checked by the last test), so a recipe that stops working fails here.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// #region mock-db
import { createMockApi } from '@reseller-api/mock'
import { ResellerApi } from '@reseller-api/sdk'
import { expect, test } from 'vitest'

test('the ticket is stored as the support team will see it', async () => {
  const mock = createMockApi() // the demo seed
  const api = new ResellerApi({ apiKey: 'svc_live_acme_full', baseUrl: mock.baseUrl, fetch: mock.fetch })

  const created = await api.tickets.create({ subject: 'Disk full', message: 'Help', department: 'technical' })

  // @msw/data where-queries over what the mock holds now, with the fields the API never shows.
  const ticket = mock.db.tickets.findFirst((q) => q.where({ uuid: created.ticket_id }))
  expect(ticket).toMatchObject({ reseller_id: 1, status: 'open', messages_count: 1 })
  const notes = mock.db.messages.findMany((q) => q.where({ internal: true, from: 'staff' }))
  expect(notes.length).toBeGreaterThan(0)

  // Predicates, or(), sorting and paging.
  const open = mock.db.invoices.findMany(
    (q) => q.where({ reseller_id: 1, status: 'unpaid' }).or({ reseller_id: 1, status: 'refunded' }),
    { orderBy: { total: 'desc' }, take: 2 },
  )
  expect(open.map((invoice) => invoice.status)).toEqual(['refunded', 'unpaid'])
  expect(mock.db.accounts.count((q) => q.where({ domain: (d) => d.startsWith('client-') }))).toBe(2)

  // Read-only: records are frozen copies; change state through the API or the mock's controls.
  expect(() => Object.assign(ticket!, { status: 'closed' })).toThrow(TypeError)
})
// #endregion

test('the guide shows the region above word for word', () => {
  const source = readFileSync(fileURLToPath(import.meta.url), 'utf8')
  const region = /^\/\/ #region mock-db\n([\s\S]*?)^\/\/ #endregion$/m.exec(source)![1]!.trimEnd()
  const guide = readFileSync(
    fileURLToPath(new URL('../../../../docs/testing-with-the-mock.md', import.meta.url)),
    'utf8',
  )
  expect(guide).toContain(`\`\`\`ts\n${region}\n\`\`\``)
})
