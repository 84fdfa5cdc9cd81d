/**
 * `reseller-mock record`: the seed of the upstream account as the cassette's first line, then a
 * transparent proxy whose every exchange is checked against the OpenAPI document and appended to
 * the cassette (docs/keeping-the-mock-honest.md, "Record and replay").
 */
import { type KeyMode, keyMode } from '@reseller-api/sdk/schemas'
import { CASSETTE_FORMAT, CASSETTE_VERSION, type CassetteSeed } from './cassette.js'
import { CassetteWriter, toCassetteExchange } from './cassette-writer.js'
import { createExchangeChecker, type OpenApiDocumentLike } from './openapi-check.js'
import { type ProxiedExchange, startRecordProxy } from './record-proxy.js'

/** What {@link startRecording} needs. */
export interface RecordOptions {
  /** The upstream's base URL. */
  upstream: URL
  /** The key the seed was imported with: its mode labels the requests made with it. */
  key: string
  /** The seed imported from the upstream, with its new keys (its secrets are hidden in the cassette). */
  seed: CassetteSeed
  /** The OpenAPI document each exchange is checked against. */
  openapi: OpenApiDocumentLike
  out: string
  port: number
  host?: string
  /** Where violations of the document and unreachable upstreams are told (one line each). */
  warn: (line: string) => void
  /** One line per recorded exchange (`#3 GET /api/v1/services → 200`). */
  log?: (line: string) => void
}

/** A recording under way. */
export interface Recording {
  url: string
  /** Exchanges recorded so far. */
  readonly exchanges: number
  /** Stops the proxy once the requests under way are recorded; the cassette is then complete. */
  close(): Promise<void>
}

/** Lower-case header map of raw headers, for the checker. */
function headerMap(rawHeaders: string[]): Record<string, string> {
  const out = new Map<string, string>()
  for (let i = 0; i < rawHeaders.length; i += 2)
    out.set(rawHeaders[i]!.toLowerCase(), rawHeaders[i + 1] ?? '')
  return Object.fromEntries(out)
}

/** Serves the proxy, then writes the cassette's header (a port that cannot be bound leaves `out` as it was). */
export async function startRecording(options: RecordOptions): Promise<Recording> {
  const mode: KeyMode = keyMode(options.key) ?? 'live'
  const checker = createExchangeChecker(options.openapi)
  let writer: CassetteWriter | undefined
  let seq = 0

  const checkSafely = (exchange: ProxiedExchange): string[] => {
    const answer = exchange.answer!
    try {
      return checker.check({
        method: exchange.method,
        path: exchange.path,
        requestHeaders: headerMap(exchange.rawHeaders),
        requestBody: exchange.body.length === 0 ? null : exchange.body.toString('utf8'),
        status: answer.status,
        headers: headerMap(answer.rawHeaders),
        body: answer.body.length === 0 ? null : answer.body.toString('utf8'),
      })
    } catch (error) {
      // A schema the validator cannot use must not stop the recording: it is told, like a violation.
      return [`${exchange.method} ${exchange.path}: could not be checked: ${(error as Error).message}`]
    }
  }

  const onExchange = (exchange: ProxiedExchange) => {
    const violations = exchange.answer === null ? [] : checkSafely(exchange)
    seq += 1
    writer?.append(toCassetteExchange(seq, exchange, options.key, violations))
    const status = exchange.answer?.status ?? 'no answer'
    options.log?.(
      `#${seq} ${exchange.method} ${exchange.path} → ${status}${violations.length > 0 ? ` (${violations.length} violations)` : ''}`,
    )
    for (const violation of violations) options.warn(`reseller-mock record: violation: ${violation}`)
    if (exchange.error !== undefined) options.warn(`reseller-mock record: ${exchange.error}`)
  }

  const proxy = await startRecordProxy({
    upstream: options.upstream,
    port: options.port,
    host: options.host,
    onExchange,
    onError: (exchange, error) =>
      options.warn(
        `reseller-mock record: error: ${exchange.method} ${exchange.path} was answered but not recorded: ${error.message}`,
      ),
  })
  // Created in the continuation of the listen callback: before any connection can be accepted.
  try {
    writer = new CassetteWriter(
      options.out,
      options.seed,
      {
        format: CASSETTE_FORMAT,
        version: CASSETTE_VERSION,
        upstream: options.upstream.href.replace(/\/+$/, ''),
        recorded_at: new Date().toISOString(),
        mode,
      },
      [options.key],
    )
  } catch (error) {
    await proxy.close()
    throw error
  }
  const opened = writer
  return {
    url: proxy.url,
    get exchanges() {
      return seq
    },
    async close() {
      await proxy.close()
      opened.close()
    },
  }
}
