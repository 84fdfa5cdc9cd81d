/** Pagination end to end: 45 tickets in pages of 20, 20 and 5, newest first, fetched lazily. */
import type { SeedInput } from '@reseller-api/mock'
import { createMockApi } from '@reseller-api/mock'
import { describe, expect, it } from 'vitest'
import { ResellerApi, type Ticket } from '../../src/index.js'

const KEY = 'svc_live_it_pages'
const subject = (n: number) => `Ticket ${String(n).padStart(2, '0')}`

/** One reseller with 45 tickets, created in order 01 … 45 (45 is the newest). */
function seed(): SeedInput {
  return {
    resellers: [
      {
        id: 1,
        api_keys: [{ key: KEY, scopes: ['support:read', 'support:write'] }],
        tickets: Array.from({ length: 45 }, (_, i) => ({
          subject: subject(i + 1),
          department: 'general' as const,
          messages: [{ message: `message ${i + 1}` }],
        })),
      },
    ],
  }
}

/** A client on a fresh mock whose fetch counts the requests. */
function setup() {
  const mock = createMockApi({ seed: seed() })
  const requests: string[] = []
  const counting: typeof fetch = (input, init) => {
    requests.push(input instanceof Request ? input.url : String(input))
    return mock.fetch(input, init)
  }
  const api = new ResellerApi({
    apiKey: KEY,
    baseUrl: mock.baseUrl,
    fetch: counting,
    maxRetries: 0,
    strictResponses: true,
  })
  return { api, requests }
}

const newestFirst = Array.from({ length: 45 }, (_, i) => subject(45 - i))

describe('45 tickets', () => {
  it('for await yields all 45, newest first, each once, in three requests', async () => {
    const { api, requests } = setup()
    const seen: Ticket[] = []
    for await (const ticket of api.tickets.list()) seen.push(ticket)
    expect(seen.map((t) => t.subject)).toEqual(newestFirst)
    expect(new Set(seen.map((t) => t.uuid)).size).toBe(45)
    expect(requests).toHaveLength(3)
    expect(requests.map((url) => new URL(url).searchParams.get('page') ?? '1')).toEqual(['1', '2', '3'])
  })

  it('pages of 20, 20 and 5 with meta; hasNextPage and getNextPage walk them', async () => {
    const { api } = setup()
    const first = await api.tickets.list()
    expect(first.data).toHaveLength(20)
    expect(first.meta).toEqual({ total: 45, per_page: 20, current_page: 1 })
    expect(first.hasNextPage()).toBe(true)

    const second = await first.getNextPage()
    expect(second.data).toHaveLength(20)
    expect(second.meta).toEqual({ total: 45, per_page: 20, current_page: 2 })
    expect(second.hasNextPage()).toBe(true)

    const third = await second.getNextPage()
    expect(third.data).toHaveLength(5)
    expect(third.meta).toEqual({ total: 45, per_page: 20, current_page: 3 })
    expect(third.hasNextPage()).toBe(false)
    await expect(third.getNextPage()).rejects.toThrow(/hasNextPage/)

    expect([...first.data, ...second.data, ...third.data].map((t) => t.subject)).toEqual(newestFirst)
  })

  it('list({ page }) goes straight to a page; past the end is empty', async () => {
    const { api } = setup()
    const third = await api.tickets.list({ page: 3 })
    expect(third.data.map((t) => t.subject)).toEqual(newestFirst.slice(40))
    expect(third.meta.current_page).toBe(3)
    const fourth = await api.tickets.list({ page: 4 })
    expect(fourth.data).toEqual([])
    expect(fourth.meta).toEqual({ total: 45, per_page: 20, current_page: 4 })
    expect(fourth.hasNextPage()).toBe(false)
  })

  it('iteration is lazy: breaking after the first item fetches one page; iterPages yields three', async () => {
    const { api, requests } = setup()
    for await (const ticket of api.tickets.list()) {
      expect(ticket.subject).toBe(subject(45))
      break
    }
    expect(requests).toHaveLength(1)

    const sizes: number[] = []
    for await (const page of (await api.tickets.list()).iterPages()) sizes.push(page.data.length)
    expect(sizes).toEqual([20, 20, 5])
  })

  it('a ticket created meanwhile heads the first page', async () => {
    const { api } = setup()
    const { ticket_id } = await api.tickets.create({ subject: 'Newest', message: 'hi', department: 'sales' })
    const page = await api.tickets.list()
    expect(page.meta.total).toBe(46)
    expect(page.data[0]?.uuid).toBe(ticket_id)
    expect(page.data[1]?.subject).toBe(subject(45))
  })

  it('withResponse on a list gives the page and the 200 answer', async () => {
    const { api } = setup()
    const { data: page, response } = await api.tickets.list({ page: 2 }).withResponse()
    expect(response.status).toBe(200)
    expect(page.meta.current_page).toBe(2)
    expect(page.data[0]?.subject).toBe(subject(25))
  })
})
