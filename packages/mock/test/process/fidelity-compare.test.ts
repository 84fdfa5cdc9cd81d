// reseller-mock import and compare as commands: files written, exit codes 0/1/2, output formats.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseSeed } from '../../src/node.js'
import { assertBuilt, runCli, spawnCli, waitForLine } from '../helpers/cli.js'
import { startUpstream, UPSTREAM_KEYS, UPSTREAM_SECRETS, type Upstream } from '../helpers/fidelity.js'

let upstream: Upstream
let dir: string
beforeAll(async () => {
  assertBuilt()
  upstream = await startUpstream()
  dir = mkdtempSync(join(tmpdir(), 'fidelity-'))
})
afterAll(async () => {
  await upstream.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Generous: the CLI runs import and compare over HTTP, on machines that may be loaded. */
const TIMEOUT = 120_000

describe('reseller-mock import', { timeout: 4 * TIMEOUT }, () => {
  it('writes a seed the mock loads, prints the new keys on stderr, and never the given ones', async () => {
    const out = join(dir, 'seed.json')
    const { code, stderr } = await runCli(
      [
        'import',
        '--from',
        upstream.proxy.url,
        '--key',
        UPSTREAM_KEYS.full,
        '--webhook',
        'wh_42',
        '--out',
        out,
      ],
      TIMEOUT,
    )
    expect(code).toBe(0)
    const text = readFileSync(out, 'utf8')
    const seed = parseSeed(JSON.parse(text))
    expect(seed.resellers[0]!.tickets).toHaveLength(23)
    expect(seed.resellers[0]!.webhooks[0]!.deliveries).toHaveLength(2)
    const key = seed.resellers[0]!.api_keys[0]!.key
    expect(stderr).toContain(`new live key ${key}`)
    expect(stderr).toMatch(/import: tickets page 2\/2/)
    for (const secret of [...Object.values(UPSTREAM_KEYS), ...UPSTREAM_SECRETS]) {
      expect(text).not.toContain(secret)
      expect(stderr).not.toContain(secret)
    }
    // The seed serves: a server started from it answers with the new key.
    const served = spawnCli(['--seed', out, '--port', '0', '--quiet'])
    const [, url] = await waitForLine(served, /listening on (http:\/\/\S+)/, TIMEOUT)
    try {
      const answer = await fetch(`${url}/api/v1/support/tickets`, {
        headers: { authorization: `Bearer ${key}` },
      })
      expect(answer.status).toBe(200)
      expect(((await answer.json()) as { meta: { total: number } }).meta.total).toBe(23)
    } finally {
      served.child.kill('SIGTERM')
      await served.exited
    }
  })

  it('exits 2 with one line on a usage error, an unreachable service or keys all refused, writing nothing', async () => {
    const out = join(dir, 'never.json')
    for (const args of [
      ['import', '--key', UPSTREAM_KEYS.full],
      ['import', '--from', upstream.proxy.url, '--key', UPSTREAM_KEYS.full, '--bogus'],
      ['import', '--from', 'http://127.0.0.1:9', '--key', UPSTREAM_KEYS.full, '--out', out],
      ['import', '--from', upstream.proxy.url, '--key', 'svc_live_unknown_to_upstream', '--out', out],
    ]) {
      const { code, stdout, stderr } = await runCli(args, TIMEOUT)
      expect({ args, code }).toEqual({ args, code: 2 })
      expect(stdout).toBe('')
      expect(stderr.split('\n')[0]).toMatch(/^reseller-mock import: /)
      expect(() => readFileSync(out)).toThrow()
    }
  })

  it('--help names the flags', async () => {
    const { code, stdout } = await runCli(['import', '--help'], TIMEOUT)
    expect(code).toBe(0)
    expect(stdout).toContain('--from URL')
    expect(stdout).toContain('--redact')
  })
})

describe('reseller-mock compare', { timeout: 4 * TIMEOUT }, () => {
  it('exit 0, a table of ok steps, the JSON report and JUnit with one test case per step', async () => {
    const report = join(dir, 'report.json')
    const junit = join(dir, 'junit.xml')
    const { code, stdout } = await runCli(
      [
        'compare',
        '--upstream',
        upstream.proxy.url,
        '--key',
        UPSTREAM_KEYS.full,
        '--webhook',
        'wh_42',
        '--report',
        report,
        '--junit',
        junit,
      ],
      TIMEOUT,
    )
    expect(code).toBe(0)
    expect(stdout).toMatch(/^ok +tickets\.page-1 +200\/200 GET \/api\/v1\/support\/tickets\?page=1$/m)
    expect(stdout).toMatch(/ 0 differences$/)
    const json = JSON.parse(readFileSync(report, 'utf8'))
    expect(json).toMatchObject({ upstream: upstream.proxy.url, scenario: 'read', differences: 0 })
    expect(json.steps[0]).toEqual({
      name: 'whm.usage',
      method: 'GET',
      path: '/api/v1/reseller/whm/usage',
      status: [200, 200],
      differences: [],
    })
    const xml = readFileSync(junit, 'utf8')
    expect(xml.match(/<testcase /g)).toHaveLength(json.steps.length)
  })

  it('exit 1 on a difference, named by step, method, path and pointer; exit 0 once the allow file lists it', async () => {
    upstream.proxy.divergences.push({
      path: /^\/api\/v1\/reseller\/(whm\/packages\?page=1|packages)$/,
      rewrite: (a) => {
        ;(a.body as { data: Record<string, unknown>[] }).data[0]!.quota = '1000'
      },
    })
    try {
      const report = join(dir, 'diff.json')
      const base = ['compare', '--upstream', upstream.proxy.url, '--key', UPSTREAM_KEYS.full]
      const failing = await runCli([...base, '--report', report], TIMEOUT)
      expect(failing.code).toBe(1)
      expect(failing.stdout).toContain(
        'whm.packages.page-1 GET /api/v1/reseller/whm/packages?page=1 /data/0/quota type',
      )
      const json = JSON.parse(readFileSync(report, 'utf8'))
      // The deprecated route serves the same list: the same difference there.
      expect(json.differences).toBe(2)
      expect(
        json.steps
          .filter((s: { differences: unknown[] }) => s.differences.length > 0)
          .map((s: { name: string }) => s.name),
      ).toEqual(['whm.packages.page-1', 'legacy.packages'])
      expect(json.steps.find((s: { name: string }) => s.name === 'whm.packages.page-1').differences).toEqual([
        { pointer: '/data/0/quota', kind: 'type', upstream: '1000', mock: 1000 },
      ])
      const allow = join(dir, 'allow.jsonl')
      writeFileSync(allow, '# quota is a string upstream\n{"pointer":"/data/0/quota","kind":"type"}\n')
      const allowed = await runCli([...base, '--allow', allow], TIMEOUT)
      expect(allowed.code).toBe(0)
    } finally {
      upstream.proxy.divergences.length = 0
    }
  })

  it('exit 1 on a documented rule a masked value breaks: a simulated username that does not start with sb_', async () => {
    upstream.proxy.divergences.push({
      method: 'POST',
      path: /^\/api\/v1\/reseller\/(clients\/\d+\/hosting|accounts)$/,
      keyPrefix: 'svc_test_',
      rewrite: (a) => {
        const data = (a.body as { data: { username: string } }).data
        data.username = data.username.replace(/^sb_/, 'sandbox_')
      },
    })
    try {
      const report = join(dir, 'sandbox.json')
      const { code, stdout } = await runCli(
        [
          'compare',
          '--upstream',
          upstream.proxy.url,
          '--key',
          UPSTREAM_KEYS.sandbox,
          '--scenario',
          'sandbox',
          '--report',
          report,
        ],
        TIMEOUT,
      )
      expect(code).toBe(1)
      expect(stdout).toMatch(
        /sandbox\.provision POST \/api\/v1\/reseller\/clients\/\d+\/hosting \/data\/username rule: upstream "sandbox_\w+", mock "sb_\w+" \(upstream: .*\^sb_/,
      )
      const json = JSON.parse(readFileSync(report, 'utf8'))
      expect(json.differences).toBe(2)
      expect(
        json.steps.flatMap((s: { name: string; differences: { pointer: string; kind: string }[] }) =>
          s.differences.map((d) => [s.name, d.pointer, d.kind]),
        ),
      ).toEqual([
        ['sandbox.provision', '/data/username', 'rule'],
        ['sandbox.provision.legacy', '/data/username', 'rule'],
      ])
    } finally {
      upstream.proxy.divergences.length = 0
    }
  })

  it('exit 2: a live key for the sandbox scenario (nothing sent), a bad allow file, an unreachable upstream', async () => {
    upstream.proxy.methods.clear()
    const live = await runCli(
      ['compare', '--upstream', upstream.proxy.url, '--key', UPSTREAM_KEYS.full, '--scenario', 'sandbox'],
      TIMEOUT,
    )
    expect(live.code).toBe(2)
    expect(live.stderr).toMatch(/sandbox keys/)
    expect(upstream.proxy.methods.size).toBe(0)
    const allow = join(dir, 'bad-allow.jsonl')
    writeFileSync(allow, '{"pointer": 3, "kind": "type"}\n')
    const bad = await runCli(
      ['compare', '--upstream', upstream.proxy.url, '--key', UPSTREAM_KEYS.full, '--allow', allow],
      TIMEOUT,
    )
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('bad-allow.jsonl:1: pointer must be a string')
    const down = await runCli(
      ['compare', '--upstream', 'http://127.0.0.1:9', '--key', UPSTREAM_KEYS.full],
      TIMEOUT,
    )
    expect(down.code).toBe(2)
    expect(down.stdout).toBe('')
    const usage = await runCli(['compare', '--key', UPSTREAM_KEYS.full, '--scenario', 'write'], TIMEOUT)
    expect(usage.code).toBe(2)
  })

  it('--help of each command, and the main --help names them', async () => {
    expect((await runCli(['compare', '--help'], TIMEOUT)).stdout).toContain('--scenario NAME')
    const main = await runCli(['--help'], TIMEOUT)
    expect(main.stdout).toMatch(/^ +reseller-mock import +\S/m)
    expect(main.stdout).toMatch(/^ +reseller-mock compare +\S/m)
  })
})
