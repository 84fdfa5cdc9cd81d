import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The built CLI: `pnpm test` builds before running the tests. */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))

export function assertBuilt() {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build the mock first (pnpm run build)`)
}

export interface CliRun {
  child: ChildProcess
  stdout: string[]
  /** Emits `line` for every complete stdout line, after it is pushed to `stdout`. */
  lines: EventEmitter
  stderr: () => string
  /** Resolves with the exit code (or signal) once the process ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Spawns the CLI with `args` (no shell). */
export function spawnCli(args: string[]): CliRun {
  return spawnProcess(process.execPath, [CLI, ...args])
}

/** Spawns `command` with `args` (no shell), its output collected as {@link CliRun} describes. */
export function spawnProcess(command: string, args: string[], options: SpawnOptions = {}): CliRun {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
  const stdout: string[] = []
  const lines = new EventEmitter()
  let stderr = ''
  let partial = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    partial += chunk
    const complete = partial.split('\n')
    partial = complete.pop() ?? ''
    for (const line of complete) {
      stdout.push(line)
      lines.emit('line', line)
    }
  })
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  return { child, stdout, lines, stderr: () => stderr, exited }
}

/** Runs the CLI to its end (bounded): exit code and output. */
export async function runCli(args: string[], timeoutMs = 15_000) {
  const run = spawnCli(args)
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs)
  const { code } = await run.exited
  clearTimeout(timer)
  return { code, stdout: run.stdout.join('\n'), stderr: run.stderr() }
}

/** Waits (bounded) for a stdout line matching `pattern`; returns its match. */
export function waitForLine(run: CliRun, pattern: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer)
      run.lines.off('line', onLine)
      run.child.off('exit', onExit)
    }
    const onLine = (line: string) => {
      const match = line.match(pattern)
      if (!match) return
      stop()
      resolve(match)
    }
    const onExit = (code: number | null) => {
      stop()
      reject(new Error(`CLI exited with ${code} before printing ${pattern}: ${run.stderr()}`))
    }
    const timer = setTimeout(() => {
      stop()
      reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms: ${run.stderr()}`))
    }, timeoutMs)
    run.lines.on('line', onLine)
    run.child.on('exit', onExit)
    for (const line of run.stdout) onLine(line)
    if (run.child.exitCode !== null) onExit(run.child.exitCode)
  })
}

/** Starts the CLI and resolves once it prints its URL. */
export async function startCli(args: string[]) {
  const run = spawnCli(args)
  const [, url] = await waitForLine(run, /listening on (http:\/\/\S+)/)
  return { ...run, url: url! }
}
