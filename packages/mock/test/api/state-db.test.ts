/**
 * The state database as the standalone mock uses it (in-process): every acknowledged change is
 * there after a restart, in its order; a second holder, a file of another kind, a damaged file and
 * a state the mock cannot run on are refused in one line and left untouched; symbolic links are
 * written through.
 */
import { copyFile, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type StandaloneOptions, startStandalone } from '../../src/server/host/standalone.js'
import { StateDatabase } from '../../src/server/state-file/database.js'
import { StateFileError } from '../../src/server/state-file/path.js'
import { createDb } from '../../src/state/db.js'
import type { StoreSnapshot } from '../../src/state/snapshot.js'
import { KEYS, pkg, testSeed } from '../helpers/mock.js'

let dir: string
const running: { close(): Promise<void> }[] = []
/** A copy of a running mock's database, `-wal` included: what a SIGKILL would leave. */
async function copyState(from: string, to: string) {
  await copyFile(from, to)
  await copyFile(`${from}-wal`, `${to}-wal`).catch(() => {})
}
/** Starts a mock on `path` expecting a refusal: the error. */
async function refusal(path: string, options: StandaloneOptions = {}) {
  const error = await start(path, options).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(StateFileError)
  expect((error as Error).message).not.toContain('\n')
  return (error as Error).message
}
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

