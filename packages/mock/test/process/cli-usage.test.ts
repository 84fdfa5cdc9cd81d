/**
 * Usage errors of `reseller-mock`, every command alike: an unknown command or flag, or a flag's bad
 * value, exits 2 with one line on stderr (docs/running-the-mock.md, "Exit codes"); what a flag
 * names that cannot be used (a seed file) stays exit 1.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, runCli } from '../helpers/cli.js'

beforeAll(() => {
  assertBuilt()
})

/** Runs the CLI expecting a usage error: exit 2, nothing on stdout, one line on stderr. */
async function usageError(args: string[]) {
  const { code, stdout, stderr } = await runCli(args)
  expect({ args, code, stdout }).toEqual({ args, code: 2, stdout: '' })
  const lines = stderr.trimEnd().split('\n')
  expect(lines, stderr).toHaveLength(1)
  return lines[0]!
}

const SUBCOMMANDS = ['import', 'compare', 'record', 'replay']

describe('usage errors exit 2 with one line', { timeout: 60_000 }, () => {
  it('an unknown command is named, with the commands there are', async () => {
    const line = await usageError(['frobnicate'])
    expect(line).toMatch(
      /^reseller-mock: unknown command "frobnicate" \(commands: import, compare, record, replay/,
    )
    expect(line).toContain('run "reseller-mock --help" for the options')
    // Names of Object.prototype are no commands either.
    for (const name of ['constructor', 'toString', '__proto__']) {
      expect(await usageError([name])).toContain(`unknown command "${name}"`)
    }
  })

  it('an unknown flag of the server', async () => {
    expect(await usageError(['--frobnicate'])).toMatch(/^reseller-mock: Unknown option '--frobnicate'/)
    expect(await usageError(['--port', '0', '-x'])).toMatch(/Unknown option '-x'/)
  })

  it.each([
    [['--port', 'abc'], /--port must be a whole number from 0 to 65535, got "abc"/],
    [['--port', '65536'], /--port must be a whole number/],
    [['--host', ' '], /--host must not be empty/],
    [['--seed', ''], /--seed needs a file name/],
    [['--state', ''], /--state needs a file name/],
    [['--adopt-seed'], /--adopt-seed needs both --seed and --state/],
    [['--journal-limit', 'lots'], /--journal-limit must be a whole number/],
    [['--allowed-host', 'not a host'], /--allowed-host needs a host name/],
    [['--allowed-origin', 'localhost:5173'], /--allowed-origin needs an origin/],
    [['--quiet=yes'], /--quiet/],
  ])('a bad value of a server flag: %j', async (args, message) => {
    expect(await usageError(args)).toMatch(message)
  })

  it.each(SUBCOMMANDS)('an unknown flag of `%s`', async (command) => {
    const line = await usageError([command, '--frobnicate'])
    expect(line).toMatch(new RegExp(`^reseller-mock ${command}: Unknown option '--frobnicate'`))
    expect(line).toContain(`run "reseller-mock ${command} --help" for the options`)
  })

  it('the server and every command say so in their --help', async () => {
    for (const args of [['--help'], ...SUBCOMMANDS.map((command) => [command, '--help'])]) {
      const { code, stdout } = await runCli(args)
      expect(code).toBe(0)
      expect(stdout, args.join(' ')).toMatch(/^Exit codes: [\s\S]*\b2 usage/m)
    }
  })
})

describe('a flag that names something unusable is no usage error: exit 1', { timeout: 30_000 }, () => {
  it('a seed file that is not there', async () => {
    const { code, stderr } = await runCli(['--port', '0', '--seed', '/nonexistent/seed.json'])
    expect(code).toBe(1)
    expect(stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/cannot read seed file/)])
  })
})
