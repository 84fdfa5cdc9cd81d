/**
 * Namespaces with `--state FILE` (docs/running-the-mock.md, "Namespaces"), against the built CLI: a
 * SIGKILL while writers run in several namespaces loses no acknowledged change of any of them; a
 * restart serves every namespace that had not expired (its expiry at most a ttl after the restart),
 * its clock and its pending webhook retries included; a deleted or expired namespace leaves no row.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, type CliRun, startCli } from '../helpers/cli.js'
import { startReceiver } from '../helpers/webhooks.js'

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
type Json = any

const KEY = 'svc_live_acme_full'
let dir: string
const running: CliRun[] = []

beforeAll(async () => {
  assertBuilt()
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-ns-state-'))
})
afterAll(async () => {
  for (const run of running) if (run.child.exitCode === null) run.child.kill('SIGKILL')
  await rm(dir, { recursive: true, force: true })
})

async function start(state: string) {
  const run = await startCli(['--port', '0', '--quiet', '--insecure-webhooks', '--state', state])
  running.push(run)
  const call = async (method: string, path: string, body?: unknown, key?: string) => {
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' }
    if (key) headers.authorization = `Bearer ${key}`
    const response = await fetch(`${run.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as Json }
  }
  return { run, call }
}

async function kill9(run: CliRun) {
  run.child.kill('SIGKILL')
  expect((await run.exited).signal).toBe('SIGKILL')
}

/** The file's rows of namespace `id`, and whether it has its record (read with SQLite itself). */
function rowsOf(state: string, id: string): { rows: number; records: number } {
  const db = new DatabaseSync(state, { readOnly: true })
  try {
    const rows = db.prepare('SELECT count(*) AS n FROM namespace_rows WHERE ns = ?').get(id)?.n
    const records = db.prepare('SELECT count(*) AS n FROM namespaces WHERE id = ?').get(id)?.n
    return { rows: Number(rows), records: Number(records) }
  } finally {
    db.close()
  }
}

const ticket = (subject: string) => ({ subject, message: 'Durable?', department: 'technical' })

