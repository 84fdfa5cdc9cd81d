/** How a command of `reseller-mock` fails: the class decides the message's form and the exit code. */

/** A problem with the command line: reported in one line on stderr with a pointer to --help, then exit 1. */
export class UsageError extends Error {}

/** A failure to start that no flag syntax explains (the host cannot be bound): one line, exit 1. */
export class StartError extends Error {}

/** Writes `error` to stderr as one line (a stack trace only for an unexpected failure); returns exit code 1. */
export function reportFailure(command: string, error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`${command}: ${error.message}\nRun "${command} --help" for the options.\n`)
  } else if (error instanceof StartError) {
    process.stderr.write(`${command}: ${error.message}\n`)
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
  const help = usage ? `; run "reseller-mock ${command} --help" for the options` : ''
  process.stderr.write(`reseller-mock ${command}: ${message.replace(/\s*\n\s*/g, '; ')}${help}\n`)
  return 2
}
