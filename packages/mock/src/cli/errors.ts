/**
 * How a command of `reseller-mock` fails: always one line on stderr; the class decides the exit
 * code. Every command exits 2 on a usage error (an unknown command or flag, a flag's bad value);
 * docs/running-the-mock.md, "Exit codes", lists them all.
 */

/** The exit code of a usage error, for every command. */
export const USAGE_EXIT_CODE = 2

/** A problem with the command line (unknown command or flag, bad flag value): one line, exit 2. */
export class UsageError extends Error {}

/**
 * A failure to start that no flag syntax explains (a seed or state file that cannot be used, a host
 * or port that cannot be bound): one line, exit 1.
 */
export class StartError extends Error {}

/** `message` as one line (a cause may span several). */
function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, '; ')
}

/** The pointer to a command's help that ends the line of a usage error. */
function helpPointer(command: string): string {
  return `; run "${command} --help" for the options`
}

/**
 * Writes `error` to stderr as one line (a stack trace only for an unexpected failure); returns the
 * exit code: {@link USAGE_EXIT_CODE} for a {@link UsageError}, 1 otherwise.
 */
export function reportFailure(command: string, error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`${command}: ${oneLine(error.message)}${helpPointer(command)}\n`)
    return USAGE_EXIT_CODE
  }
  if (error instanceof StartError) {
    process.stderr.write(`${command}: ${oneLine(error.message)}\n`)
  } else {
    process.stderr.write(`${command}: ${(error as Error)?.stack ?? String(error)}\n`)
  }
  return 1
}

/**
 * Writes the failure of subcommand `command` to stderr as one line (ending with a pointer to its
 * `--help` when `usage`); returns exit code 2, which the fidelity commands also use for "nothing
 * was done".
 */
export function commandFailure(command: string, message: string, usage = false): number {
  const help = usage ? helpPointer(`reseller-mock ${command}`) : ''
  process.stderr.write(`reseller-mock ${command}: ${oneLine(message)}${help}\n`)
  return USAGE_EXIT_CODE
}
