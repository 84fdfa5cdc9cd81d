/**
 * The clock stays within the times the mock can write (years up to 9999): an advance that would
 * leave that range is refused before anything moves, in process and over HTTP, and writes keep
 * working at the end of the range, across reset and restore.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { MockApi } from '../../src/node.js'
import { createClock, LATEST_MOCK_TIME_MS } from '../../src/state/clock.js'
import { call, KEYS, newMock } from '../helpers/mock.js'

const TEN_YEARS_S = 10 * 365 * 24 * 3600

const mocks: MockApi[] = []
afterEach(() => {
  for (const mock of mocks.splice(0)) mock.clock.stop()
})
function tracked(): MockApi {
  const mock = newMock()
  mocks.push(mock)
  return mock
}

const createTicket = (mock: MockApi) =>
  call(mock, 'POST', '/support/tickets', {
    key: KEYS.a,
    body: { subject: 'Late', message: 'Still here', department: 'technical' },
  })

/** Advances by ten years over HTTP until the mock refuses; returns the refusal and the count. */
async function advanceUntilRefused(mock: MockApi) {
  for (let n = 0; n < 1000; n++) {
    const answer = await call(mock, 'POST', '/__mock/clock/advance', {
      key: null,
      body: { seconds: TEN_YEARS_S },
    })
    if (answer.status !== 200) return { answer, accepted: n }
  }
  throw new Error('1,000 advances of ten years were all accepted')
}

describe('clock range: in process', () => {
  it('mock.clock.advance(8.64e15) rejects with a RangeError and moves nothing', async () => {
    const mock = tracked()
    await mock.clock.advance(5_000)
    const before = mock.clock.state()
    await expect(mock.clock.advance(8.64e15)).rejects.toThrow(RangeError)
    await expect(mock.clock.advance(8.64e15)).rejects.toThrow(/9999-12-31T00:00:00\.000Z/)
    expect(mock.clock.offsetMs).toBe(5_000)
    expect(mock.clock.state().offset_ms).toBe(before.offset_ms)
    expect(new Date(mock.clock.nowMs()).getUTCFullYear()).toBeLessThan(3000)
    expect((await createTicket(mock)).status).toBe(201)
  })

  it('an advance ending exactly at the latest time is accepted; one millisecond more is not', async () => {
    let real = Date.UTC(2026, 0, 1)
    const clock = createClock({ realNow: () => real })
    const ran: number[] = []
    clock.schedule(Date.UTC(2030, 0, 1), () => ran.push(clock.nowMs()))
    await expect(clock.advance(LATEST_MOCK_TIME_MS - real + 1)).rejects.toThrow(RangeError)
    // Refused before anything moved: the task on the way did not run.
    expect(ran).toEqual([])
    expect(clock.offsetMs).toBe(0)
    const state = await clock.advance(LATEST_MOCK_TIME_MS - real)
    expect(state.now).toBe('9999-12-31T00:00:00.000000Z')
    expect(ran).toEqual([Date.UTC(2030, 0, 1)])
    // Real time passing does not carry it further.
    real += 86_400_000 * 3
    expect(clock.nowMs()).toBe(LATEST_MOCK_TIME_MS)
    expect((await clock.advance(0)).now).toBe('9999-12-31T00:00:00.000000Z')
    await expect(clock.advance(1)).rejects.toThrow(RangeError)
    clock.stop()
  })

  it('a restored offset past the range stops the clock at its latest time', async () => {
    const real = Date.UTC(2026, 0, 1)
    const clock = createClock({ realNow: () => real })
    clock.restoreOffset(Date.UTC(10021, 0, 1) - real)
    expect(clock.nowMs()).toBe(LATEST_MOCK_TIME_MS)
    expect(clock.state().now).toBe('9999-12-31T00:00:00.000000Z')
    expect(clock.offsetMs).toBe(LATEST_MOCK_TIME_MS - real)
    clock.stop()
  })
})

describe('clock range: POST /__mock/clock/advance', () => {
  it('many legal advances: the one that would cross year 9999 is refused with 422 on seconds', async () => {
    const mock = tracked()
    const { answer, accepted } = await advanceUntilRefused(mock)
    // Steps of 3,650 days: about 797 of them from today, ending in the 9990s.
    expect(accepted).toBeGreaterThan(790)
    expect(answer.status).toBe(422)
    expect(answer.body.error.code).toBe('validation_error')
    expect(answer.body.error.fields.seconds[0]).toMatch(/must be at most \d+: .*9999-12-31T00:00:00\.000Z/)
    const clock = (await call(mock, 'GET', '/__mock/clock', { key: null })).body.data
    expect(Number(clock.now.slice(0, 4))).toBeGreaterThanOrEqual(9990)
    expect(clock.offset_ms).toBe(accepted * TEN_YEARS_S * 1000)

    // Writes keep working at the far end, and the answer's times are in the API's format.
    const ticket = await createTicket(mock)
    expect(ticket.status).toBe(201)
    const read = await call(mock, 'GET', `/support/tickets/${ticket.body.data.ticket_id}`)
    expect(read.status).toBe(200)
    expect(read.body.data.created_at).toMatch(/^99\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)

    // The advance that is still possible is accepted, and then no more than what is left.
    const rest = Number(/must be at most (\d+)/.exec(answer.body.error.fields.seconds[0])![1])
    // Real time keeps running meanwhile: leave it a minute.
    const last = await call(mock, 'POST', '/__mock/clock/advance', {
      key: null,
      body: { seconds: rest - 60 },
    })
    expect(last.status).toBe(200)
    expect(last.body.data.now.startsWith('9999-12-3')).toBe(true)
    const refused = await call(mock, 'POST', '/__mock/clock/advance', {
      key: null,
      body: { seconds: 86_400 },
    })
    expect(refused.status).toBe(422)
    expect((await call(mock, 'GET', '/__mock/clock', { key: null })).body.data.offset_ms).toBe(
      last.body.data.offset_ms,
    )
  })

  it('the offset survives a reset, and the range still holds after it', async () => {
    const mock = tracked()
    const { accepted } = await advanceUntilRefused(mock)
    const offset = accepted * TEN_YEARS_S * 1000
    const reset = await call(mock, 'POST', '/__mock/reset', { key: null })
    expect(reset.status).toBe(200)
    expect(mock.clock.offsetMs).toBe(offset)
    const again = await call(mock, 'POST', '/__mock/clock/advance', {
      key: null,
      body: { seconds: TEN_YEARS_S },
    })
    expect(again.status).toBe(422)
    expect(mock.clock.offsetMs).toBe(offset)
    expect((await createTicket(mock)).status).toBe(201)
  })
})
