/**
 * `reseller-mock` (no subcommand): the mock as a standalone HTTP server.
 *
 *   reseller-mock [--port 4010] [--host 127.0.0.1] [--seed FILE] [--state FILE [--adopt-seed]]
 *                 [--insecure-webhooks] [--journal-limit N] [--allowed-host NAME]...
 *                 [--allowed-origin ORIGIN]... [--max-namespaces N] [--quiet]
 *
 * Exit codes: 0 after SIGINT/SIGTERM (clean stop, at any moment from the start on); 1 when a seed
 * or state file cannot be used, a host or port cannot be bound, or the start fails otherwise; 2 on
 * a usage error (an unknown flag, a flag's bad value).
 */
import { existsSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util'
// Inlined by the bundler: --version reads no file beside the code (the single executable has none).
import packageJson from '../../package.json' with { type: 'json' }
import { DEFAULT_JOURNAL_LIMIT } from '../journal/journal.js'
import { DEFAULT_MAX_NAMESPACES } from '../server/host/namespace-limits.js'
import type { KeyInfo, Standalone } from '../server/host/standalone.js'
import { normalizeOrigin } from '../server/http/cors.js'
import type { EarlyServer } from '../server/http/early.js'
import { boundHostName, hostName, isLoopbackHost } from '../server/http/host-names.js'
import { StateFileError } from '../server/state-file/path.js'
import { flagsFromEnvironment } from './env-flags.js'
import { StartError, UsageError } from './errors.js'
import { describeParseArgsError, fileProblem } from './flag-problems.js'
import { handleStopSignals } from './stop-signals.js'

const USAGE = `Usage: reseller-mock [options]

Serves the reseller hosting API mock over HTTP (API under /api/v1, control endpoints under /__mock/).

Commands (each has its own --help):
  reseller-mock import   a seed from an account of a real deployment (GET requests only)
  reseller-mock compare  the same scenario against a deployment and a mock of its import
  reseller-mock record   a proxy in front of a deployment that writes a redacted cassette of each exchange
  reseller-mock replay   a cassette against a fresh mock, offline, compared as compare does
  reseller-mock trigger  one webhook event now: signed to a receiver (no mock), or emitted by a running mock
  reseller-mock listen   point a running mock's webhooks at your receiver and print each delivery attempt
  reseller-mock resend   deliver a recorded delivery again, now

Options:
  --port N              port to listen on (default 4010; 0 takes a free port)
  --host HOST           interface to bind (default 127.0.0.1)
  --seed FILE           JSON seed to start from and reset to (default: the built-in demo seed, or
                        the seed recorded in the --state file)
  --state FILE          load the state from FILE if it exists and write every change through to it
                        before answering (survives a kill, pending webhook retries included); the
                        file records the seed it was created from
  --adopt-seed          with --state and --seed: keep the file's state but make reset go to this
                        --seed from now on (without it, a --seed other than the recorded one is refused)
  --insecure-webhooks   let general webhooks target http:// and loopback or private hosts; failed
                        reseller deliveries then say why
  --journal-limit N     API requests the journal at /__mock/requests keeps (default 1000; 0 turns it off)
  --allowed-host NAME   also answer requests whose Host is NAME (repeatable; e.g. mock.test, a
                        container name); other than loopback names and the bound address, any Host
                        gets 403 forbidden_host (DNS-rebinding protection)
  --allowed-origin ORIGIN
                        let browser pages of ORIGIN call the mock (repeatable; e.g.
                        http://localhost:5173, a dev server of your app): their requests are
                        served, with CORS headers; pages of any other origin get 403 cross_origin
  --max-namespaces N    namespaces this server holds at once (default 1000; 0 turns them off):
                        isolated mocks made with POST /__mock/namespaces, each at /ns/{id}
  --quiet               no request log (start and stop lines are still printed)
  -v, --version         print the version
  -h, --help            show this help

Every option but -h and -v may also be set by an environment variable RESELLER_MOCK_<OPTION>
(upper case, "-" as "_"): RESELLER_MOCK_PORT=4010, RESELLER_MOCK_INSECURE_WEBHOOKS=true,
RESELLER_MOCK_ALLOWED_HOST=mock,mock.test (a repeatable option takes a comma-separated list). An
option on the command line wins over its variable; an unknown RESELLER_MOCK_* variable is an error.

Exit codes: 0 stopped by Ctrl+C or SIGTERM; 1 a seed or state file that cannot be used, a host or
port that cannot be bound; 2 usage error (an unknown command or flag, a flag's bad value).
`

/** Errors of `listen` and of the host name lookup before it: the host or port cannot be used. */
const BIND_ERRORS: Record<string, (host: string) => string> = {
  ENOTFOUND: (host) => `"${host}" is neither an IP address nor a host name that resolves`,
  EAI_AGAIN: (host) => `the host name "${host}" could not be resolved (temporary DNS failure)`,
  EAI_FAIL: (host) => `the host name "${host}" could not be resolved`,
  EAI_NONAME: (host) => `"${host}" is neither an IP address nor a host name that resolves`,
  EADDRNOTAVAIL: (host) => `${host} is not an address of this machine`,
  EAFNOSUPPORT: (host) => `this machine does not support the address family of ${host}`,
  EINVAL: (host) => `${host} cannot be bound`,
}

interface Flags {
  port: number
  host: string
  seed?: string
  state?: string
  adoptSeed: boolean
  insecureWebhooks: boolean
  journalLimit?: number
  maxNamespaces?: number
  allowedHosts: string[]
  allowedOrigins: string[]
  quiet: boolean
  help: boolean
  version: boolean
}

/** Flags whose value is a number: `--port -1` reaches the range check instead of parseArgs' "ambiguous". */
const NUMBER_FLAGS = new Set(['--port', '--journal-limit', '--max-namespaces'])

/** `--port -1` → `--port=-1`: parseArgs takes a value starting with `-` for a missing one. */
function joinNegativeNumbers(argv: string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1]
    if (NUMBER_FLAGS.has(argv[i]!) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${argv[i]}=${next}`)
      i++
    } else out.push(argv[i]!)
  }
  return out
}

/** An IPv6 address in brackets, as URLs and `host:port` pairs write it; other hosts as they are. */
function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
}

/** The server's flags; each also comes from an environment variable (`cli/env-flags.ts`). */
const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  state: { type: 'string' },
  'adopt-seed': { type: 'boolean' },
  'insecure-webhooks': { type: 'boolean' },
  'journal-limit': { type: 'string' },
  'max-namespaces': { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies ParseArgsOptionsConfig

function parseFlags(argv: string[]): Flags {
  const environment = flagsFromEnvironment(OPTIONS, argv)
  /** A flag's value's problem, naming where it came from: `--port …` or `RESELLER_MOCK_PORT: …`. */
  const named = (flag: keyof typeof OPTIONS, rule: string) => {
    const variable = environment.variables.get(flag)
    return variable === undefined ? `--${flag} ${rule}` : `${variable}: ${rule}`
  }
  const invalid = (flag: keyof typeof OPTIONS, rule: string) => new UsageError(named(flag, rule))
  let values: ReturnType<typeof parse>['values']
  function parse() {
    return parseArgs({
      args: joinNegativeNumbers([...environment.args, ...argv]),
      strict: true,
      allowPositionals: false,
      options: OPTIONS,
    })
  }
  try {
    values = parse().values
  } catch (error) {
    throw new UsageError(describeParseArgsError(error, Object.keys(OPTIONS)))
  }
  const rawPort = values.port ?? '4010'
  if (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) > 65535) {
    throw invalid('port', `must be a whole number from 0 to 65535, got "${rawPort}"`)
  }
  // `[::1]`, as copied from a URL, is the address `::1`.
  const host = (values.host ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1')
  if (host.trim() === '') throw invalid('host', 'must not be empty')
  for (const name of ['seed', 'state'] as const) {
    if (values[name] !== undefined && values[name].trim() === '') throw invalid(name, 'needs a file name')
  }
  if (values.state !== undefined) {
    // Checked here, before anything starts, so that the one reason is the one printed.
    const directory = dirname(resolve(values.state))
    if (!existsSync(directory) || !statSync(directory).isDirectory())
      throw new StartError(named('state', `${values.state}: the directory ${directory} does not exist`))
  }
  if (values['adopt-seed'] && (values.seed === undefined || values.state === undefined)) {
    throw new UsageError('--adopt-seed needs both --seed and --state')
  }
  const rawLimit = values['journal-limit']
  if (rawLimit !== undefined && !/^\d{1,9}$/.test(rawLimit)) {
    throw invalid('journal-limit', `must be a whole number of 0 or more, got "${rawLimit}"`)
  }
  const rawMax = values['max-namespaces']
  if (rawMax !== undefined && !/^\d{1,7}$/.test(rawMax)) {
    throw invalid('max-namespaces', `must be a whole number from 0 to 9999999, got "${rawMax}"`)
  }
  // One rule for the flag and its variable's comma-separated list: an empty entry is refused in both.
  const got = (value: string) => (value.trim() === '' ? 'got an empty entry' : `got "${value}"`)
  const allowedHosts = values['allowed-host'] ?? []
  for (const name of allowedHosts) {
    if (hostName(name) === null)
      throw invalid('allowed-host', `needs a host name such as mock.test or mock.test:4010, ${got(name)}`)
  }
  const allowedOrigins = values['allowed-origin'] ?? []
  for (const origin of allowedOrigins) {
    if (normalizeOrigin(origin) === null)
      throw invalid(
        'allowed-origin',
        `needs an origin such as http://localhost:5173 (scheme, host and port; no path), ${got(origin)}`,
      )
  }
  return {
    port: Number(rawPort),
    host,
    seed: values.seed,
    state: values.state,
    adoptSeed: values['adopt-seed'] ?? false,
    insecureWebhooks: values['insecure-webhooks'] ?? false,
    journalLimit: rawLimit === undefined ? undefined : Number(rawLimit),
    maxNamespaces: rawMax === undefined ? undefined : Number(rawMax),
    allowedHosts,
    allowedOrigins,
    quiet: values.quiet ?? false,
    help: values.help ?? false,
    version: values.version ?? false,
  }
}

