/**
 * The state file as the standalone mock uses it (in-process): every acknowledged change replays to
 * the same state after a restart, concurrent writes share fsyncs, compaction loses nothing, a torn
 * last record is dropped with a warning, a damaged middle record is refused, version 1 files migrate.
 */
import { copyFile, mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { assembleMock } from '../../src/mock-api.js'
import { type StandaloneOptions, startStandalone } from '../../src/server/standalone.js'
import { StateFileError } from '../../src/server/state-file.js'
import type { StoreSnapshot } from '../../src/state/store.js'
import { KEYS, pkg, testSeed } from '../helpers/mock.js'

let dir: string
const running: { close(): Promise<void> }[] = []
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-log-'))
})
afterEach(async () => {
  for (const s of running.splice(0)) await s.close()
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function start(statePath: string, options: StandaloneOptions = {}) {
  const warnings: string[] = []
  const standalone = await startStandalone({
    seed: testSeed(),
    port: 0,
    statePath,
    warn: (line) => warnings.push(line),
    ...options,
  })
  running.push(standalone)
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${standalone.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEYS.a}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } }
  }
  return { standalone, call, warnings }
}

/** Everything the store holds, rows in their order: what a restart must give back. */
const tablesOf = (s: { context: { store: { snapshot(): StoreSnapshot } } }) => {
  const snapshot = s.context.store.snapshot()
  return { tables: snapshot.tables, counters: snapshot.counters }
}

const ticket = (subject: string) => ({ subject, message: 'Logged?', department: 'technical' })

/** A mix of inserts, updates and deletes, some of them concurrent. */
async function workload(call: Awaited<ReturnType<typeof start>>['call'], tag: string) {
  const created = await call('POST', '/api/v1/support/tickets', ticket(`${tag} first`))
  expect(created.status).toBe(201)
  const uuid = created.body.data.ticket_id as string
  expect((await call('POST', `/api/v1/support/tickets/${uuid}/messages`, { message: 'more' })).status).toBe(
    201,
  )
  expect((await call('PATCH', `/api/v1/support/tickets/${uuid}/close`)).status).toBe(200)
  expect((await call('POST', '/api/v1/reseller/whm/packages', pkg(`${tag}-gold`))).status).toBe(201)
  expect((await call('POST', '/api/v1/reseller/whm/packages', pkg(`${tag}-tin`))).status).toBe(201)
  expect((await call('DELETE', `/api/v1/reseller/whm/packages/${tag}-gold`)).status).toBe(200)
  const parallel = await Promise.all(
    Array.from({ length: 20 }, (_, i) => call('POST', '/api/v1/support/tickets', ticket(`${tag} ${i}`))),
  )
  for (const answer of parallel) expect(answer.status).toBe(201)
  // A failing request (duplicate package) changes nothing, in memory or on disk.
  expect((await call('POST', '/api/v1/reseller/whm/packages', pkg(`${tag}-tin`))).status).toBe(422)
}

