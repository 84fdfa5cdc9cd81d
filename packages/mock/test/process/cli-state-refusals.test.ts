/**
 * `--state` files the process cannot use, through the CLI: an existing state file on a read-only
 * mount or owned by another user is refused in one line that says read-only or permission denied
 * (as a new file's refusal does), not SQLite's `disk I/O error`; and a start that fails (a taken
 * port) leaves no file behind. The mount and the other user need root: those tests skip without it.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, CLI, runCli, spawnProcess, startCli } from '../helpers/cli.js'

let dir: string
/** A state file written by a clean run, to copy where it cannot be written. */
let stateFile: string
const isRoot = process.getuid?.() === 0
const mounted: string[] = []

beforeAll(async () => {
  assertBuilt()
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-state-refusals-'))
  stateFile = join(dir, 'made.db')
  const run = await startCli(['--port', '0', '--quiet', '--state', stateFile])
  run.child.kill('SIGTERM')
  expect((await run.exited).code).toBe(0)
})
afterAll(async () => {
  for (const path of mounted) execFileSync('umount', [path], { stdio: 'pipe' })
  await rm(dir, { recursive: true, force: true })
})

/** The one line of a refused start (exit 1). */
async function refusal(args: string[]) {
  const { code, stderr } = await runCli(['--port', '0', '--quiet', ...args])
  expect(code).toBe(1)
  expect(stderr.trim().split('\n')).toHaveLength(1)
  return stderr.trim()
}

describe('--state the process may not write', { timeout: 60_000 }, () => {
  it('an existing state file on a read-only mount: "read-only file system", not "disk I/O error"', async (ctx) => {
    const mount = join(dir, 'ro')
    await mkdir(mount)
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mount], { stdio: 'pipe' })
      mounted.push(mount)
    } catch (error) {
      ctx.skip(
        `mount -t tmpfs is not allowed here (${String((error as { stderr?: unknown }).stderr ?? error).trim()})`,
      )
    }
    await copyFile(stateFile, join(mount, 'state.db'))
    execFileSync('mount', ['-o', 'remount,ro', mount], { stdio: 'pipe' })
    const line = await refusal(['--state', join(mount, 'state.db')])
    expect(line).toMatch(
      /^reseller-mock: state file \S+state\.db: cannot be written \(read-only file system\)/,
    )
    expect(line).not.toMatch(/disk I\/O/)
    expect(await readdir(mount)).toEqual(['state.db'])
  })

  it('another user\'s state file: "permission denied", as for a new file in a directory it may not write', async (ctx) => {
    if (!isRoot) ctx.skip('needs root to run the CLI as another user')
    // A checkout below a private directory (mktemp -d's 0700) is out of nobody's reach: Node itself
    // cannot start there, which says nothing of the state file.
    const probe = spawnSync(process.execPath, [CLI, '--version'], { uid: 65534, gid: 65534, timeout: 20_000 })
    if (probe.status !== 0)
      ctx.skip(`user nobody cannot run the CLI from this checkout (${probe.error?.message ?? probe.stderr})`)
    const theirs = join(dir, 'theirs')
    await mkdir(theirs)
    await copyFile(stateFile, join(theirs, 'state.db'))
    chmodSync(theirs, 0o755)
    chmodSync(join(theirs, 'state.db'), 0o644)
    chmodSync(dir, 0o755)
    /** The CLI as user `nobody` (65534), who may read the file but not write it or its directory. */
    const asNobody = async (state: string) => {
      const run = spawnProcess(process.execPath, [CLI, '--port', '0', '--quiet', '--state', state], {
        uid: 65534,
        gid: 65534,
      })
      const { code } = await run.exited
      return { code, line: run.stderr().trim() }
    }
    const existing = await asNobody(join(theirs, 'state.db'))
    expect(existing.code).toBe(1)
    expect(existing.line).toMatch(/state file \S+state\.db: cannot be written \(permission denied\)/)
    expect(existing.line).not.toMatch(/disk I\/O/)
    const fresh = await asNobody(join(theirs, 'new.db'))
    expect(fresh.code).toBe(1)
    expect(fresh.line).toMatch(/state file \S+new\.db: cannot be created \(permission denied\)/)

    // Its own file in a directory it may not write: SQLite could not put its -wal file beside it.
    chownSync(join(theirs, 'state.db'), 65534, 65534)
    const directory = await asNobody(join(theirs, 'state.db'))
    expect(directory.line).toMatch(
      /cannot be written: its directory \S+ \(where SQLite keeps the -wal file\) is not writable \(permission denied\)/,
    )
    expect(await readdir(theirs)).toEqual(['state.db'])
  })
})

describe('a start that fails', { timeout: 30_000 }, () => {
  it('on a taken port creates no state file (nor its -wal, -shm or -lock)', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const port = (taken.address() as { port: number }).port
    try {
      const target = join(dir, 'never.db')
      const { code, stderr } = await runCli(['--port', String(port), '--quiet', '--state', target])
      expect(code).toBe(1)
      expect(stderr).toContain(`port already in use: 127.0.0.1:${port}`)
      const left = (await readdir(dir)).filter((name) => name.startsWith('never.db'))
      expect(left).toEqual([])
      expect(existsSync(target)).toBe(false)
    } finally {
      taken.close()
    }
  })

  it('on a taken port keeps an existing state file as it was', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const port = (taken.address() as { port: number }).port
    try {
      const kept = join(dir, 'kept.db')
      await copyFile(stateFile, kept)
      const { code, stderr } = await runCli(['--port', String(port), '--quiet', '--state', kept])
      expect(code).toBe(1)
      expect(stderr).toContain('port already in use')
      expect(existsSync(kept)).toBe(true)
    } finally {
      taken.close()
    }
  })
})