describe('namespaces with --state', { timeout: 120_000 }, () => {
  it('lose no acknowledged change of any namespace to a SIGKILL under writers in several of them', async () => {
    const state = join(dir, 'writers.db')
    const first = await start(state)
    const ids = ['w0', 'w1', 'w2']
    for (const id of ids) {
      expect((await first.call('POST', '/__mock/namespaces', { id, label: `writer ${id}` })).status).toBe(201)
    }
    expect((await first.call('POST', '/__mock/namespaces', { id: 'dropped' })).status).toBe(201)
    await first.call('POST', '/ns/dropped/api/v1/support/tickets', ticket('gone with it'), KEY)
    expect((await first.call('DELETE', '/__mock/namespaces/dropped')).status).toBe(200)
    await first.call('POST', '/ns/w1/__mock/clock/advance', { seconds: 600 })

    // Writers in every namespace and at the root, each keeping what was acknowledged; the kill
    // comes while they run.
    const acknowledged = new Map<string, string[]>([...ids, ''].map((id) => [id, []]))
    let stop = false
    const writer = async (id: string) => {
      const prefix = id === '' ? '' : `/ns/${id}`
      for (let i = 0; !stop; i++) {
        try {
          const made = await first.call('POST', `${prefix}/api/v1/support/tickets`, ticket(`${id} ${i}`), KEY)
          if (made.status === 201) acknowledged.get(id)!.push(made.body.data.ticket_id)
        } catch {
          return // the connection went with the process
        }
      }
    }
    const writers = [...acknowledged.keys()].map(writer)
    while ([...acknowledged.values()].some((list) => list.length < 8))
      await new Promise((r) => setTimeout(r, 10))
    await kill9(first.run)
    stop = true
    await Promise.all(writers)

    // The file is locked while a server holds it: read between the two.
    expect(rowsOf(state, 'dropped')).toEqual({ rows: 0, records: 0 })
    expect(rowsOf(state, 'w2').rows).toBeGreaterThan(0)

    const second = await start(state)
    const list = (await second.call('GET', '/__mock/namespaces')).body.data
    expect(list.map((n: Json) => [n.id, n.label])).toEqual(ids.map((id) => [id, `writer ${id}`]))
    for (const [id, uuids] of acknowledged) {
      const prefix = id === '' ? '' : `/ns/${id}`
      for (const uuid of uuids) {
        const read = await second.call('GET', `${prefix}/api/v1/support/tickets/${uuid}`, undefined, KEY)
        expect(read.status, `${id || 'root'} ${uuid}`).toBe(200)
        expect(read.body.data.subject.startsWith(`${id} `)).toBe(true)
      }
    }
    // Each namespace's clock, as it was.
    expect((await second.call('GET', '/ns/w1/__mock/clock')).body.data.offset_ms).toBe(600_000)
    expect((await second.call('GET', '/ns/w0/__mock/clock')).body.data.offset_ms).toBe(0)
    expect((await second.call('GET', '/ns/dropped/__mock/clock')).body.error.code).toBe('namespace_not_found')
    // Deleting one removes its rows (acknowledged: a kill right after keeps them away); the others keep theirs.
    expect((await second.call('DELETE', '/__mock/namespaces/w2')).status).toBe(200)
    await kill9(second.run)
    expect(rowsOf(state, 'w2')).toEqual({ rows: 0, records: 0 })
    expect(rowsOf(state, 'w1').rows).toBeGreaterThan(0)
  })

  it("stop on SIGTERM without waiting for a namespace's open event stream, its last change kept", async () => {
    const state = join(dir, 'sigterm.db')
    const first = await start(state)
    await first.call('POST', '/__mock/namespaces', { id: 'watched' })
    const stream = await fetch(`${first.run.url}/ns/watched/__mock/stream`)
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/)
    await first.call('POST', '/ns/watched/__mock/clock/advance', { seconds: 42 })
    const asked = Date.now()
    first.run.child.kill('SIGTERM')
    expect((await first.run.exited).code).toBe(0)
    // Well before the 3 s grace that cuts connections still open.
    expect(Date.now() - asked).toBeLessThan(2500)
    await stream.body?.cancel().catch(() => undefined)
    const second = await start(state)
    expect((await second.call('GET', '/ns/watched/__mock/clock')).body.data.offset_ms).toBe(42_000)
    await kill9(second.run)
  })

  it("keep a namespace's pending webhook retry through a SIGKILL, due on its own clock", async () => {
    const receiver = await startReceiver((n) => (n === 1 ? 500 : 200))
    try {
      const state = join(dir, 'retries.db')
      const first = await start(state)
      await first.call('POST', '/__mock/namespaces', { id: 'hooks' })
      await first.call(
        'PUT',
        '/ns/hooks/api/v1/reseller/webhook',
        { url: receiver.url, secret: 's3cret' },
        KEY,
      )
      await first.call('POST', '/ns/hooks/__mock/events', { reseller_id: 1, event: 'wallet.credited' })
      await first.call('POST', '/ns/hooks/__mock/clock/advance', { seconds: 0 })
      expect(receiver.received).toHaveLength(1)
      const [failed] = (await first.call('GET', '/ns/hooks/__mock/deliveries')).body.data
      expect(failed).toMatchObject({ status: 'failed', attempts: 1 })
      await kill9(first.run)

      const second = await start(state)
      await second.call('POST', '/ns/hooks/__mock/clock/advance', { seconds: 60 })
      expect(receiver.received).toHaveLength(2)
      const [retried] = (await second.call('GET', '/ns/hooks/__mock/deliveries')).body.data
      expect(retried).toMatchObject({ delivery_id: failed.delivery_id, status: 'success', attempts: 2 })
      await kill9(second.run)
    } finally {
      await receiver.close()
    }
  })

  it('serve after a restart the namespaces that had not expired, renewed by at most a ttl; an expired one leaves no row', async () => {
    const state = join(dir, 'expiry.db')
    const first = await start(state)
    await first.call('POST', '/__mock/namespaces', { id: 'alive', ttl_seconds: 600 })
    await first.call('POST', '/__mock/namespaces', { id: 'stale', ttl_seconds: 600 })
    await first.call('POST', '/ns/stale/api/v1/support/tickets', ticket('stale'), KEY)
    await kill9(first.run)
    // While the server is down, `stale`'s expiry passes (as if the restart came 20 minutes later).
    const db = new DatabaseSync(state)
    db.prepare("UPDATE namespaces SET expires_at = ? WHERE id = 'stale'").run(Date.now() - 1000)
    db.close()

    const restartedAt = Date.now()
    const second = await start(state)
    const list = (await second.call('GET', '/__mock/namespaces')).body.data
    expect(list.map((n: Json) => n.id)).toEqual(['alive'])
    expect(Date.parse(list[0].expires_at)).toBeLessThanOrEqual(Date.now() + 600_000)
    expect(Date.parse(list[0].expires_at)).toBeGreaterThanOrEqual(restartedAt)
    expect((await second.call('GET', '/ns/stale/__mock/state')).body.error.code).toBe('namespace_not_found')
    await kill9(second.run)
    expect(rowsOf(state, 'stale')).toEqual({ rows: 0, records: 0 })
    expect(rowsOf(state, 'alive').rows).toBeGreaterThan(0)
  })
})
