/**
 * One scenario over a mock's controls, written once with `await` on every call: run against an
 * in-process mock, `connectMock` over its fetch and `connectMock` on a namespace's URL, its
 * results must be equal (test/api/connect-mock.test.ts, test/process/connect-mock-namespaces.test.ts).
 */
import { ResellerApi } from '@reseller-api/sdk'
import { expect } from 'vitest'
import { KEYS } from './mock.js'

/** The same scenario, written once with `await` on every call. */
export async function controlScenario(
  mock: {
    reset(): unknown
    state(): unknown
    clock: { advance(ms: number): Promise<{ offset_ms: number }> }
    faults: {
      add(spec: object): { id: string; remove(): unknown } | Promise<{ id: string; remove(): unknown }>
      list(): unknown
      clear(): unknown
    }
    requests: { list(filter?: object): unknown; clear(): unknown }
    tickets: { staffReply(uuid: string, body: { message: string }): Promise<unknown> }
    emit(input: never): Promise<unknown>
    baseUrl: string
    fetch?: typeof fetch
  },
  apiKey: string = KEYS.a,
) {
  const api = new ResellerApi({
    apiKey,
    baseUrl: mock.baseUrl,
    maxRetries: 0,
    ...(mock.fetch && { fetch: mock.fetch }),
  })
  const seen: Record<string, unknown> = {}
  const fault = await mock.faults.add({ match: { method: 'GET' }, respond: { status: 503 }, times: 1 })
  seen.faultId = fault.id
  seen.faults = ((await mock.faults.list()) as { id: string }[]).map((f) => f.id)
  await expect(api.whm.usage()).rejects.toMatchObject({ status: 503, code: 'service_unavailable' })
  seen.removedUsedUp = await fault.remove()
  const second = await mock.faults.add({ respond: { status: 429 } })
  seen.removed = await second.remove()
  seen.removedAgain = await second.remove()
  await mock.faults.add({ respond: { status: 500 } })
  await mock.faults.clear()
  seen.afterClear = await mock.faults.list()

  const created = await api.tickets.create({ subject: 'Parity', message: 'hello', department: 'sales' })
  const reply = await mock.tickets.staffReply(created.ticket_id, { message: 'on it' })
  seen.reply = { ...(reply as object), created_at: 'x' }
  seen.ticketStatus = (await api.tickets.get(created.ticket_id)).status
  seen.journal = ((await mock.requests.list({ method: 'POST' })) as { path: string; status: number }[]).map(
    (entry) => [entry.path, entry.status],
  )
  await mock.requests.clear()
  seen.journalAfterClear = await mock.requests.list()

  const before = (await mock.clock.advance(0)).offset_ms
  seen.advanced = (await mock.clock.advance(90_000)).offset_ms - before
  const event = (await mock.emit({ reseller_id: 1, event: 'vps.activated' } as never)) as { event: string }
  seen.emitted = event.event

  await mock.reset()
  const state = (await mock.state()) as { tables: { tickets: { uuid: string }[] } }
  seen.ticketGoneAfterReset = !state.tables.tickets.some((t) => t.uuid === created.ticket_id)
  return seen
}
