import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, runCli, startCli, waitForLine } from '../helpers/cli.js'

let dir: string
const children: Array<{ child: { kill(signal?: NodeJS.Signals): boolean; exitCode: number | null } }> = []
beforeAll(async () => {
  assertBuilt()
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-cli-'))
})
afterEach(() => {
  for (const c of children.splice(0)) if (c.child.exitCode === null) c.child.kill('SIGKILL')
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function started(args: string[]) {
  const run = await startCli(args)
  children.push(run)
  return run
}

describe('reseller-mock CLI', { timeout: 30_000 }, () => {
  it('--help prints the flags and exits 0', async () => {
    const { code, stdout } = await runCli(['--help'])
    expect(code).toBe(0)
    for (const flag of ['--port', '--host', '--seed', '--state', '--insecure-webhooks', '--quiet']) {
      expect(stdout).toContain(flag)
    }
    expect(stdout).toMatch(/^\s+-h, --help\b/m)
    expect(stdout).toMatch(/^\s+-v, --version\b/m)
    const short = await runCli(['-h'])
    expect(short.stdout).toBe(stdout)
  })

  it('starts on the demo seed, prints its URL and keys, serves the API, and exits 0 on SIGTERM', async () => {
    const run = await started(['--port', '0'])
    expect(run.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    await waitForLine(run, /Press Ctrl\+C/)
    const out = run.stdout.join('\n')
    expect(out).toMatch(/svc_live_acme_full\s+live\s+1 Acme Hosting\s+reseller:hosting reseller:webhooks/)
    expect(out).toMatch(/svc_test_acme_sandbox\s+sandbox/)
    const res = await fetch(`${run.url}/api/v1/support/tickets`, {
      headers: { authorization: 'Bearer svc_live_acme_full' },
    })
    expect(res.status).toBe(200)
    expect((await res.json()).meta.per_page).toBe(20)
    // One log line per request: method, path, status, milliseconds.
    const [line] = await waitForLine(run, /^GET \/api\/v1\/support\/tickets 200 \d+\.\dms$/)
    expect(line).toBeDefined()
    run.child.kill('SIGTERM')
    expect(await run.exited).toEqual({ code: 0, signal: null })
  })

  it('exits 0 on SIGINT; --quiet prints no request log but still says it stopped', async () => {
    const run = await started(['--port', '0', '--quiet'])
    await waitForLine(run, /Press Ctrl\+C/)
    const lines = run.stdout.length
    await (await fetch(`${run.url}/api/v1/support/tickets`)).text()
    await (await fetch(`${run.url}/nope`)).text()
    run.child.kill('SIGINT')
    expect((await run.exited).code).toBe(0)
    expect(run.stdout.slice(lines).filter((l) => l.trim() !== '')).toEqual(['reseller-mock stopped (SIGINT)'])
  })

  it('prints an IPv6 host in brackets, and accepts it bracketed', async () => {
    const run = await started(['--port', '0', '--host', '[::1]', '--quiet'])
    expect(run.url).toMatch(/^http:\/\/\[::1\]:\d+$/)
    await waitForLine(run, /^ {2}inspector http:\/\/\[::1\]:\d+\/__mock\/ /)
    const port = new URL(run.url).port
    const busy = await runCli(['--port', port, '--host', '::1'])
    expect(busy.code).toBe(1)
    expect(busy.stderr).toContain(`port already in use: [::1]:${port}`)
  })

  it('refuses --state in a directory that does not exist with one reason, before starting', async () => {
    const path = join(dir, 'missing', 'state.json')
    const { code, stdout, stderr } = await runCli(['--port', '0', '--state', path])
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr.split('\n').filter((l) => l.startsWith('reseller-mock:'))).toEqual([
      `reseller-mock: --state ${path}: the directory ${join(dir, 'missing')} does not exist`,
    ])
  })

  it.each([
    [['--nope'], /unknown option --nope;/],
    [['--port', 'abc'], /--port must be a whole number/],
    [['--port', '70000'], /--port must be a whole number/],
    [['--port', '-1'], /--port must be a whole number from 0 to 65535, got "-1"/],
    [['--journal-limit', '-5'], /--journal-limit must be a whole number of 0 or more, got "-5"/],
    [['--port'], /--port needs a value/],
    [['--port', '0', 'extra'], /unexpected argument "extra"/],
  ])('refuses %j as a usage error: one line, exit 2', async (args, message) => {
    const { code, stdout, stderr } = await runCli(args)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(message)])
    expect(stderr).toContain('run "reseller-mock --help" for the options')
  })

  it('refuses a seed file that cannot be read with one line and exit 1 (a file, not a usage error)', async () => {
    const { code, stderr } = await runCli(['--seed', '/nonexistent/seed.json'])
    expect(code).toBe(1)
    expect(stderr.trimEnd().split('\n')).toEqual([
      'reseller-mock: seed file /nonexistent/seed.json does not exist',
    ])
  })

  it('refuses a seed file that is not JSON, or breaks a rule (naming the path)', async () => {
    const notJson = join(dir, 'not-json.json')
    await writeFile(notJson, '{ nope')
    const a = await runCli(['--seed', notJson])
    expect(a.code).toBe(1)
    expect(a.stderr).toContain(`seed file ${notJson} is not valid JSON`)

    const badRule = join(dir, 'bad-rule.json')
    await writeFile(
      badRule,
      JSON.stringify({ resellers: [{ id: 1, api_keys: [{ key: 'svc_live_x', scopes: ['x'] }] }] }),
    )
    const b = await runCli(['--seed', badRule])
    expect(b.code).toBe(1)
    expect(b.stderr).toContain('resellers[0].api_keys[0].scopes[0]')
  })

  it('exits 1 with a message when the port is taken', async () => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r))
    const { port } = blocker.address() as AddressInfo
    try {
      const { code, stderr } = await runCli(['--port', String(port)])
      expect(code).toBe(1)
      expect(stderr).toContain(`port already in use: 127.0.0.1:${port}`)
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()))
    }
  })

  it.each([
    ['not JSON', '{"format":"reseller-mock-state", '],
    ['another file', '{"hello":"world"}'],
    [
      'a state that does not validate',
      JSON.stringify({ format: 'reseller-mock-state', version: 1, saved_at: 'x', state: { tables: 3 } }),
    ],
  ])(
    'refuses a corrupt state file (%s) with a message naming it, and leaves it untouched',
    async (_, content) => {
      const path = join(dir, `corrupt-${Math.random().toString(36).slice(2)}.json`)
      await writeFile(path, content)
      const { code, stderr } = await runCli(['--port', '0', '--state', path])
      expect(code).toBe(1)
      expect(stderr).toContain(`state file ${path}`)
      expect(stderr).toContain('left untouched')
      expect(await readFile(path, 'utf8')).toBe(content)
    },
  )
})
