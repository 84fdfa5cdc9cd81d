// The CLI as a test tool: --version, a host that cannot be bound, the warning for a non-loopback host.
import { readFileSync } from 'node:fs'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, runCli, startCli } from '../helpers/cli.js'

const children: Array<{ child: { kill(signal?: NodeJS.Signals): boolean; exitCode: number | null } }> = []
beforeAll(() => assertBuilt())
afterEach(() => {
  for (const c of children.splice(0)) if (c.child.exitCode === null) c.child.kill('SIGKILL')
})

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string
}

describe('reseller-mock CLI: version and hosts', { timeout: 30_000 }, () => {
  it('--version prints the package version and exits 0', async () => {
    const { code, stdout } = await runCli(['--version'])
    expect(code).toBe(0)
    expect(stdout.trim()).toBe(pkg.version)
  })

  it.each([
    [
      'a name that does not resolve',
      'nosuchhost.invalid',
      /neither an IP address nor a host name that resolves/,
    ],
    [
      'an address of no interface here (TEST-NET-1)',
      '192.0.2.1',
      /192\.0\.2\.1 is not an address of this machine/,
    ],
    ['not an address at all', '999.1.1.1', /neither an IP address/],
  ])(
    'a --host that cannot be bound (%s) fails with one line, no stack trace, exit 1',
    async (_what, host, reason) => {
      const { code, stdout, stderr } = await runCli(['--host', host, '--port', '0'])
      expect(code).toBe(1)
      const lines = stderr.trimEnd().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(
        new RegExp(`^reseller-mock: cannot listen on ${host.replaceAll('.', '\\.')}:0: `),
      )
      expect(lines[0]).toMatch(reason)
      expect(stderr).not.toMatch(/\n\s+at /)
      expect(stdout).not.toContain('listening on')
    },
  )

  it('warns on stderr that /__mock/ is exposed when bound to a non-loopback host', async () => {
    const run = await startCli(['--host', '0.0.0.0', '--port', '0', '--quiet'])
    children.push(run)
    expect(run.stderr()).toMatch(
      /warning: listening on 0\.0\.0\.0, not a loopback address: the \/__mock\/ control endpoints need no key/,
    )
  })

  it.each(['127.0.0.1', 'localhost'])('prints no warning for the loopback host %s', async (host) => {
    const run = await startCli(['--host', host, '--port', '0', '--quiet'])
    children.push(run)
    expect(run.stderr()).toBe('')
  })
})
