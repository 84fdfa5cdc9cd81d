import { describe, expect, it } from 'vitest'
import { Page, PagePromise, ResellerApiError, type Ticket, ValidationError } from '../src/index.js'
import { fixtures, page, setup } from './helpers/fake-api.js'

/** A server holding `total` tickets, 20 per page, as the spec says. */
function ticketServer(total: number, perPage = 20) {
  return setup((_request, sent) => {
    const current = Number(new URL(sent.url).searchParams.get('page') ?? '1')
    const from = (current - 1) * perPage
    const items = Array.from({ length: Math.max(0, Math.min(perPage, total - from)) }, (_, i) =>
      fixtures.ticket(from + i + 1),
    )
    return page(items, { total, per_page: perPage, current_page: current })
  })
}

describe('a list method', () => {
  it('resolves to the first page: data, meta, hasNextPage', async () => {
    const { api, sent } = ticketServer(45)
    const first = await api.tickets.list()
    expect(first).toBeInstanceOf(Page)
    expect(first.data).toHaveLength(20)
    expect(first.data[0]?.id).toBe(1)
    expect(first.meta).toEqual({ total: 45, per_page: 20, current_page: 1 })
    expect(first.hasNextPage()).toBe(true)
    expect(sent.map((s) => s.path)).toEqual(['/support/tickets'])
  })

  it('getNextPage asks for the next page number, up to the last', async () => {
    const { api, sent } = ticketServer(45)
    const first = await api.tickets.list()
    const second = await first.getNextPage()
    const third = await second.getNextPage()
    expect(second.data.map((t) => t.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 21))
    expect(third.data.map((t) => t.id)).toEqual([41, 42, 43, 44, 45])
    expect(third.hasNextPage()).toBe(false)
    await expect(third.getNextPage()).rejects.toThrow(ResellerApiError)
    expect(sent.map((s) => s.path)).toEqual([
      '/support/tickets',
      '/support/tickets?page=2',
      '/support/tickets?page=3',
    ])
  })

  it('starts from the page asked for', async () => {
    const { api, sent } = ticketServer(45)
    const second = await api.tickets.list({ page: 2 })
    expect(second.meta.current_page).toBe(2)
    await second.getNextPage()
    expect(sent.map((s) => s.path)).toEqual(['/support/tickets?page=2', '/support/tickets?page=3'])
  })

  it('iterates 45 items over 3 pages, fetching each page only when the loop reaches it', async () => {
    const { api, sent } = ticketServer(45)
    const seen: number[] = []
    const fetchedWhenSeen: number[] = []
    const list = api.tickets.list()
    expect(list).toBeInstanceOf(PagePromise)
    for await (const ticket of list) {
      seen.push(ticket.id)
      fetchedWhenSeen.push(sent.length)
    }
    expect(seen).toEqual(Array.from({ length: 45 }, (_, i) => i + 1))
    expect(sent).toHaveLength(3)
    // Items 1–20 were read with one page fetched, 21–40 with two, 41–45 with three.
    expect(fetchedWhenSeen.slice(0, 20).every((n) => n === 1)).toBe(true)
    expect(fetchedWhenSeen.slice(20, 40).every((n) => n === 2)).toBe(true)
    expect(fetchedWhenSeen.slice(40).every((n) => n === 3)).toBe(true)
  })

  it('stops fetching when the loop stops', async () => {
    const { api, sent } = ticketServer(1000)
    let count = 0
    for await (const _ticket of api.tickets.list()) {
      if (++count === 25) break
    }
    expect(sent).toHaveLength(2)
  })

  it('ends on an empty page even if total says there is more', async () => {
    const { api, sent } = setup(() => page([], { total: 99, per_page: 20, current_page: 1 }))
    const items: Ticket[] = []
    for await (const ticket of api.tickets.list()) items.push(ticket)
    expect(items).toEqual([])
    expect(sent).toHaveLength(1)
  })

  it('a page is iterable too, from itself onward, and iterPages walks pages', async () => {
    const { api } = ticketServer(45)
    const second = await api.tickets.list({ page: 2 })
    const ids: number[] = []
    for await (const ticket of second) ids.push(ticket.id)
    expect(ids[0]).toBe(21)
    expect(ids).toHaveLength(25)
    const sizes: number[] = []
    for await (const p of (await api.tickets.list()).iterPages()) sizes.push(p.data.length)
    expect(sizes).toEqual([20, 20, 5])
  })

  it('withResponse gives the page and the HTTP answer', async () => {
    const { api } = ticketServer(3)
    const { data, response } = await api.tickets.list().withResponse()
    expect(data.data).toHaveLength(3)
    expect(response.status).toBe(200)
  })

  it('refuses a bad page number before sending', async () => {
    const { api, sent } = ticketServer(3)
    const error = await api.tickets.list({ page: 0 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).fields).toEqual({ page: ['must be 1 or more'] })
    const unknown = await api.invoices.list({ per_page: 100 } as never).catch((e: unknown) => e)
    expect((unknown as ValidationError).fields).toEqual({ per_page: ['is not a known field'] })
    expect(sent).toHaveLength(0)
  })

  it('every list method paginates the same way, path parameters kept across pages', async () => {
    const { api, sent } = setup((_r, s) => {
      const current = Number(new URL(s.url).searchParams.get('page') ?? '1')
      return page([fixtures.delivery(`d${current}`)], { total: 2, per_page: 1, current_page: current })
    })
    const ids: string[] = []
    for await (const delivery of api.webhooks.deliveries('wh_1')) ids.push(delivery.delivery_id)
    expect(ids).toEqual(['d1', 'd2'])
    expect(sent.map((s) => s.path)).toEqual(['/webhooks/wh_1/deliveries', '/webhooks/wh_1/deliveries?page=2'])
  })
})
