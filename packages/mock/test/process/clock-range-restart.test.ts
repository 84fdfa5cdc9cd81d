/**
 * The clock's range across a restart on a state file: a mock advanced to the end of its range
 * restarts there, keeps refusing advances past it, and keeps accepting writes.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startStandalone } from '../../src/server/host/standalone.js'
import { LATEST_MOCK_TIME_MS } from '../../src/state/clock.js'
import { KEYS, testSeed } from '../helpers/mock.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function post(base: string, path: string, body: unknown, key?: string) {
  const answer = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  })
  return { status: answer.status, body: await answer.json() }
}

describe('clock range across a restart', () => {
  it('restarts at the end of the range, still refusing to pass it, still writing', {
    timeout: 60_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clock-range-'))
    dirs.push(dir)
    const statePath = join(dir, 'state.db')
    const ticket = { subject: 'Late', message: 'Still here', department: 'technical' }

    const first = await startStandalone({ port: 0, seed: testSeed(), statePath })
    let offset: number
    try {
      // In process, one long move to a minute before the end (over HTTP one move is at most 10 years).
      const last = await first.mock.clock.advance(LATEST_MOCK_TIME_MS - first.mock.clock.nowMs() - 60_000)
      const refused = await post(first.url, '/__mock/clock/advance', { seconds: 315_360_000 })
      expect(refused.status).toBe(422)
      expect(refused.body.error.fields.seconds[0]).toMatch(/must be at most \d+/)
      offset = last.offset_ms
      expect((await post(first.url, '/api/v1/support/tickets', ticket, KEYS.a)).status).toBe(201)
    } finally {
      await first.close()
    }

    const second = await startStandalone({ port: 0, statePath })
    try {
      expect(second.state).toBe('loaded')
      const clock = await (await fetch(`${second.url}/__mock/clock`)).json()
      expect(clock.data.offset_ms).toBe(offset)
      expect(clock.data.now.startsWith('9999-12-3')).toBe(true)
      const refused = await post(second.url, '/__mock/clock/advance', { seconds: 86_400 })
      expect(refused.status).toBe(422)
      expect((await post(second.url, '/api/v1/support/tickets', ticket, KEYS.a)).status).toBe(201)
    } finally {
      await second.close()
    }
  })
})
