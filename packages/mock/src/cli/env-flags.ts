/**
 * The standalone server's flags from the environment (docs/without-node.md, "Settings from the
 * environment"): `RESELLER_MOCK_<FLAG>`, upper case with `-` as `_`, for every flag but `--help` and
 * `--version`. What container images, Compose files and CI `services:` blocks set, since they cannot
 * always pass arguments. The variables become command-line arguments placed before the real ones, so
 * that one parser checks both; a flag given on the command line wins over its variable (its variable
 * is then not read at all, a repeatable flag's list included).
 */
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util'
import { UsageError } from './errors.js'
import { closestFlag } from './flag-problems.js'

/** The prefix of every variable this module reads. */
export const ENV_PREFIX = 'RESELLER_MOCK_'

/**
 * Variables of the prefix that belong to the mock's clients, not to the server: `RESELLER_MOCK_URL`
 * tells test code where a running mock is (docs/parallel-tests.md). The server ignores them, so one
 * CI variable can reach the tests and a service container alike.
 */
const CLIENT_VARIABLES = new Set(['RESELLER_MOCK_URL'])

/** Flags that are questions to the CLI rather than settings of the server: no variable. */
const NOT_SETTINGS = new Set(['help', 'version'])

const TRUE = new Set(['1', 'true', 'yes', 'on'])
const FALSE = new Set(['0', 'false', 'no', 'off'])

/** Arguments made from the environment, and the variable each flag came from (for error messages). */
export interface EnvironmentFlags {
  /** `--name=value` arguments, to be placed before the command line's. */
  args: string[]
  /** Flag name (without `--`) → the variable it was read from. */
  variables: Map<string, string>
}

/** `allowed-host` → `RESELLER_MOCK_ALLOWED_HOST`. */
export function variableName(flag: string): string {
  return `${ENV_PREFIX}${flag.toUpperCase().replaceAll('-', '_')}`
}

/** Names of the flags the command line gives (long names; short ones resolved), valid or not. */
function flagsOnCommandLine(argv: string[], options: ParseArgsOptionsConfig): Set<string> {
  const { tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true })
  return new Set(tokens.flatMap((token) => (token.kind === 'option' ? [token.name] : [])))
}

/**
 * Reads `RESELLER_MOCK_*` from `env` for the flags of `options` that `argv` does not give. An empty
 * variable counts as unset (as `KEY=` in a Compose file means). Throws a {@link UsageError} naming
 * the variable for a name that is no flag's and for a switch whose value is not a boolean word; the
 * values of other flags are checked by the caller, as the command line's are.
 */
export function flagsFromEnvironment(
  options: ParseArgsOptionsConfig,
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): EnvironmentFlags {
  const settings = Object.keys(options).filter((name) => !NOT_SETTINGS.has(name))
  const byVariable = new Map(settings.map((name) => [variableName(name), name]))
  const given = flagsOnCommandLine(argv, options)
  const args: string[] = []
  const variables = new Map<string, string>()
  for (const [variable, raw] of Object.entries(env)) {
    if (!variable.startsWith(ENV_PREFIX) || raw === undefined || CLIENT_VARIABLES.has(variable)) continue
    const name = byVariable.get(variable)
    if (name === undefined) {
      const flag = variable.slice(ENV_PREFIX.length).toLowerCase().replaceAll('_', '-')
      const guess = closestFlag(flag, settings)
      throw new UsageError(
        `${variable} is not a setting of reseller-mock${guess ? ` (did you mean ${variableName(guess.slice(2))}?)` : ''}; the variables are ${[...byVariable.keys()].join(', ')}`,
      )
    }
    const value = raw.trim()
    if (value === '' || given.has(name)) continue
    variables.set(name, variable)
    const option = options[name]!
    if (option.type === 'boolean') {
      const word = value.toLowerCase()
      if (TRUE.has(word)) args.push(`--${name}`)
      else if (!FALSE.has(word))
        throw new UsageError(`${variable}: must be true or false (or 1/0, yes/no, on/off), got "${raw}"`)
    } else if (option.multiple) {
      // An empty entry (`a,,b`) is passed on: the caller refuses it as it refuses `--flag ""`.
      for (const item of value.split(',')) args.push(`--${name}=${item.trim()}`)
    } else {
      args.push(`--${name}=${value}`)
    }
  }
  return { args, variables }
}
