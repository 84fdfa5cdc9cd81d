/**
 * Usage errors of `reseller-mock`, every command alike: an unknown command or flag, or a flag's bad
 * value, exits 2 with one line on stderr (docs/running-the-mock.md, "Exit codes"); what a flag
 * names that cannot be used (a seed file) stays exit 1.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, CLI, runCli } from '../helpers/cli.js'

beforeAll(() => {
  assertBuilt()
})

/** Runs the CLI (with `env` added to the environment) to its end: exit code and output. */
async function runWithEnv(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
  clearTimeout(timer)
  return { code, stdout, stderr }
}

/** Runs the CLI expecting a usage error: exit 2, nothing on stdout, one line on stderr. */
async function usageError(args: string[], env?: Record<string, string>) {
  const { code, stdout, stderr } = env ? await runWithEnv(args, env) : await runCli(args)
  expect({ args, code, stdout }).toEqual({ args, code: 2, stdout: '' })
  const lines = stderr.trimEnd().split('\n')
  expect(lines, stderr).toHaveLength(1)
  return lines[0]!
}

const SUBCOMMANDS = ['import', 'compare', 'record', 'replay', 'trigger', 'listen', 'resend']

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

  it('an unknown flag of the server, in our words, with the flag it most likely meant', async () => {
    expect(await usageError(['--frobnicate'])).toMatch(
      /^reseller-mock: unknown option --frobnicate; run "reseller-mock --help" for the options$/,
    )
    expect(await usageError(['--port', '0', '-x'])).toMatch(/^reseller-mock: unknown option -x;/)
    expect(await usageError(['--prot', '4010'])).toMatch(
      /^reseller-mock: unknown option --prot \(did you mean --port\?\); run "reseller-mock --help"/,
    )
    expect(await usageError(['--insecure-webhook'])).toContain('(did you mean --insecure-webhooks?)')
    expect(await usageError(['--allowed-hosts=a'])).toContain('(did you mean --allowed-host?)')
    // Not Node's wording, on any path.
    for (const args of [['--prot'], ['--port'], ['--port', '0', 'extra'], ['--quiet=yes']])
      expect(await usageError(args)).not.toMatch(/Unknown option|argument missing|positional argument/)
    expect(await usageError(['--port'])).toMatch(/^reseller-mock: --port needs a value;/)
    expect(await usageError(['--quiet=yes'])).toMatch(/^reseller-mock: --quiet takes no value;/)
    expect(await usageError(['--port', '0', 'extra'])).toMatch(/^reseller-mock: unexpected argument "extra"/)
  })

  it('an empty entry of a list: refused alike from the flag and from its variable, each named', async () => {
    expect(await usageError(['--allowed-host', ''])).toMatch(
      /^reseller-mock: --allowed-host needs a host name such as mock\.test or mock\.test:4010, got an empty entry;/,
    )
    for (const list of ['a.test,,b.test', 'a.test,', ',a.test'])
      expect(await usageError(['--port', '0'], { RESELLER_MOCK_ALLOWED_HOST: list })).toMatch(
        /^reseller-mock: RESELLER_MOCK_ALLOWED_HOST: needs a host name such as mock\.test or mock\.test:4010, got an empty entry;/,
      )
    expect(await usageError(['--allowed-origin', ' '])).toMatch(
      /--allowed-origin needs an origin .*got an empty entry/,
    )
    expect(
      await usageError(['--port', '0'], { RESELLER_MOCK_ALLOWED_ORIGIN: 'http://localhost:5173,,' }),
    ).toMatch(/RESELLER_MOCK_ALLOWED_ORIGIN: needs an origin .*got an empty entry/)
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
    expect(line).toMatch(new RegExp(`^reseller-mock ${command}: unknown option --frobnicate;`))
    expect(line).toContain(`run "reseller-mock ${command} --help" for the options`)
  })

  it('an unknown flag of a command says which of its flags was meant', async () => {
    expect(await usageError(['trigger', 'ticket.created', '--forward-too', 'http://x.test'])).toMatch(
      /^reseller-mock trigger: unknown option --forward-too \(did you mean --forward-to\?\);/,
    )
    expect(await usageError(['listen', '--mokc', 'http://x.test'])).toContain('(did you mean --mock?)')
    expect(await usageError(['replay', 'x.jsonl', '--junti', 'r.xml'])).toContain('(did you mean --junit?)')
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
    expect(stderr.trimEnd().split('\n')).toEqual([
      'reseller-mock: seed file /nonexistent/seed.json does not exist',
    ])
  })

  it('a seed file named by its variable, or a directory: one clear line, no raw errno text', async () => {
    const fromEnv = await runWithEnv(['--port', '0'], { RESELLER_MOCK_SEED: '/nonexistent/env-seed.json' })
    expect(fromEnv.code).toBe(1)
    expect(fromEnv.stderr.trimEnd()).toBe(
      'reseller-mock: seed file /nonexistent/env-seed.json does not exist',
    )
    const directory = await runCli(['--port', '0', '--seed', '/tmp'])
    expect(directory.code).toBe(1)
    expect(directory.stderr.trimEnd()).toBe('reseller-mock: seed file /tmp is a directory, not a file')
    for (const { stderr } of [fromEnv, directory]) expect(stderr).not.toMatch(/ENOENT|EISDIR|errno/)
  })
})

describe('running-the-mock.md, "Exit codes", against the CLI', { timeout: 30_000 }, () => {
  const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')
  /** The commands of cli.ts's COMMANDS table, in order. */
  const commands = [
    ...read('../../src/cli.ts')
      .match(/const COMMANDS[^{]*\{([\s\S]*?)\n\}/)![1]!
      .matchAll(/^\s+(\w+):/gm),
  ].map((m) => m[1]!)
  const guide = read('../../../../docs/running-the-mock.md')
  const section = guide.slice(
    guide.indexOf('### Exit codes'),
    guide.indexOf('\n## ', guide.indexOf('### Exit codes')),
  )

  it('the table names every command of the CLI', () => {
    expect(commands).toHaveLength(7)
    const header = section.split('\n').find((line) => line.startsWith('| code |'))!
    for (const command of commands) expect(header, command).toContain(`\`${command}\``)
  })

  it('each example line is what the CLI prints', async () => {
    const examples = [...section.matchAll(/^\$ reseller-mock (.*)\n(reseller-mock: .*)$/gm)]
    expect(examples.length).toBeGreaterThanOrEqual(3)
    for (const [, args, line] of examples) {
      if (args!.includes('bad.json')) continue // its seed file is the guide's own
      const { stderr } = await runCli(args!.split(' '))
      expect(stderr.trimEnd(), args).toBe(line)
    }
    const unknown = examples.find(([, args]) => args === 'frobnicate')![2]!
    expect(unknown).toContain(`(commands: ${commands.join(', ')})`)
  })
})
