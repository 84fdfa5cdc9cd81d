#!/usr/bin/env node
/**
 * `reseller-mock`: the bin of the package. Without a subcommand (no argument, or a first argument
 * that is a flag) it serves the mock over HTTP (`cli/serve.ts`); a first argument naming a
 * subcommand runs that command's module instead, loaded on demand so that starting the server never
 * loads the others. Any other first argument is a usage error (exit 2). Each command module exports
 * `run(argv)`, resolving to the process's exit code (docs/running-the-mock.md lists them all).
 */
import nodeModule from 'node:module'
import { reportFailure, UsageError } from './cli/errors.js'

type CommandModule = { run(argv: string[]): Promise<number> }

/** Subcommands: name → module loader, one line each. A module's `run` resolves to the exit code. */
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  import: () => import('./cli/import.js'),
  compare: () => import('./cli/compare.js'),
  record: () => import('./cli/record.js'),
  replay: () => import('./cli/replay.js'),
  trigger: () => import('./cli/trigger.js'),
  listen: () => import('./cli/listen.js'),
  resend: () => import('./cli/resend.js'),
}

async function main(argv: string[]): Promise<void> {
  // Node's compile cache on disk (its default directory, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE
  // turns it off) for the modules loaded below: compiling them was a fifth of a start of the npm CLI,
  // and later starts read them instead. The single executable carries its own code cache
  // (scripts/build-binary.mjs). Optional: a runtime without it (Bun, Deno) starts as before.
  if (!process.getBuiltinModule('node:sea')?.isSea()) nodeModule.enableCompileCache?.()
  const [name, ...rest] = argv
  if (name === undefined || name.startsWith('-')) {
    const { serve } = await import('./cli/serve.js')
    await serve(argv)
    return
  }
  // Own keys only: `reseller-mock constructor` is no command either.
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
  if (!load) {
    throw new UsageError(`unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})`)
  }
  const code = await (await load()).run(rest)
  process.exitCode = code
  // Done: an idle keep-alive connection to a mock must not hold the process for seconds more.
  setTimeout(() => process.exit(code), 500).unref()
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.exit(reportFailure('reseller-mock', error))
})
