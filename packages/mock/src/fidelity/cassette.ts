/**
 * The cassette of `reseller-mock record`: JSON lines. The first line is the seed imported from the
 * upstream, as `reseller-mock import` writes it (new keys, secrets hidden), so that
 * `head -n 1 FILE.jsonl > seed.json` serves the recorded account; the second says where and when it
 * was recorded; each further line is one exchange, appended as it completes
 * (docs/keeping-the-mock-honest.md, "Record and replay"). `replay` reads it back with
 * {@link parseCassette}, which names the line and field of anything it cannot use.
 */
import * as z from 'zod/mini'

/** The `format` of a cassette's first line. */
export const CASSETTE_FORMAT = 'reseller-mock-cassette'
/** The version of the format this mock writes and reads. */
export const CASSETTE_VERSION = 1

const Headers = z.record(z.string(), z.string())

/** The first line: the seed a replay starts from (the mock's seed schema checks it when it loads). */
export const CassetteSeed = z.looseObject({ resellers: z.array(z.unknown()) })
/** The first line of a cassette. */
export type CassetteSeed = z.infer<typeof CassetteSeed>

/** The second line: where and when it was recorded. */
export const CassetteHeader = z.object({
  format: z.literal(CASSETTE_FORMAT),
  version: z.literal(CASSETTE_VERSION),
  upstream: z.string(),
  recorded_at: z.string(),
  /** The mode of the key given to `record` (`live` or `sandbox`). */
  mode: z.enum(['live', 'sandbox']),
})
/** The second line of a cassette. */
export type CassetteHeader = z.infer<typeof CassetteHeader>

/** A request as recorded: the path below the upstream's base URL, query included. */
export const RecordedRequest = z.object({
  method: z.string().check(z.minLength(1, 'must not be empty')),
  path: z.string().check(z.startsWith('/', 'must start with /')),
  /** Header names in lower case; `authorization` holds the key's mode. */
  headers: Headers,
  /** The body as text; `null` when there was none. */
  body: z.nullable(z.string()),
  /** Set when the body is not UTF-8 text: `body` is then its base64. */
  body_encoding: z.optional(z.literal('base64')),
})
/** A request as recorded. */
export type RecordedRequest = z.infer<typeof RecordedRequest>

/** The upstream's answer as recorded; `null` in an exchange the upstream never answered. */
export const RecordedResponse = z.object({
  status: z.int().check(z.minimum(100, 'must be an HTTP status'), z.maximum(599, 'must be an HTTP status')),
  headers: Headers,
  body: z.nullable(z.string()),
  body_encoding: z.optional(z.literal('base64')),
})
/** The upstream's answer as recorded. */
export type RecordedResponse = z.infer<typeof RecordedResponse>

/** One line after the second. */
export const CassetteExchange = z.object({
  /** 1, 2, 3… in the order the answers completed. */
  seq: z.int().check(z.positive('must be 1 or more')),
  /** When the request arrived (wall clock, ISO 8601). */
  at: z.string(),
  request: RecordedRequest,
  response: z.nullable(RecordedResponse),
  /** Why there is no response (the upstream could not be reached). */
  error: z.optional(z.string()),
  /** Where the exchange disagrees with the OpenAPI document (printed while recording, too). */
  violations: z._default(z.array(z.string()), []),
})
/** One exchange of a cassette. */
export type CassetteExchange = z.infer<typeof CassetteExchange>

/** A cassette read back. */
export interface Cassette {
  seed: CassetteSeed
  header: CassetteHeader
  exchanges: CassetteExchange[]
}

/** A cassette that cannot be used; the message names the line and the field. */
export class CassetteError extends Error {
  override name = 'CassetteError'
}

/** One JSON line (no line break inside: JSON.stringify escapes them). */
export function cassetteLine(value: CassetteSeed | CassetteHeader | CassetteExchange): string {
  return `${JSON.stringify(value)}\n`
}

function issuesOf(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length === 0 ? '(line)' : issue.path.join('.')}: ${issue.message}`)
    .join('; ')
}

/**
 * Reads a cassette. A last line without its line break is a line cut by a crash: it is dropped if it
 * is not whole JSON. Any other line that is not JSON, or not of the format, throws a
 * {@link CassetteError} naming it.
 */
export function parseCassette(text: string, file = 'cassette'): Cassette {
  const lines = text.split('\n')
  const cutShort = lines.at(-1) !== ''
  if (!cutShort) lines.pop()
  if (lines.length === 0 || lines[0]!.trim() === '') {
    throw new CassetteError(`${file} is empty: its first line must be the seed that record writes`)
  }
  const values: unknown[] = []
  for (const [index, line] of lines.entries()) {
    try {
      values.push(JSON.parse(line))
    } catch (error) {
      if (cutShort && index === lines.length - 1 && index > 1) break
      throw new CassetteError(`${file} line ${index + 1} is not JSON: ${(error as Error).message}`)
    }
  }
  const seed = CassetteSeed.safeParse(values[0])
  if (!seed.success) {
    throw new CassetteError(
      `${file} line 1 is not a seed (the first line record writes): ${issuesOf(seed.error)}`,
    )
  }
  const header = CassetteHeader.safeParse(values[1])
  if (!header.success) {
    throw new CassetteError(
      `${file} line 2 is not the header of a ${CASSETTE_FORMAT} version ${CASSETTE_VERSION}: ${issuesOf(header.error)}`,
    )
  }
  const exchanges = values.slice(2).map((value, index) => {
    const exchange = CassetteExchange.safeParse(value)
    if (!exchange.success) throw new CassetteError(`${file} line ${index + 3}: ${issuesOf(exchange.error)}`)
    return exchange.data
  })
  return { seed: seed.data, header: header.data, exchanges }
}
