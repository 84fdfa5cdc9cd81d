/**
 * Writes a cassette line by line: each line whole (one `write` loop) by the one writer of the file,
 * then flushed to disk, so a recorder stopped at any moment (a signal, a crash) leaves whole lines.
 * Turns what the proxy saw into the redacted form of `cassette.ts`.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs'
import { type CassetteExchange, type CassetteHeader, type CassetteSeed, cassetteLine } from './cassette.js'
import { REDACTED, redactBodyText, redactHeader, redactJson } from './cassette-redact.js'
import type { ProxiedExchange } from './record-proxy.js'

/** Headers that describe one connection or one encoding of the body, not the message. */
const NOT_RECORDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'te',
  'upgrade',
])

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** A body as the cassette keeps it: redacted text, or base64 when it is not UTF-8. */
export function recordedBody(bytes: Buffer): { body: string | null; body_encoding?: 'base64' } {
  if (bytes.length === 0) return { body: null }
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return { body: bytes.toString('base64'), body_encoding: 'base64' }
  }
  return { body: redactBodyText(text) }
}

/** Raw headers (name, value, name, value…) as a redacted map, names in lower case, repeats joined. */
export function recordedHeaders(rawHeaders: string[], recordedKey: string): Record<string, string> {
  const out = new Map<string, string>()
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase()
    if (NOT_RECORDED.has(name)) continue
    const value = redactHeader(name, rawHeaders[i + 1] ?? '', recordedKey)
    const before = out.get(name)
    out.set(name, before === undefined ? value : before === REDACTED ? REDACTED : `${before}, ${value}`)
  }
  return Object.fromEntries(out)
}

/** The cassette's line for one exchange (everything redacted). */
export function toCassetteExchange(
  seq: number,
  exchange: ProxiedExchange,
  recordedKey: string,
  violations: string[],
): CassetteExchange {
  const { answer } = exchange
  const line: CassetteExchange = {
    seq,
    at: exchange.at.toISOString(),
    request: {
      method: exchange.method,
      path: exchange.path,
      headers: recordedHeaders(exchange.rawHeaders, recordedKey),
      ...recordedBody(exchange.body),
    },
    response:
      answer === null
        ? null
        : {
            status: answer.status,
            headers: recordedHeaders(answer.rawHeaders, recordedKey),
            ...recordedBody(answer.body),
          },
    violations,
  }
  if (exchange.error !== undefined) line.error = exchange.error
  return line
}

/**
 * The seed with every `secret` hidden. Its API keys are the import's new ones (they open only a mock
 * made from this seed) and stay: `replay` sends them, and `head -n 1` of a cassette is a seed.
 */
export function redactSeed(seed: CassetteSeed): CassetteSeed {
  type Reseller = { api_keys?: { key?: unknown }[] }
  const original = seed.resellers as Reseller[]
  const hidden = redactJson(seed)
  // redactJson hides every key-shaped string: the seed's own keys go back where they were.
  const resellers = (hidden.resellers as Reseller[]).map((reseller, r) =>
    reseller.api_keys === undefined
      ? reseller
      : {
          ...reseller,
          api_keys: reseller.api_keys.map((entry, k) => ({ ...entry, key: original[r]!.api_keys![k]!.key })),
        },
  )
  return { ...hidden, resellers }
}

/** An open cassette file. */
export class CassetteWriter {
  readonly #fd: number
  readonly #secrets: string[]
  #closed = false

  /**
   * Creates (or empties) `path` and writes the seed (its secrets hidden) and the header line.
   * @param secrets strings that must never reach the file (the recorded key): replaced if met.
   */
  constructor(path: string, seed: CassetteSeed, header: CassetteHeader, secrets: string[]) {
    this.#fd = openSync(path, 'w')
    this.#secrets = secrets.filter((secret) => secret.length > 0)
    this.#write(cassetteLine(redactSeed(seed)))
    this.#write(cassetteLine(header))
  }

  /** Appends one exchange as one whole line, on disk when it returns. */
  append(exchange: CassetteExchange): void {
    if (this.#closed) return
    this.#write(cassetteLine(exchange))
  }

  #write(line: string): void {
    let text = line
    for (const secret of this.#secrets) text = text.replaceAll(secret, REDACTED)
    const bytes = Buffer.from(text)
    let written = 0
    while (written < bytes.length) written += writeSync(this.#fd, bytes, written, bytes.length - written)
    fsyncSync(this.#fd)
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    closeSync(this.#fd)
  }
}
