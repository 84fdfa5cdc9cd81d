/**
 * `reseller-mock replay`: a cassette of `record` against a fresh mock, offline, compared as
 * `compare` does (docs/keeping-the-mock-honest.md, "Record and replay").
 *
 *   reseller-mock replay FILE.jsonl [--report FILE.json] [--junit FILE.xml] [--allow FILE]
 *
 * Exit codes: 0 no difference left after --allow; 1 differences; 2 usage or file errors.
 */
import { readFile } from 'node:fs/promises'
import { CassetteError, parseCassette } from '../fidelity/cassette.js'
import { servedOpenApiDocument } from '../fidelity/openapi-document.js'
import { replayCassette } from '../fidelity/replay.js'
import {
  AllowFileError,
  applyAllowRules,
  exitCodeOf,
  formatTable,
  parseAllowFile,
} from '../fidelity/report.js'
import { readCommandLine } from './command-line.js'
import { commandFailure } from './errors.js'
import { fileProblem } from './flag-problems.js'
import { writeReports } from './reports.js'

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

/** The command's flags (parseArgs options). */
const OPTIONS = {
  report: { type: 'string' },
  junit: { type: 'string' },
  allow: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    throw new CassetteError(`${what} ${path} ${fileProblem(error)}`)
  }
}

/** Runs the command; resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  const parsed = readCommandLine('replay', USAGE, argv, OPTIONS, true)
  if (typeof parsed === 'number') return parsed
  const { values, positionals } = parsed
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
    await writeReports(values, steps, {
      upstream: cassette.header.upstream,
      scenario: 'replay',
      suite: `replay ${file}`,
    })
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
