import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { verifySignature } from '@reseller-api/sdk/webhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, startCli, waitForLine } from '../helpers/cli.js'
import { startReceiver } from '../helpers/webhooks.js'

const KEY = 'svc_live_durable'
const SECRET = 'whsec_durable'

let dir: string
const cleanups: Array<() => unknown> = []
beforeAll(async () => {
  assertBuilt()
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-state-'))
})
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function writeSeed(receiverUrl: string) {
  const path = join(dir, `seed-${Math.random().toString(36).slice(2)}.json`)
  await writeFile(
    path,
    JSON.stringify({
      resellers: [
        {
          id: 1,
          name: 'Durable',
          api_keys: [{ key: KEY, scopes: ['support:read', 'support:write', 'reseller:webhooks'] }],
          webhooks: [{ id: 'wh_durable', url: receiverUrl, events: ['ticket.created'], secret: SECRET }],
        },
      ],
    }),
  )
  return path
}

async function launch(args: string[]) {
  const run = await startCli(args)
  cleanups.push(() => {
    if (run.child.exitCode === null) run.child.kill('SIGKILL')
  })
  const call = async (method: string, path: string, body?: unknown, key: string | null = KEY) => {
    const res = await fetch(`${run.url}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: await res.json() }
  }
  return { run, call }
}

async function kill9(run: Awaited<ReturnType<typeof startCli>>) {
  run.child.kill('SIGKILL')
  expect((await run.exited).signal).toBe('SIGKILL')
}

const ticket = (subject: string) => ({ subject, message: 'Durable?', department: 'technical' })

describe('--state FILE survives SIGKILL', { timeout: 60_000 }, () => {
  it('keeps every acknowledged ticket and still retries a pending delivery after a restart', async () => {
    const receiver = await startReceiver(() => 500)
    cleanups.push(() => receiver.close())
    const seed = await writeSeed(receiver.url)
    const state = join(dir, 'state-a.db')
    const args = ['--port', '0', '--quiet', '--insecure-webhooks', '--seed', seed, '--state', state]

    const first = await launch(args)
    await waitForLine(first.run, new RegExp(`state +${state} \\(new\\)`))
    const uuids: string[] = []
    for (let i = 0; i < 3; i++) {
      const created = await first.call('POST', '/api/v1/support/tickets', ticket(`T${i}`))
      expect(created.status).toBe(201)
      uuids.push(created.body.data.ticket_id)
    }
    // Wait (bounded) until every first attempt has failed; a read never shows an unsaved change.
    for (let i = 0; i < 200; i++) {
      const list = await first.call('GET', '/api/v1/webhooks/wh_durable/deliveries')
      if (
        list.body.data.every((d: { status: string }) => d.status === 'failed') &&
        list.body.meta.total === 3
      )
        break
      await new Promise((r) => setTimeout(r, 25))
    }
    expect(receiver.received).toHaveLength(3)
    // Move the mock clock 30 s on (acknowledged), so the restart must also keep the clock's offset.
    const moved = await first.call('POST', '/__mock/clock/advance', { seconds: 30 }, null)
    expect(moved.body.data.offset_ms).toBeGreaterThanOrEqual(30_000)
    expect(receiver.received).toHaveLength(3)
    await kill9(first.run)
    // Only the database, its WAL and the holder file are left: nothing else to clean up.
    const files = (await readdir(dir)).filter((f) => f.includes('state-a'))
    expect(files.sort()).toEqual(['state-a.db', 'state-a.db-lock', 'state-a.db-wal'])

    const second = await launch(args)
    await waitForLine(second.run, new RegExp(`state +${state} \\(loaded\\)`))
    const list = await second.call('GET', '/api/v1/support/tickets')
    const listed = list.body.data.map((t: { uuid: string }) => t.uuid)
    for (const uuid of uuids) expect(listed).toContain(uuid)

    const deliveries = await second.call('GET', '/api/v1/webhooks/wh_durable/deliveries')
    expect(deliveries.body.meta.total).toBe(3)
    for (const d of deliveries.body.data) {
      expect(d).toMatchObject({ status: 'failed', http_status: 500, retries: 0 })
      expect(d.next_attempt_at).not.toBeNull()
    }

    // The clock offset survived: about 30 s of the 1-minute wait are left (less the real time the
    // restart took), not 60.
    const advance = (seconds: number) => second.call('POST', '/__mock/clock/advance', { seconds }, null)
    const now = await advance(0)
    expect(now.body.data.offset_ms).toBeGreaterThanOrEqual(30_000)
    const due = Math.min(
      ...deliveries.body.data.map((d: { next_attempt_at: string }) => Date.parse(d.next_attempt_at)),
    )
    const left = (due - Date.parse(now.body.data.now)) / 1000
    expect(left).toBeGreaterThan(15)
    expect(left).toBeLessThanOrEqual(30)
    await advance(Math.floor(left) - 3)
    expect(receiver.received).toHaveLength(3)
    await advance(5)
    expect(receiver.received).toHaveLength(6)
    const after = await second.call('GET', '/api/v1/webhooks/wh_durable/deliveries')
    for (const d of after.body.data) expect(d).toMatchObject({ status: 'failed', retries: 1 })
    for (const r of receiver.received) {
      expect(await verifySignature(r.body, r.headers['x-service-signature'] as string, SECRET)).toBe(true)
    }
    second.run.child.kill('SIGTERM')
    expect((await second.run.exited).code).toBe(0)
  })

  it('a delivery acknowledged but not yet attempted when killed is attempted after the restart', async () => {
    // A receiver that never answers holds the first attempt in flight while the process is killed.
    const receiver = await startReceiver((n) => (n === 1 ? 'hang' : 204))
    cleanups.push(() => receiver.close())
    const seed = await writeSeed(receiver.url)
    const state = join(dir, 'state-b.db')
    const args = ['--port', '0', '--quiet', '--insecure-webhooks', '--seed', seed, '--state', state]

    const first = await launch(args)
    const created = await first.call('POST', '/api/v1/support/tickets', ticket('in flight'))
    expect(created.status).toBe(201)
    for (let i = 0; i < 200 && receiver.received.length === 0; i++)
      await new Promise((r) => setTimeout(r, 10))
    expect(receiver.received).toHaveLength(1)
    await kill9(first.run)

    const second = await launch(args)
    // Resumed at once: the attempt that was cut off counts as never made (at-least-once delivery).
    for (let i = 0; i < 200 && receiver.received.length < 2; i++) await new Promise((r) => setTimeout(r, 10))
    expect(receiver.received).toHaveLength(2)
    expect(receiver.received[1]!.headers['x-service-delivery']).toBe(
      receiver.received[0]!.headers['x-service-delivery'],
    )
    let delivery: { status: string; retries: number } | undefined
    for (let i = 0; i < 200; i++) {
      ;[delivery] = (await second.call('GET', '/api/v1/webhooks/wh_durable/deliveries')).body.data
      if (delivery?.status === 'success') break
      await new Promise((r) => setTimeout(r, 10))
    }
    expect(delivery).toMatchObject({ status: 'success', http_status: 204, retries: 0 })
    const tickets = await second.call('GET', '/api/v1/support/tickets')
    expect(tickets.body.data.map((t: { uuid: string }) => t.uuid)).toContain(created.body.data.ticket_id)
  })

  it('POST /__mock/reset goes back to the seed and is saved too', async () => {
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const seed = await writeSeed(receiver.url)
    const state = join(dir, 'state-c.db')
    const args = ['--port', '0', '--quiet', '--insecure-webhooks', '--seed', seed, '--state', state]
    const first = await launch(args)
    await first.call('POST', '/api/v1/support/tickets', ticket('gone after reset'))
    expect((await first.call('POST', '/__mock/reset', undefined, null)).status).toBe(200)
    await kill9(first.run)
    const second = await launch(args)
    expect((await second.call('GET', '/api/v1/support/tickets')).body.meta.total).toBe(0)
  })
})
