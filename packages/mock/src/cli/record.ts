/**
 * `reseller-mock record`: a transparent proxy in front of a deployment of the API that writes a
 * redacted cassette for `replay` (docs/keeping-the-mock-honest.md, "Record and replay").
 *
 *   reseller-mock record --upstream URL --key KEY --out FILE.jsonl [--port N] [--webhook ID]...
 *
 * Exit codes: 0 after SIGINT/SIGTERM (the cassette is complete); 2 on a usage error, when the
 * upstream cannot be imported, or when the port cannot be bound.
 */
import { keyMode } from '@reseller-api/sdk/schemas'
import type { CassetteSeed } from '../fidelity/cassette.js'
import { ImportError, importAccount } from '../fidelity/import.js'
import { servedOpenApiDocument } from '../fidelity/openapi-document.js'
import { type Recording, startRecording } from '../fidelity/record.js'
import { httpUrlProblem, readCommandLine } from './command-line.js'
import { commandFailure } from './errors.js'

const USAGE = `Usage: reseller-mock record --upstream URL --key KEY --out FILE.jsonl [--port N] [--webhook ID]...

Imports the account KEY sees on the upstream into the cassette's first line, then serves a proxy at
http://127.0.0.1:PORT that forwards every request to the upstream unchanged and answers with the
upstream's answer unchanged. Each exchange is checked against the OpenAPI document (violations are
printed on stderr) and appended to the cassette, with Authorization replaced by the key's mode
(live, sandbox) and every "secret" field by "[redacted]". Point your application's base URL at the
proxy; "reseller-mock replay FILE.jsonl" then replays the cassette against the mock, offline.

Options:
  --upstream URL    the service's base URL (as ResellerApi's baseUrl)
  --key KEY         the API key to import the account with (svc_live_… or svc_test_…); never written
  --out FILE.jsonl  the cassette to write (replaced if it exists)
  --port N          port of the proxy on 127.0.0.1 (default 4010; 0 takes a free port)
  --webhook ID      a general webhook whose deliveries to import (repeatable)
  --quiet           no line per exchange on stdout
  --help            show this help

Exit codes: 0 stopped by Ctrl+C or SIGTERM (the cassette is complete); 2 usage error, upstream not
imported, or port not available.
`

/** A line on stderr and exit code 2. */
const fail = (message: string, usage = false): number => commandFailure('record', message, usage)

/** The command's flags (parseArgs options). */
const OPTIONS = {
  upstream: { type: 'string' },
  key: { type: 'string' },
  out: { type: 'string' },
  port: { type: 'string' },
  webhook: { type: 'string', multiple: true },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** The first SIGINT or SIGTERM, from the moment the command starts: the import can be stopped too. */
function firstSignal() {
  const state: { received?: NodeJS.Signals; promise: Promise<NodeJS.Signals> } = {
    promise: new Promise((resolve) => {
      const on = (signal: NodeJS.Signals) => {
        state.received ??= signal
        resolve(signal)
      }
      process.once('SIGINT', on)
      process.once('SIGTERM', on)
    }),
  }
  return state
}

interface Flags {
  upstream: URL
  key: string
  out: string
  port: number
  webhooks: string[]
  quiet: boolean
}

/** The flags, or the exit code of a usage error (reported) or of `--help`. */
function readFlags(argv: string[]): Flags | number {
  const parsed = readCommandLine('record', USAGE, argv, OPTIONS)
  if (typeof parsed === 'number') return parsed
  const { values } = parsed
  if (values.upstream === undefined) return fail('--upstream URL is required', true)
  const badUpstream = httpUrlProblem('--upstream', values.upstream)
  if (badUpstream) return fail(badUpstream, true)
  const upstream = new URL(values.upstream)
  if (values.key === undefined) return fail('--key KEY is required', true)
  if (keyMode(values.key) === undefined)
    return fail('--key: not a reseller API key (svc_live_… or svc_test_…; the key was not shown)', true)
  if (values.out === undefined || values.out.trim() === '') return fail('--out FILE.jsonl is required', true)
  const rawPort = values.port ?? '4010'
  if (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) > 65535)
    return fail(`--port must be a whole number from 0 to 65535, got "${rawPort}"`, true)
  return {
    upstream,
    key: values.key,
    out: values.out,
    port: Number(rawPort),
    webhooks: values.webhook ?? [],
    quiet: values.quiet ?? false,
  }
}

const out = (line: string) => process.stdout.write(`${line}\n`)
const warn = (line: string) => process.stderr.write(`${line}\n`)

/** Runs the command; resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  const flags = readFlags(argv)
  if (typeof flags === 'number') return flags
  const stop = firstSignal()
  const stoppedEarly = () => {
    out(`reseller-mock record stopped (${stop.received}) before recording: nothing written`)
    return 0
  }
  // A signal during the import aborts its requests.
  const aborted = new AbortController()
  stop.promise.then(() => aborted.abort())
  let seed: CassetteSeed
  try {
    const imported = await importAccount({
      baseUrl: flags.upstream.href,
      keys: [flags.key],
      webhooks: flags.webhooks,
      onProgress: warn,
      fetch: (input, init) => {
        const own = init?.signal ?? (input instanceof Request ? input.signal : undefined)
        return fetch(input, {
          ...init,
          signal: own ? AbortSignal.any([own, aborted.signal]) : aborted.signal,
        })
      },
    })
    seed = imported.seed as CassetteSeed
  } catch (error) {
    if (stop.received) return stoppedEarly()
    if (error instanceof ImportError) return fail(error.message)
    throw error
  }
  if (stop.received) return stoppedEarly()

  let recording: Recording
  try {
    recording = await startRecording({
      upstream: flags.upstream,
      key: flags.key,
      seed,
      openapi: await servedOpenApiDocument(),
      out: flags.out,
      port: flags.port,
      warn,
      log: flags.quiet ? undefined : out,
    })
  } catch (error) {
    const err = error as Error & { code?: string }
    if (err.code === 'EADDRINUSE')
      return fail(
        `cannot listen: port ${flags.port} is in use (choose another --port, or --port 0 for a free one)`,
      )
    if (err.code === 'EACCES' || err.code === 'ENOENT' || err.code === 'EISDIR')
      return fail(`cannot write ${flags.out}: ${err.message}`)
    throw error
  }
  if (!stop.received) {
    out(`reseller-mock record listening on ${recording.url}`)
    out(`  upstream  ${flags.upstream.href.replace(/\/+$/, '')}`)
    out(`  cassette  ${flags.out} (the account's seed, then one line per exchange)`)
    out(`  Point your application's base URL at ${recording.url}; press Ctrl+C to stop.`)
  }
  const signal = await stop.promise
  try {
    await recording.close()
  } catch (error) {
    return fail(`error while stopping: ${(error as Error).message}`)
  }
  const n = recording.exchanges
  out(`reseller-mock record stopped (${signal}): ${n} exchange${n === 1 ? '' : 's'} in ${flags.out}`)
  return 0
}
