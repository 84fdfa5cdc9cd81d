/** How much the client logs: each level includes the ones after it; `'off'` logs nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off'

/**
 * Where the client logs. `console` fits, and so does any logger with these four methods.
 * Lines never contain the API key: the `Authorization` header is always redacted.
 *
 * - `debug`: each attempt sent (method, URL, redacted headers) and each answer (status, duration).
 * - `warn`: each automatic retry, with the reason and the delay.
 */
export interface Logger {
  /** Detailed traffic lines. */
  debug(message: string, details?: Record<string, unknown>): void
  /** Informational lines (none at present; kept for logger compatibility). */
  info(message: string, details?: Record<string, unknown>): void
  /** Something went wrong but the client copes: retries. */
  warn(message: string, details?: Record<string, unknown>): void
  /** Reserved: failures are thrown, not logged. */
  error(message: string, details?: Record<string, unknown>): void
}

/** Every {@link LogLevel}, most verbose first. */
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'off']

/** Whether a line at `level` passes the `threshold`. */
export function logs(threshold: LogLevel, level: Exclude<LogLevel, 'off'>): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold)
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
