/**
 * `reseller-mock replay`: a cassette of `record` against a fresh mock, offline, compared as
 * `compare` does (docs/keeping-the-mock-honest.md, "Record and replay").
 *
 *   reseller-mock replay FILE.jsonl [--report FILE.json] [--junit FILE.xml] [--allow FILE]
 *
 * Exit codes: 0 no difference left after --allow; 1 differences; 2 usage or file errors.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { CassetteError, parseCassette } from '../fidelity/cassette.js'
import { servedOpenApiDocument } from '../fidelity/openapi-document.js'
import { replayCassette } from '../fidelity/replay.js'
import {
  AllowFileError,
  applyAllowRules,
  buildReport,
  exitCodeOf,
  formatJunit,
  formatTable,
  parseAllowFile,
} from '../fidelity/report.js'
import { commandFailure } from './errors.js'

const USAGE = `Usage: reseller-mock replay FILE.jsonl [--report FILE.json] [--junit FILE.xml] [--allow FILE]

Starts a mock from the seed recorded in FILE.jsonl (a cassette of "reseller-mock record"), sends it
the recorded requests in order (ids the upstream made are mapped to the ones the mock makes), and
compares each answer with the recorded one as "reseller-mock compare" does. Needs no network.

Options:
  --report FILE.json  write the JSON report { upstream, scenario, steps, differences }
  --junit FILE.xml    write JUnit XML, one test case per exchange
  --allow FILE        known differences, one JSON object a line: { "step"?, "pointer", "kind" }
                      (steps are named by the exchange's number: "#3")
  --help              show this help

Exit codes: 0 no difference left after --allow; 1 differences; 2 usage or file errors.
`

/** A line on stderr and exit code 2. */
const fail = (message: string, usage = false): number => commandFailure('replay', message, usage)

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      report: { type: 'string' },
      junit: { type: 'string' },
      allow: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    throw new CassetteError(`cannot read ${what} ${path}: ${(error as Error).message}`)
  }
}

/** Runs the command; resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    return fail((error as Error).message, true)
  }
  const { values, positionals } = parsed
  if (values.help) {
    process.stdout.write(USAGE)
    return 0
  }
  if (positionals.length === 0) return fail('the cassette FILE.jsonl is required', true)
  if (positionals.length > 1) return fail(`one cassette at a time, got ${positionals.length}`, true)
  const file = positionals[0]!
  try {
    const cassette = parseCassette(await readText(file, 'the cassette'), file)
    const rules =
      values.allow === undefined
        ? []
        : parseAllowFile(await readText(values.allow, 'the allow file'), values.allow)
    const warn = (line: string) => process.stderr.write(`reseller-mock replay: ${line}\n`)
    const steps = applyAllowRules(
      await replayCassette(cassette, { openapi: await servedOpenApiDocument(), warn }),
      rules,
    )
    process.stdout.write(formatTable(steps))
    const upstream = cassette.header.upstream
    if (values.report !== undefined)
      await writeFile(values.report, `${JSON.stringify(buildReport(upstream, 'replay', steps), null, 2)}\n`)
    if (values.junit !== undefined) await writeFile(values.junit, formatJunit(`replay ${file}`, steps))
    return exitCodeOf(steps)
  } catch (error) {
    if (error instanceof CassetteError || error instanceof AllowFileError) return fail(error.message)
    if (error instanceof Error && error.name === 'SeedError')
      return fail(`${file} line 1: the seed: ${error.message}`)
    const code = (error as { code?: string }).code
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') return fail((error as Error).message)
    throw error
  }
}
