#!/usr/bin/env node
/**
 * `reseller-mock`: the bin of the package. Without a subcommand it serves the mock over HTTP
 * (`cli/serve.ts`); a first argument naming a subcommand runs that command's module instead, loaded
 * on demand so that starting the server never loads the others. Each command module exports
 * `run(argv)`, resolving to the process's exit code (docs/running-the-mock.md lists them all).
 */
import { reportFailure } from './cli/errors.js'

/** Subcommands: name → module loader. A module's `run` resolves to the exit code. */
const COMMANDS: Record<string, () => Promise<{ run(argv: string[]): Promise<number> }>> = {
  import: () => import('./cli/import.js'),
  compare: () => import('./cli/compare.js'),
  record: () => import('./cli/record.js'),
  replay: () => import('./cli/replay.js'),
  trigger: () => import('./cli/trigger.js'),
  listen: () => import('./cli/listen.js'),
  resend: () => import('./cli/resend.js'),
}

async function main(argv: string[]): Promise<void> {
  const command = argv[0] === undefined ? undefined : COMMANDS[argv[0]]
  if (command) {
    const code = await (await command()).run(argv.slice(1))
    process.exitCode = code
    // Done: an idle keep-alive connection to a mock must not hold the process for seconds more.
    setTimeout(() => process.exit(code), 500).unref()
    return
  }
  const { serve } = await import('./cli/serve.js')
  await serve(argv)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.exit(reportFailure('reseller-mock', error))
})
