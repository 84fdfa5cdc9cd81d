/**
 * `reseller-mock import`: a seed from a real account (docs/keeping-the-mock-honest.md,
 * "Importing an account").
 *
 *   reseller-mock import --from URL --key KEY [--key KEY]... [--webhook ID]... [--out FILE] [--redact]
 *
 * Exit codes: 0 on success; 2 on a usage error, or when the service cannot be reached or refuses
 * every key (one line on stderr, nothing written).
 */
import { rename, writeFile } from 'node:fs/promises'
import { ImportError, importAccount } from '../fidelity/import.js'
import { readCommandLine } from './command-line.js'
import { commandFailure } from './errors.js'

const USAGE = `Usage: reseller-mock import --from URL --key KEY [--key KEY]... [--webhook ID]... [--out FILE] [--redact]

Reads an account of the API through the SDK (GET requests only) and writes a seed that
"reseller-mock --seed FILE" and createMockApi({ seed }) load as they are. The keys given are never
written: the seed gets new keys of the same modes and observed scopes, printed on stderr.

Options:
  --from URL        the service's base URL (as ResellerApi's baseUrl)
  --key KEY         an API key of the account (repeatable; each key's scopes are observed)
  --webhook ID      a general webhook whose deliveries to import (repeatable)
  --out FILE        write the seed to FILE (default: stdout)
  --redact          replace ticket subjects and messages, domains, names and emails by stable
                    placeholders of the same shape
  --concurrency N   requests in flight at most (default 8)
  --help            show this help

Exit codes: 0 done; 2 usage error, service unreachable or every key refused (nothing written).
`

/** A line on stderr and exit code 2. */
const fail = (message: string, usage = false): number => commandFailure('import', message, usage)

/** Runs the command; resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  const parsed = readCommandLine('import', USAGE, argv, OPTIONS)
  if (typeof parsed === 'number') return parsed
  const { values } = parsed
  if (values.from === undefined) return fail('--from URL is required', true)
  if (!values.key || values.key.length === 0) return fail('--key KEY is required', true)
  const concurrency = values.concurrency === undefined ? 8 : Number(values.concurrency)
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
    return fail('--concurrency must be an integer from 1 to 64', true)
  try {
    const { seed, keys } = await importAccount({
      baseUrl: values.from,
      keys: values.key,
      webhooks: values.webhook ?? [],
      redact: values.redact === true,
      concurrency,
      onProgress: (line) => process.stderr.write(`${line}\n`),
    })
    const json = `${JSON.stringify(seed, null, 2)}\n`
    if (values.out === undefined) {
      process.stdout.write(json)
    } else {
      const temporary = `${values.out}.${process.pid}.tmp`
      await writeFile(temporary, json, { mode: 0o600 })
      await rename(temporary, values.out)
      process.stderr.write(`import: seed written to ${values.out}\n`)
    }
    for (const key of keys) {
      process.stderr.write(
        `import: new ${key.mode} key ${key.key} (scopes: ${key.scopes.join(', ') || 'none'})\n`,
      )
    }
    return 0
  } catch (error) {
    if (error instanceof ImportError) return fail(error.message, /--/.test(error.message))
    return fail(`${(error as Error)?.message ?? String(error)}`)
  }
}

/** The command's flags (parseArgs options). */
const OPTIONS = {
  from: { type: 'string' },
  key: { type: 'string', multiple: true },
  webhook: { type: 'string', multiple: true },
  out: { type: 'string' },
  redact: { type: 'boolean' },
  concurrency: { type: 'string' },
  help: { type: 'boolean' },
} as const