/** A seed file's bytes, decoded and parsed only when the mock needs the seed (see `startStandalone`). */
async function readSeedFile(path: string): Promise<{ bytes: Uint8Array; parse: (text: string) => never }> {
  let bytes: Uint8Array
  try {
    // node:fs/promises loads only for a seed file: a start on the demo seed reads none.
    bytes = await process.getBuiltinModule('node:fs/promises').readFile(path)
  } catch (error) {
    throw new StartError(`seed file ${path} ${fileProblem(error)}`)
  }
  const parse = (text: string) => {
    try {
      return JSON.parse(text) as never
    } catch (error) {
      throw new StartError(`seed file ${path} is not valid JSON: ${(error as Error).message}`)
    }
  }
  return { bytes, parse }
}

function keyTable(keys: KeyInfo[]): string {
  const rows = keys.map((k) => [
    k.key,
    k.mode,
    `${k.reseller_id} ${k.reseller}`,
    k.scopes.join(' ') || '(none)',
  ])
  const header = ['KEY', 'MODE', 'RESELLER', 'SCOPES']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}`
  return [line(header), ...rows.map(line)].join('\n')
}

/** The ready line (`reseller-mock listening on URL`), after a warning when others can reach the server. */
function announce(url: string, host: string): void {
  // Only this machine reaches a loopback host: the key-less control endpoints stay private.
  const boundName = boundHostName(host)
  if (boundName === null || !isLoopbackHost(boundName)) {
    process.stderr.write(
      `reseller-mock: warning: listening on ${host}, not a loopback address: the /__mock/ control endpoints need no key and expose every API key and secret (GET /__mock/state) and can reset or change the state; bind 127.0.0.1 unless every machine that can reach this address is trusted\n`,
    )
  }
  process.stdout.write(`reseller-mock listening on ${url}\n`)
}

/** Runs the server until SIGINT or SIGTERM; rejects with a {@link UsageError} or {@link StartError} when it cannot start. */
export async function serve(argv: string[]): Promise<void> {
  // `npm start -- --insecure-webhooks` habits: pnpm passes the `--` on to the script's command.
  const flags = parseFlags(argv[0] === '--' ? argv.slice(1) : argv)
  if (flags.help) {
    process.stdout.write(USAGE)
    return
  }
  if (flags.version) {
    process.stdout.write(`${packageJson.version}\n`)
    return
  }
  const out = (line: string) => process.stdout.write(`${line}\n`)
  // Before the state file is opened and the URL printed: a stop at any moment of the start is clean.
  const signals = handleStopSignals(out, (line) => process.stderr.write(`${line}\n`))
  const seedFile = flags.seed === undefined ? undefined : await readSeedFile(flags.seed)

  let standalone: Standalone
  let early: EarlyServer | undefined
  try {
    // The demo seed in memory: once the port is bound nothing can refuse the start, so the ready
    // line comes first and the mock is made after it; requests that come meanwhile wait for it
    // (server/http/early.ts). A seed or state file is checked before the ready line, as before.
    if (seedFile === undefined && flags.state === undefined) {
      const { listenEarly } = await import('../server/http/early.js')
      early = await listenEarly(flags.host, flags.port)
      announce(early.url, flags.host)
    }
    // Loaded once the flags are known good: --help, --version and a refused flag answer without it.
    const [{ startStandalone }, { usePrebuiltDemoSeed }] = await Promise.all([
      import('../server/host/standalone.js'),
      import('../server/seed/prebuilt.js'),
    ])
    // The demo seed as the build prepared it: a start on it skips parsing and validating it.
    if (seedFile === undefined) usePrebuiltDemoSeed()
    if (signals.requested) signals.stopNow()
    standalone = await startStandalone({
      seedFile,
      port: flags.port,
      host: flags.host,
      statePath: flags.state,
      adoptSeed: flags.adoptSeed,
      insecureWebhooks: flags.insecureWebhooks,
      journalLimit: flags.journalLimit,
      maxNamespaces: flags.maxNamespaces,
      allowedHosts: flags.allowedHosts,
      allowedOrigins: flags.allowedOrigins,
      log: flags.quiet ? undefined : out,
      warn: (line) => process.stderr.write(`${line}\n`),
      server: early,
    })
  } catch (error) {
    // A seed or state file, a host or port: what the flags name cannot be used (exit 1, not 2).
    const err = error as Error & { code?: string }
    if (err.name === 'SeedError')
      throw new StartError(`${flags.seed ? `seed file ${flags.seed}: ` : ''}${err.message}`)
    if (err.code === 'EADDRINUSE') {
      throw new StartError(
        `cannot listen: ${err.message} (choose another --port, or --port 0 for a free one)`,
      )
    }
    if (err instanceof StateFileError || err.code === 'EACCES') throw new StartError(err.message)
    const reason = err.code === undefined ? undefined : BIND_ERRORS[err.code]
    if (reason)
      throw new StartError(`cannot listen on ${bracketed(flags.host)}:${flags.port}: ${reason(flags.host)}`)
    throw error
  }
  signals.started(standalone)
  // Stopped while starting: closing now, no URL to print.
  if (signals.requested) return

  const { url } = standalone
  if (!early) announce(url, flags.host)
  out(`  API       ${url}/api/v1   (SDK baseUrl: ${url})`)
  out(`  inspector ${url}/__mock/   (open it in a browser; control endpoints below it)`)
  out(
    `  seed      ${
      standalone.seedFrom === 'option'
        ? flags.seed
        : standalone.seedFrom === 'state file'
          ? `the one recorded in ${flags.state}`
          : 'built-in demo seed'
    }`,
  )
  out(
    `  state     ${
      flags.state === undefined
        ? 'in memory (use --state FILE to keep it)'
        : `${flags.state} (${standalone.state === 'loaded' ? 'loaded' : 'new'})`
    }`,
  )
  out(
    `  webhooks  ${flags.insecureWebhooks ? 'insecure: http:// and private hosts allowed' : 'general: HTTPS and public hosts only (--insecure-webhooks for local receivers)'}`,
  )
  const journalLimit = flags.journalLimit ?? DEFAULT_JOURNAL_LIMIT
  out(
    `  journal   ${journalLimit === 0 ? 'off (--journal-limit 0); answers still carry X-Request-Id' : `last ${journalLimit} API requests at ${url}/__mock/requests`}`,
  )
  const maxNamespaces = flags.maxNamespaces ?? DEFAULT_MAX_NAMESPACES
  out(
    `  namespaces ${maxNamespaces === 0 ? 'off (--max-namespaces 0)' : `up to ${maxNamespaces}: POST ${url}/__mock/namespaces makes one at ${url}/ns/{id}`}`,
  )
  out('')
  out('API keys:')
  out(keyTable(standalone.keys()))
  out('')
  out('Press Ctrl+C to stop.')
}
