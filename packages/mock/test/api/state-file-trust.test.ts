/**
 * What a standalone start does with the file `--state` names, before it writes a byte: an empty
 * file is a new state file, seeded; damage that only SQLite's full integrity check sees is refused;
 * another application's database, its `-wal` and `-shm` are never changed, nor is a refused file of
 * the mock's own (docs/running-the-mock.md, "State file").
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type StandaloneOptions, startStandalone } from '../../src/server/host/standalone.js'
import { StateFileError } from '../../src/server/state-file/path.js'
import { freshPaths } from '../helpers/fresh-path.js'
import { KEYS, testSeed } from '../helpers/mock.js'

let dir: string
const running: { close(): Promise<void> }[] = []
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-trust-'))
})
afterEach(async () => {
  for (const s of running.splice(0)) await s.close()
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const freshPath = freshPaths(() => dir)

async function start(statePath: string, options: StandaloneOptions = {}) {
  const standalone = await startStandalone({ port: 0, statePath, warn: () => {}, ...options })
  running.push(standalone)
  return standalone
}

async function refusal(statePath: string, options: StandaloneOptions = {}) {
  const error = await start(statePath, options).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(StateFileError)
  expect((error as Error).message).not.toContain('\n')
  return (error as Error).message
}

/** SHA-256 of every file in the folder of `path`, by name: what must not change. */
async function fingerprint(path: string) {
  const folder = join(path, '..')
  const names = (await readdir(folder)).sort()
  const sums: Record<string, string> = {}
  for (const name of names)
    sums[name] = createHash('sha256')
      .update(await readFile(join(folder, name)))
      .digest('hex')
  return sums
}

async function status(url: string, key: string) {
  const res = await fetch(`${url}/api/v1/support/tickets`, { headers: { authorization: `Bearer ${key}` } })
  await res.body?.cancel()
  return res.status
}

describe('an empty or blank file is a new state file, seeded', () => {
  it.each([
    ['a 0-byte file (touch, mktemp)', async (path: string) => writeFile(path, '', { mode: 0o600 })],
    [
      'an SQLite database with no table',
      async (path: string) => {
        const db = new DatabaseSync(path)
        db.exec('PRAGMA user_version = 0')
        db.close()
      },
    ],
  ])('%s: the demo seed serves, and a restart loads it', async (_, make) => {
    const path = await freshPath('state.db')
    await make(path)
    const first = await start(path)
    expect(first.state).toBe('created')
    expect(first.seedFrom).toBe('demo')
    expect(await status(first.url, 'svc_live_acme_full')).toBe(200)
    expect(await status(first.url, 'svc_test_acme_sandbox')).toBe(200)
    await first.close()
    const second = await start(path)
    expect(second.state).toBe('loaded')
    expect(await status(second.url, 'svc_live_acme_full')).toBe(200)
  })

  it('with a seed: that seed serves', async () => {
    const path = await freshPath('state.db')
    await writeFile(path, '')
    const first = await start(path, { seed: testSeed() })
    expect(first.state).toBe('created')
    expect(await status(first.url, KEYS.a)).toBe(200)
  })
})

