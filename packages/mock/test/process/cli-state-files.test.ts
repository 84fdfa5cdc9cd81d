/**
 * The files `--state` is given, through the CLI as a user meets them: an empty file (`mktemp`) is a
 * new state file, seeded; a state file whose index disagrees with its table and another
 * application's database are refused, exit 1, in one line, every byte of them (and of their `-wal`
 * and `-shm`) left as it was.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, type CliRun, runCli, startCli, waitForLine } from '../helpers/cli.js'
import { freshPaths } from '../helpers/fresh-path.js'

let dir: string
const children: CliRun[] = []
beforeAll(async () => {
  assertBuilt()
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-state-files-'))
})
afterEach(() => {
  for (const c of children.splice(0)) if (c.child.exitCode === null) c.child.kill('SIGKILL')
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const freshPath = freshPaths(() => dir)

async function started(args: string[]) {
  const run = await startCli(['--port', '0', ...args])
  children.push(run)
  return run
}

async function stop(run: CliRun) {
  run.child.kill('SIGTERM')
  expect(await run.exited).toEqual({ code: 0, signal: null })
}

async function ticketsStatus(url: string) {
  const res = await fetch(`${url}/api/v1/support/tickets`, {
    headers: { authorization: 'Bearer svc_live_acme_full' },
  })
  await res.body?.cancel()
  return res.status
}

/** SHA-256 of every file in the folder of `path`, by name. */
async function fingerprint(path: string) {
  const folder = join(path, '..')
  const sums: Record<string, string> = {}
  for (const name of (await readdir(folder)).sort())
    sums[name] = createHash('sha256')
      .update(await readFile(join(folder, name)))
      .digest('hex')
  return sums
}

/** Runs the CLI on `path` expecting a refusal: exit 1, one line on stderr, every file unchanged. */
async function refused(path: string) {
  const before = await fingerprint(path)
  const { code, stdout, stderr } = await runCli(['--port', '0', '--state', path])
  expect(code).toBe(1)
  expect(stdout).toBe('')
  const lines = stderr.trimEnd().split('\n')
  expect(lines).toHaveLength(1)
  expect(await fingerprint(path)).toEqual(before)
  return lines[0]!
}

describe('--state FILE: the file as found', { timeout: 60_000 }, () => {
  it('an empty file (what mktemp makes) becomes a state file of the demo seed, kept across a restart', async () => {
    const path = await freshPath('tmp.XXXXXXXXXX')
    await writeFile(path, '', { mode: 0o600 })
    const first = await started(['--state', path])
    await waitForLine(first, new RegExp(`state +${path} \\(new\\)`))
    await waitForLine(first, /seed +built-in demo seed/)
    expect(await ticketsStatus(first.url)).toBe(200)
    await stop(first)
    expect(existsSync(`${path}-lock`)).toBe(false)
    const second = await started(['--state', path])
    await waitForLine(second, new RegExp(`state +${path} \\(loaded\\)`))
    expect(await ticketsStatus(second.url)).toBe(200)
    await stop(second)
  })

  it("a row its index misses (invisible to SQLite's quick check) is refused, the file untouched", async () => {
    const path = await freshPath('state.db')
    const first = await started(['--state', path])
    await stop(first)
    // One letter of a table name inside a page of the index on `tbl`, found with dbstat.
    const db = new DatabaseSync(path, { readOnly: true })
    const pageSize = Number(db.prepare('PRAGMA page_size').get()?.page_size)
    const page = Number(
      db.prepare("SELECT pageno FROM dbstat WHERE name = 'rows_by_table' AND pagetype = 'leaf'").get()
        ?.pageno,
    )
    db.close()
    const bytes = await readFile(path)
    const at = bytes.indexOf('tickets', (page - 1) * pageSize)
    expect(at).toBeLessThan(page * pageSize)
    bytes[at + 4] = 'x'.charCodeAt(0)
    await writeFile(path, bytes)
    expect(await refused(path)).toMatch(
      /^reseller-mock: state file .*: fails SQLite's integrity check \(row \d+ missing from index rows_by_table\); the file was left untouched$/,
    )
  })

  it("another application's database, killed with its changes in its -wal, is refused; it, its -wal and -shm unchanged", async () => {
    const path = await freshPath('app.db')
    const script = `
      const { DatabaseSync } = require('node:sqlite')
      const db = new DatabaseSync(${JSON.stringify(path)})
      db.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0')
      db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')")
      process.kill(process.pid, 'SIGKILL')`
    expect(spawnSync(process.execPath, ['--no-warnings', '-e', script]).signal).toBe('SIGKILL')
    expect((await readdir(join(path, '..'))).sort()).toEqual(['app.db', 'app.db-shm', 'app.db-wal'])
    expect(await refused(path)).toMatch(
      /^reseller-mock: state file .*app\.db: is an SQLite database of another application, not a state file of this mock; the file was left untouched$/,
    )
  })
})