describe('state file log, in-process', () => {
  it('a restart from the file gives back exactly the acknowledged state; concurrent writes share fsyncs', async () => {
    const path = join(dir, 'replay.json')
    const first = await start(path)
    await workload(first.call, 'a')
    const stats = first.standalone.stateStats!
    // 26 acknowledged changes, 20 of them concurrent: far fewer fsyncs than changes.
    expect(stats.records).toBeGreaterThanOrEqual(26)
    expect(stats.syncs).toBeLessThan(stats.records)
    expect(stats.rewrites).toBe(1)
    // A copy taken while it runs is what a SIGKILL would leave.
    const copy = join(dir, 'replay-copy.json')
    await copyFile(path, copy)
    const second = await start(copy)
    expect(second.standalone.state).toBe('loaded')
    expect(tablesOf(second.standalone)).toEqual(tablesOf(first.standalone))
    // Loading a version 2 file rewrites nothing; the next write appends.
    expect(second.standalone.stateStats!.rewrites).toBe(0)
    await workload(second.call, 'b')
    const third = await start(copy)
    expect(tablesOf(third.standalone)).toEqual(tablesOf(second.standalone))
  })

  it('an id drawn by a request that writes no row (webhook test) is saved: a restart never draws it again', async () => {
    const path = join(dir, 'draw.json')
    const first = await start(path, { insecureWebhooks: true })
    // Port 9 (discard): refused at once, no receiver needed.
    const hook = { url: 'http://127.0.0.1:9/none', secret: 'rs' }
    expect((await first.call('PUT', '/api/v1/reseller/webhook', hook)).status).toBe(200)
    expect((await first.call('POST', '/api/v1/reseller/webhook/test')).status).toBe(200)
    // A copy taken once the answer is out is what a SIGKILL would leave.
    const copy = join(dir, 'draw-copy.json')
    await copyFile(path, copy)
    const second = await start(copy)
    expect(tablesOf(second.standalone).counters).toEqual(tablesOf(first.standalone).counters)
  })

  it('compaction: the log folds into a new snapshot, nothing is lost', async () => {
    const path = join(dir, 'compact.json')
    const first = await start(path, { compaction: { ratio: 0.2, minBytes: 0 } })
    for (let i = 0; i < 4; i++) await workload(first.call, `c${i}`)
    await first.standalone.close()
    expect(first.standalone.stateStats!.compactions).toBeGreaterThan(0)
    const second = await start(path)
    expect(tablesOf(second.standalone)).toEqual(tablesOf(first.standalone))
  })

  it('a log cut in the middle of its last record loads the state before it, warns once, and cuts the file', async () => {
    const path = join(dir, 'torn.json')
    const first = await start(path)
    await first.call('POST', '/api/v1/support/tickets', ticket('kept'))
    const before = tablesOf(first.standalone)
    const goodSize = (await stat(path)).size
    await first.call('POST', '/api/v1/support/tickets', ticket('torn'))
    await first.standalone.close()
    const fullSize = (await stat(path)).size
    // The kill hit in the middle of the last record's write.
    await truncate(path, goodSize + Math.floor((fullSize - goodSize) / 2))
    const second = await start(path)
    expect(second.warnings).toEqual([
      expect.stringMatching(/torn\.json: its last record is cut short .*dropped it/),
    ])
    expect(tablesOf(second.standalone)).toEqual(before)
    expect((await stat(path)).size).toBe(goodSize)
    // Appends after the cut are clean: the next start loads them without a warning.
    await second.call('POST', '/api/v1/support/tickets', ticket('after'))
    await second.standalone.close()
    const third = await start(path)
    expect(third.warnings).toEqual([])
    expect(tablesOf(third.standalone)).toEqual(tablesOf(second.standalone))
  })

  it('a damaged record before the end is refused, and the file left untouched', async () => {
    const path = join(dir, 'corrupt.json')
    const first = await start(path)
    await first.call('POST', '/api/v1/support/tickets', ticket('one'))
    await first.call('POST', '/api/v1/support/tickets', ticket('two'))
    await first.standalone.close()
    const text = await readFile(path, 'utf8')
    const damaged = text.replace('"subject":"one"', '"subject":"eno"')
    expect(damaged).not.toBe(text)
    await writeFile(path, damaged)
    const error = await start(path).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StateFileError)
    expect((error as Error).message).toMatch(/damaged \(checksum mismatch\) and is not the last one/)
    expect(await readFile(path, 'utf8')).toBe(damaged)
  })

  it('a version 1 file (one JSON document) loads and is migrated to version 2 on the first write', async () => {
    const path = join(dir, 'v1.json')
    // Today's format, as a previous release wrote it.
    const { mock: old, context: oldContext } = assembleMock({ seed: testSeed() })
    const made = await old.fetch('https://api.reseller.test/api/v1/support/tickets', {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.a}`, 'content-type': 'application/json' },
      body: JSON.stringify(ticket('from v1')),
    })
    expect(made.status).toBe(201)
    const state = oldContext.store.snapshot()
    await writeFile(
      path,
      `${JSON.stringify({ format: 'reseller-mock-state', version: 1, saved_at: 'x', state })}\n`,
    )
    const first = await start(path)
    expect(first.standalone.state).toBe('loaded')
    expect(tablesOf(first.standalone).tables).toEqual(state.tables)
    const head = JSON.parse((await readFile(path, 'utf8')).split('\n')[0]!)
    expect(head).toMatchObject({ format: 'reseller-mock-state', version: 2 })
    expect(head.seed).toEqual(JSON.parse(JSON.stringify(testSeed())))
    await first.call('POST', '/api/v1/support/tickets', ticket('after migration'))
    await first.standalone.close()
    const second = await start(path)
    expect(tablesOf(second.standalone)).toEqual(tablesOf(first.standalone))
  })
})
