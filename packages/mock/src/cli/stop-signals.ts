/**
 * SIGINT and SIGTERM of the standalone server, handled from before it starts: the handlers are in
 * place before the state file is opened and before the URL line is printed, so a script that sends
 * SIGTERM as soon as it reads that line (or earlier) gets the clean stop, exit code 0, and never the
 * default death by signal. A stop that arrives while the server is starting waits for the start to
 * end, then closes what it started (state file, lock). A second signal exits at once with code 1.
 */

/** Something the signal handlers close: the started server. */
export interface Closable {
  close(options: { exiting: true }): Promise<void>
}

/** The server's stop handling, from {@link handleStopSignals}. */
export interface StopSignals {
  /** Whether a signal arrived already (a start not yet begun need not begin). */
  readonly requested: boolean
  /** Hands over the started server: closed at once when a signal came during its start. */
  started(server: Closable): void
  /** Ends the process as a stop before anything started: the "stopped" line, exit code 0. */
  stopNow(): never
}

/**
 * Installs the SIGINT and SIGTERM handlers; `out` writes a line to stdout, `err` to stderr. Call it
 * before anything of the server starts.
 */
export function handleStopSignals(out: (line: string) => void, err: (line: string) => void): StopSignals {
  let signal: NodeJS.Signals | undefined
  let server: Closable | undefined

  // --quiet silences the request log only: a script waits for this line as for the first.
  const stopped = (): never => {
    out(`reseller-mock stopped (${signal})`)
    process.exit(0)
  }
  const close = (target: Closable) => {
    // The process ends next: tables of the state file nothing used need not be read.
    target.close({ exiting: true }).then(stopped, (error: Error) => {
      err(`reseller-mock: error while stopping: ${error.message}`)
      process.exit(1)
    })
  }
  const onSignal = (received: NodeJS.Signals) => {
    if (signal !== undefined) {
      err(`reseller-mock: ${received} again, exiting at once`)
      process.exit(1)
    }
    signal = received
    if (server) close(server)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)

  return {
    get requested() {
      return signal !== undefined
    },
    started(target) {
      server = target
      if (signal !== undefined) close(target)
    },
    stopNow: stopped,
  }
}