/** A state file of the mock with 30 tickets, closed cleanly. */
async function stateWithTickets(path: string) {
  const first = await start(path, { seed: testSeed() })
  for (let i = 0; i < 30; i++) {
    const res = await fetch(`${first.url}/api/v1/support/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.a}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: `Ticket ${i}`, message: 'Hello', department: 'technical' }),
    })
    expect(res.status).toBe(201)
  }
  await first.close()
}

/**
 * Changes one letter of a `tickets` table name inside a leaf page of `btree` (found with `dbstat`):
 * the page stays well formed, so `quick_check` passes, but an index and its table now disagree.
 */
async function renameInPage(path: string, btree: string) {
  const db = new DatabaseSync(path, { readOnly: true })
  const pageSize = Number(db.prepare('PRAGMA page_size').get()?.page_size)
  const pages = db
    .prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno")
    .all(btree)
    .map((row) => Number(row.pageno))
  db.close()
  const bytes = await readFile(path)
  const page = pages[Math.floor(pages.length / 2)]!
  const at = bytes.indexOf('tickets', (page - 1) * pageSize)
  expect(at).toBeGreaterThan(0)
  expect(at).toBeLessThan(page * pageSize)
  bytes[at + 4] = 'x'.charCodeAt(0)
  await writeFile(path, bytes)
  const check = new DatabaseSync(path, { readOnly: true })
  const quick = check.prepare('PRAGMA quick_check').get()?.quick_check
  check.close()
  // The damage this test is about: invisible to the quick check.
  expect(quick).toBe('ok')
}

describe('damage only the full integrity check sees', () => {
  it.each([
    ['a row of the rows table', 'rows'],
    ['an entry of the index on tbl', 'rows_by_table'],
    ['an entry of the unique (tbl, key) index', 'sqlite_autoindex_rows_1'],
  ])('%s renamed: refused at start in one line, the file left byte for byte', async (_, btree) => {
    const path = await freshPath('state.db')
    await stateWithTickets(path)
    await renameInPage(path, btree)
    const before = await fingerprint(path)
    expect(await refusal(path, { seed: testSeed() })).toMatch(
      /state file .*: fails SQLite's integrity check \(row \d+ missing from index (rows_by_table|sqlite_autoindex_rows_1)/,
    )
    expect(await fingerprint(path)).toEqual(before)
  })
})

/** A child process that writes `path` in WAL mode (the default of many applications) and is killed. */
function killedWriter(path: string, applicationId = 0) {
  const script = `
    const { DatabaseSync } = require('node:sqlite')
    const db = new DatabaseSync(${JSON.stringify(path)})
    db.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; PRAGMA application_id = ${applicationId}')
    db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine'), ('yours')")
    process.kill(process.pid, 'SIGKILL')`
  const run = spawnSync(process.execPath, ['--no-warnings', '-e', script])
  expect(run.signal).toBe('SIGKILL')
}

describe("another application's database: refused, it and its -wal and -shm unchanged", () => {
  it('killed with its tables only in its -wal (the header names no application)', async () => {
    const path = await freshPath('other.db')
    killedWriter(path)
    const before = await fingerprint(path)
    expect(Object.keys(before).sort()).toEqual(['other.db', 'other.db-shm', 'other.db-wal'])
    expect(await refusal(path)).toMatch(/is an SQLite database of another application/)
    expect(await fingerprint(path)).toEqual(before)
  })

  it('killed, with an application id of its own', async () => {
    const path = await freshPath('other.db')
    killedWriter(path, 42)
    const before = await fingerprint(path)
    expect(await refusal(path)).toMatch(/is an SQLite database of another application/)
    expect(await fingerprint(path)).toEqual(before)
  })

  it('open in WAL mode by a live connection', async () => {
    const path = await freshPath('live.db')
    const live = new DatabaseSync(path)
    try {
      live.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0')
      live.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')")
      const before = await fingerprint(path)
      expect(Object.keys(before).sort()).toEqual(['live.db', 'live.db-shm', 'live.db-wal'])
      expect(await refusal(path)).toMatch(/is an SQLite database of another application/)
      expect(await fingerprint(path)).toEqual(before)
      expect(live.prepare('SELECT count(*) AS n FROM notes').get()?.n).toBe(1)
    } finally {
      live.close()
    }
  })
})

describe("the mock's own file, refused after a kill: its -wal is not folded in", () => {
  it('another seed given: refused, the database and its -wal unchanged, no -shm or -lock left', async () => {
    const path = await freshPath('state.db')
    const running = await start(path, { seed: testSeed() })
    // What a SIGKILL leaves: the database and its -wal as they are while it runs.
    const killed = await freshPath('state.db')
    await copyFile(path, killed)
    await copyFile(`${path}-wal`, `${killed}-wal`)
    await running.close()
    const before = await fingerprint(killed)
    expect(Object.keys(before).sort()).toEqual(['state.db', 'state.db-wal'])
    expect(await refusal(killed, { seed: { ...testSeed(), domain_price: 99 } })).toMatch(
      /was created from another seed/,
    )
    expect(await fingerprint(killed)).toEqual(before)
    // The file itself is sound: started with its own seed, it is loaded.
    expect((await start(killed, { seed: testSeed() })).state).toBe('loaded')
  })
})