describe('state database, in-process', () => {
  it('a restart gives back exactly the acknowledged state, rows in their order', async () => {
    const path = join(dir, 'replay.db')
    const first = await start(path)
    expect(first.standalone.state).toBe('created')
    await workload(first.call, 'a')
    const copy = join(dir, 'replay-copy.db')
    await copyState(path, copy)
    const second = await start(copy)
    expect(second.standalone.state).toBe('loaded')
    expect(tablesOf(second.standalone)).toEqual(tablesOf(first.standalone))
    await workload(second.call, 'b')
    const again = join(dir, 'replay-again.db')
    await copyState(copy, again)
    const third = await start(again)
    expect(tablesOf(third.standalone)).toEqual(tablesOf(second.standalone))
  })

  it('mock.db queries over a standalone mock’s restored rows', async () => {
    const path = join(dir, 'db-queries.db')
    const first = await start(path)
    await first.call('POST', '/api/v1/support/tickets', ticket('find me'))
    await first.standalone.close()
    // The standalone server's mock has no `mock.db` (createMockApi's, which loads @msw/data): the
    // same view over its store.
    const db = createDb((await start(path)).standalone.context.store.tables)
    expect(db.tickets.findMany((q) => q.where({ subject: 'find me' }))).toHaveLength(1)
    expect(db.tickets.count()).toBe(Array.from(db.tickets.findMany()).length)
  })

  it('an id drawn by a request that writes no row (webhook test) is saved: a restart never draws it again', async () => {
    const path = join(dir, 'draw.db')
    const first = await start(path, { insecureWebhooks: true })
    // Port 9 (discard): refused at once, no receiver needed.
    const hook = { url: 'http://127.0.0.1:9/none', secret: 'rs' }
    expect((await first.call('PUT', '/api/v1/reseller/webhook', hook)).status).toBe(200)
    expect((await first.call('POST', '/api/v1/reseller/webhook/test')).status).toBe(200)
    const copy = join(dir, 'draw-copy.db')
    await copyState(path, copy)
    const second = await start(copy)
    expect(tablesOf(second.standalone).counters).toEqual(tablesOf(first.standalone).counters)
  })

  it('a reset and a clock advance that changed no row are saved', async () => {
    const path = join(dir, 'reset.db')
    const first = await start(path)
    await first.call('POST', '/api/v1/support/tickets', ticket('gone'))
    expect((await first.call('POST', '/__mock/reset')).status).toBe(200)
    expect((await first.call('POST', '/__mock/clock/advance', { seconds: 3600 })).status).toBe(200)
    await first.standalone.close()
    const second = await start(path)
    expect(tablesOf(second.standalone)).toEqual(tablesOf(first.standalone))
    expect(second.standalone.context.clock.offsetMs).toBeGreaterThanOrEqual(3_600_000)
  })

  it('a second holder of the file is refused in one line naming this process', async () => {
    const path = join(dir, 'locked.db')
    await start(path)
    const message = await refusal(path)
    expect(message).toContain(`state file ${path}: is in use by process ${process.pid}`)
  })

  it('a symbolic link is written through: the target holds every change', async () => {
    const target = join(dir, 'target.db')
    const link = join(dir, 'link.db')
    const first = await start(target)
    await first.standalone.close()
    await symlink(target, link)
    const viaLink = await start(link)
    expect(viaLink.standalone.statePath).toBe(target)
    expect((await viaLink.call('POST', '/api/v1/support/tickets', ticket('through the link'))).status).toBe(
      201,
    )
    await viaLink.standalone.close()
    const direct = await start(target)
    expect(tablesOf(direct.standalone)).toEqual(tablesOf(viaLink.standalone))
    await direct.standalone.close()
    const dangling = join(dir, 'dangling.db')
    await symlink(join(dir, 'nowhere', 'x.db'), dangling)
    expect(await refusal(dangling)).toMatch(/is a symbolic link to a file that cannot be reached/)
  })

  it.each([
    ['not SQLite', 'hello, world\n', /is not an SQLite database/],
    [
      'a JSON state file of earlier releases',
      '{"format":"reseller-mock-state","version":2}\n1 2 {}\n',
      /JSON-lines format of earlier releases.*move it away/,
    ],
  ])('a file that is %s is refused and left untouched', async (_, content, pattern) => {
    const path = join(dir, `other-${Math.random().toString(36).slice(2)}.db`)
    await writeFile(path, content)
    expect(await refusal(path)).toMatch(pattern)
    expect(await readFile(path, 'utf8')).toBe(content)
  })

  it('an SQLite database of another application is refused and left untouched', async () => {
    const path = join(dir, 'foreign.db')
    const foreign = new DatabaseSync(path)
    foreign.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')")
    foreign.close()
    const before = await readFile(path)
    expect(await refusal(path)).toMatch(/an SQLite database of another application/)
    expect((await readFile(path)).equals(before)).toBe(true)
  })

  it('a damaged database (flipped bytes) is refused and left untouched', async () => {
    const path = join(dir, 'damaged.db')
    const first = await start(path)
    for (let i = 0; i < 30; i++) await first.call('POST', '/api/v1/support/tickets', ticket(`t${i}`))
    await first.standalone.close()
    const bytes = await readFile(path)
    // Garbage over the second page on: the schema page survives, the rows do not.
    for (let i = 4096 + 100; i < bytes.length; i += 7) bytes[i] = (bytes[i]! ^ 0x5a) & 0xff
    await writeFile(path, bytes)
    expect(await refusal(path)).toMatch(/integrity check|damaged|does not hold a valid mock state/)
    expect((await readFile(path)).equals(bytes)).toBe(true)
  })

  it.each([
    [
      'a row its schema refuses',
      `UPDATE rows SET json = json_set(json, '$.status', 'lost') WHERE tbl = 'tickets'`,
      /tables\.tickets\[0\] is not a valid row/,
    ],
    [
      'a row that is not JSON',
      `UPDATE rows SET json = '{' WHERE tbl = 'tickets'`,
      /tickets at rowid \d+ is not JSON/,
    ],
    [
      'a counter that is no whole number',
      `UPDATE meta SET value = '{"ticket":-3}' WHERE name = 'counters'`,
      /counters\.ticket must be a whole number/,
    ],
    [
      'a time past year 9999',
      `UPDATE meta SET value = '1e18' WHERE name = 'last_micros'`,
      /last_micros is outside the years 1970-9999/,
    ],
    [
      'a clock past year 9999',
      `UPDATE meta SET value = '8.64e15' WHERE name = 'clock_offset_ms'`,
      /clock_offset_ms puts the clock outside/,
    ],
    ['rows of an unknown table', `INSERT INTO rows VALUES ('ghosts', '1', '{}')`, /unknown table "ghosts"/],
  ])('a state with %s is refused in one line and left untouched', async (_, sql, pattern) => {
    const path = join(dir, `invalid-${Math.random().toString(36).slice(2)}.db`)
    const first = await start(path)
    await first.call('POST', '/api/v1/support/tickets', ticket('valid'))
    await first.standalone.close()
    const db = new DatabaseSync(path)
    db.exec(sql)
    db.close()
    const before = await readFile(path)
    expect(await refusal(path)).toMatch(pattern)
    expect((await readFile(path)).equals(before)).toBe(true)
  })

  /** Whether `path`'s rows count as the mock's own (the start then skips each row's schema). */
  const rowsWritten = (path: string) => {
    const db = StateDatabase.open(path, 'state')
    try {
      return db.read().rows.written
    } finally {
      db.close()
    }
  }
  const metaOf = (path: string, name: string) => {
    const db = new DatabaseSync(path)
    try {
      return db.prepare('SELECT value FROM meta WHERE name = ?').get(name)?.value
    } finally {
      db.close()
    }
  }

  it('rows changed by another program are checked by their schemas at the next start, then trusted again', async () => {
    const path = join(dir, 'edited.db')
    const first = await start(path)
    await first.call('POST', '/api/v1/support/tickets', ticket('as written'))
    await first.standalone.close()
    expect(rowsWritten(path)).toBe(true)
    const edit = new DatabaseSync(path)
    edit.exec(`UPDATE rows SET json = json_set(json, '$.subject', 'edited by hand') WHERE tbl = 'tickets'`)
    edit.close()
    expect(metaOf(path, 'rows_valid')).toBe('0')
    expect(rowsWritten(path)).toBe(false)
    const second = await start(path)
    const subjects = Array.from(second.standalone.context.store.tickets.all(), (t) => t.subject)
    expect(subjects).toContain('edited by hand')
    await second.standalone.close()
    // Every row passed its schema at that start: the next one trusts them again.
    expect(rowsWritten(path)).toBe(true)
  })

  it('a trusted file reads each table on first use: a broken row there fails that use (500), not the start, and is kept', async () => {
    const path = join(dir, 'rotten.db')
    const first = await start(path)
    await first.call('POST', '/api/v1/support/tickets', ticket('will rot'))
    await first.standalone.close()
    // What bit rot would leave: a row that is no JSON, with the mark still saying the mock wrote it.
    const edit = new DatabaseSync(path)
    edit.exec(`UPDATE rows SET json = '{' WHERE tbl = 'tickets'`)
    edit.exec(`UPDATE meta SET value = '1' WHERE name = 'rows_valid'`)
    edit.close()
    expect(rowsWritten(path)).toBe(true)
    const second = await start(path)
    expect(second.standalone.state).toBe('loaded')
    expect((await second.call('GET', '/api/v1/support/tickets')).status).toBe(500)
    expect((await second.call('GET', '/api/v1/support/tickets')).status).toBe(500)
    await second.standalone.close()
    const after = new DatabaseSync(path)
    const rows = after.prepare("SELECT json FROM rows WHERE tbl = 'tickets'").all()
    after.close()
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.every((r) => r.json === '{')).toBe(true)
  })

  it('a file whose triggers were dropped is checked row by row: a row its schema refuses is refused', async () => {
    const path = join(dir, 'no-triggers.db')
    const first = await start(path)
    await first.call('POST', '/api/v1/support/tickets', ticket('valid'))
    await first.standalone.close()
    const edit = new DatabaseSync(path)
    for (const { name } of edit.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger'").all())
      edit.exec(`DROP TRIGGER ${String(name)}`)
    edit.exec(`UPDATE rows SET json = json_set(json, '$.priority', 'whenever') WHERE tbl = 'tickets'`)
    edit.close()
    expect(metaOf(path, 'rows_valid')).toBe('1')
    expect(rowsWritten(path)).toBe(false)
    const before = await readFile(path)
    expect(await refusal(path)).toMatch(/tables\.tickets\[0\] is not a valid row/)
    expect((await readFile(path)).equals(before)).toBe(true)
  })

  it('the recorded seed given again with its keys in another order is the same seed; another is refused', async () => {
    const path = join(dir, 'seed-order.db')
    const first = await start(path)
    await first.call('POST', '/api/v1/support/tickets', ticket('kept'))
    await first.standalone.close()
    const reordered = Object.fromEntries(Object.entries(testSeed()).reverse())
    expect(Object.keys(reordered)).not.toEqual(Object.keys(testSeed()))
    const second = await start(path, { seed: reordered as ReturnType<typeof testSeed> })
    expect(second.standalone.seedFrom).toBe('option')
    expect(tablesOf(second.standalone)).toEqual(tablesOf(first.standalone))
    await second.standalone.close()
    const other = { ...testSeed(), domain_price: 99 }
    expect(await refusal(path, { seed: other })).toMatch(/was created from another seed/)
  })

  it('the recorded seed is the last name of meta: a write never searches past it', async () => {
    const path = join(dir, 'meta-order.db')
    const first = await start(path)
    await first.call('POST', '/api/v1/support/tickets', ticket('any'))
    await first.call('POST', '/__mock/clock/advance', { seconds: 60 })
    await first.standalone.close()
    const db = new DatabaseSync(path)
    const names = db
      .prepare('SELECT name FROM meta ORDER BY name')
      .all()
      .map((r) => r.name)
    db.close()
    expect(names).toContain('rows_valid')
    expect(names.at(-1)).toBe('seed')
  })

  it('a file that recorded no digest of its seed compares the seed text itself', async () => {
    const path = join(dir, 'no-digest.db')
    const first = await start(path)
    await first.call('POST', '/api/v1/support/tickets', ticket('kept'))
    await first.standalone.close()
    expect(metaOf(path, 'recorded_seed_sha256')).toMatch(/^[0-9a-f]{64}$/)
    const edit = new DatabaseSync(path)
    edit.exec(`DELETE FROM meta WHERE name = 'recorded_seed_sha256'`)
    edit.close()
    const same = await start(path)
    expect(same.standalone.seedFrom).toBe('option')
    await same.standalone.close()
    expect(await refusal(path, { seed: { ...testSeed(), domain_price: 99 } })).toMatch(
      /was created from another seed/,
    )
  })

  it('an empty file becomes a new state file', async () => {
    const path = join(dir, 'empty.db')
    await writeFile(path, '')
    const first = await start(path)
    expect(first.standalone.state).toBe('created')
    await first.call('POST', '/api/v1/support/tickets', ticket('kept'))
    await first.standalone.close()
    expect((await start(path)).standalone.state).toBe('loaded')
  })
})
