/** Reading a subcommand's flags: the part every fidelity command shares (`import`, `compare`, `record`, `replay`). */
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util'
import { commandFailure } from './errors.js'
import { describeParseArgsError } from './flag-problems.js'

type Parsed<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>
>

/**
 * The flags and positionals of `reseller-mock <command>`, or the exit code to end with: 2 after a
 * flag parseArgs refuses (one line with a pointer to `--help`), 0 after `--help` printed `usage`.
 * Positionals are refused unless `allowPositionals`.
 */
export function readCommandLine<O extends ParseArgsOptionsConfig>(
  command: string,
  usage: string,
  argv: string[],
  options: O,
  allowPositionals = false,
): Parsed<O> | number {
  let parsed: Parsed<O>
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals }) as Parsed<O>
  } catch (error) {
    return commandFailure(command, describeParseArgsError(error, Object.keys(options)), true)
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(usage)
    return 0
  }
  return parsed
}

/** Why `value` of `flag` is not an http:// or https:// URL, or `undefined` when it is one. */
export function httpUrlProblem(flag: string, value: string): string | undefined {
  const url = URL.canParse(value) ? new URL(value) : undefined
  if (url?.protocol === 'http:' || url?.protocol === 'https:') return undefined
  return `${flag} must be an http:// or https:// URL, got "${value}"`
}
