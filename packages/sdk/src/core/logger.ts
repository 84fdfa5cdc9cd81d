/** How much the client logs: each level includes the ones after it; `'off'` logs nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off'

/**
 * Where the client logs. `console` fits, and so does any logger with these four methods.
 * Lines never contain the API key: the `Authorization` header is always redacted.
 *
 * - `debug`: each attempt sent (method, URL, redacted headers) and each answer (status, duration).
 * - `info`: what `api.hosting.ensure` found after a lost answer.
 * - `warn`: each automatic retry, with the reason and the delay.
 * - `error`: a request hook that threw or rejected (the call went on).
 */
export interface Logger {
  /** Detailed traffic lines. */
  debug(message: string, details?: Record<string, unknown>): void
  /** Informational lines: how `api.hosting.ensure` settled a lost answer. */
  info(message: string, details?: Record<string, unknown>): void
  /** Something went wrong but the client copes: retries. */
  warn(message: string, details?: Record<string, unknown>): void
  /** A request hook failed (calls never fail for it; their own failures are thrown, not logged). */
  error(message: string, details?: Record<string, unknown>): void
}

/** Every {@link LogLevel}, most verbose first. */
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'off']

/** Whether a line at `level` passes the `threshold`. */
export function logs(threshold: LogLevel, level: Exclude<LogLevel, 'off'>): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold)
}

/** The environment variable that turns on logging to the console where `process.env` exists. */
export const LOG_ENV = 'RESELLER_API_LOG'

/** A value of `RESELLER_API_LOG` that is no level was reported once: a typo should not flood the console. */
let reportedBadEnv = false

/**
 * The level `RESELLER_API_LOG` asks for (`debug`, `info`, `warn`, `error` or `off`, any case), or
 * `undefined`: not set, empty, or no `process.env` here (browsers, most edge runtimes; Deno without
 * env access throws, which reads as not set). Any other value is ignored, with one console warning
 * per process. Read at construction through `globalThis`, so a bundler finds no `process` to shim
 * and a browser bundle is unchanged.
 */
export function logLevelFromEnv(): LogLevel | undefined {
  let value: unknown
  try {
    value = (globalThis as { process?: { env?: Record<string, unknown> } }).process?.env?.[LOG_ENV]
  } catch {
    return undefined
  }
  if (typeof value !== 'string' || value.trim() === '') return undefined
  const level = value.trim().toLowerCase() as LogLevel
  if (LOG_LEVELS.includes(level)) return level
  if (!reportedBadEnv) {
    reportedBadEnv = true
    globalThis.console?.warn(
      `reseller-api: ${LOG_ENV}=${JSON.stringify(value)} is not one of ${LOG_LEVELS.join(', ')}: ignored`,
    )
  }
  return undefined
}

/** Header names whose values are never logged. */
const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
])

/** Headers as a plain object for logging, with credentials replaced by `[redacted]`. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const entries: [string, string][] = []
  headers.forEach((value, name) => {
    entries.push([name, SECRET_HEADERS.has(name.toLowerCase()) ? '[redacted]' : value])
  })
  // fromEntries: a header named `__proto__` (a legal token) is logged, not written to the prototype.
  return Object.fromEntries(entries)
}
