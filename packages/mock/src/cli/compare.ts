/**
 * `reseller-mock compare`: the same scenario against the upstream and a mock made from its import
 * (docs/keeping-the-mock-honest.md).
 *
 *   reseller-mock compare --upstream URL --key KEY [--webhook ID]... [--scenario read|sandbox]
 *                         [--report FILE.json] [--junit FILE.xml] [--allow FILE]
 *
 * Exit codes: 0 when no difference is left after --allow; 1 when any is; 2 on a usage error or
 * when the upstream cannot be reached or refuses the keys.
 */
import { readFile } from 'node:fs/promises'
import { CompareError, compareAccounts } from '../fidelity/compare.js'
import {
  AllowFileError,
  type AllowRule,
  applyAllowRules,
  exitCodeOf,
  formatTable,
  parseAllowFile,
} from '../fidelity/report.js'
import { SCENARIOS, type ScenarioName } from '../fidelity/scenario.js'
import { httpUrlProblem, readCommandLine } from './command-line.js'
import { commandFailure } from './errors.js'
import { fileProblem } from './flag-problems.js'
import { writeReports } from './reports.js'

const USAGE = `Usage: reseller-mock compare --upstream URL --key KEY [--webhook ID]... [--scenario read|sandbox]
                             [--report FILE.json] [--junit FILE.xml] [--allow FILE]

Imports the upstream account (as "reseller-mock import" does), starts a mock from that seed in
this process, sends the same scenario to both and reports every difference, each named by step
and JSON pointer.

Options:
  --upstream URL      the service's base URL (as ResellerApi's baseUrl)
  --key KEY           an API key of the account (repeatable: the first sends the steps its scopes
                      allow; a key lacking a scope is used for the 403 steps)
  --webhook ID        a general webhook whose deliveries to compare (repeatable)
  --scenario NAME     read (default: GET requests only) or sandbox (read, then the writes a
                      sandbox key makes without effect and those it must be refused; svc_test_ keys only)
  --report FILE       write the JSON report { upstream, scenario, steps, differences }
  --junit FILE        write a JUnit XML report, one test case per step
  --allow FILE        known differences, one JSON object { "step"?, "pointer", "kind" } per line
  --help              show this help

Exit codes: 0 no difference left after --allow; 1 differences; 2 usage or connection error.
`

/** A line on stderr and exit code 2. */
const fail = (message: string, usage = false): number => commandFailure('compare', message, usage)

/** The command's flags (parseArgs options). */
const OPTIONS = {
  upstream: { type: 'string' },
  key: { type: 'string', multiple: true },
  webhook: { type: 'string', multiple: true },
  scenario: { type: 'string' },
  report: { type: 'string' },
  junit: { type: 'string' },
  allow: { type: 'string' },
  help: { type: 'boolean' },
} as const

/** Runs the command; resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  const parsed = readCommandLine('compare', USAGE, argv, OPTIONS)
  if (typeof parsed === 'number') return parsed
  const { values } = parsed
  if (values.upstream === undefined) return fail('--upstream URL is required', true)
  const badUpstream = httpUrlProblem('--upstream', values.upstream)
  if (badUpstream) return fail(badUpstream, true)
  if (!values.key || values.key.length === 0) return fail('--key KEY is required', true)
  const scenario = values.scenario ?? 'read'
  if (!(scenario in SCENARIOS))
    return fail(`--scenario must be one of ${Object.keys(SCENARIOS).join(', ')}`, true)
  let rules: AllowRule[] = []
  if (values.allow !== undefined) {
    try {
      rules = parseAllowFile(await readFile(values.allow, 'utf8'), values.allow)
    } catch (error) {
      if (error instanceof AllowFileError) return fail(`--allow: ${error.message}`, true)
      return fail(`--allow: ${values.allow} ${fileProblem(error)}`, true)
    }
  }
  let steps: Awaited<ReturnType<typeof compareAccounts>>['steps']
  try {
    ;({ steps } = await compareAccounts({
      upstream: values.upstream,
      keys: values.key,
      webhooks: values.webhook ?? [],
      scenario: scenario as ScenarioName,
      onProgress: (line) => process.stderr.write(`${line}\n`),
    }))
  } catch (error) {
    if (error instanceof CompareError) return fail(error.message, /^--/.test(error.message))
    return fail((error as Error)?.message ?? String(error))
  }
  const left = applyAllowRules(steps, rules)
  process.stdout.write(formatTable(left))
  try {
    await writeReports(values, left, {
      upstream: values.upstream,
      scenario,
      suite: `reseller-mock compare ${scenario}`,
    })
  } catch (error) {
    return fail(`cannot write the report: ${(error as Error).message}`)
  }
  return exitCodeOf(left)
}
