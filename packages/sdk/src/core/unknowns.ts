import type { Logger } from './logger.js'
import type { ReadPolicy, UnknownKind } from './reader.js'

/** `data.3.status` → `data[].status`: one field, whichever item of a list held the value. */
function fieldOf(path: readonly PropertyKey[]): string {
  return path.map((key) => (typeof key === 'number' ? '[]' : String(key))).join('.')
}

/**
 * The tolerant reading's reports: the first unknown value or added field of each field of each
 * endpoint is logged once per client at `warn`, so an answer from a newer service is noticed
 * without flooding the log (docs/errors-and-retries.md, "Answers from a newer service").
 */
export class UnknownReports {
  readonly #seen = new Set<string>()
  readonly #logger: Logger | undefined
  readonly #policies = new Map<string, ReadPolicy>()

  constructor(logger: Logger | undefined) {
    this.#logger = logger
  }

  /** The policy for one answer of `endpoint` (`GET /support/tickets/{uuid}`). */
  policy(endpoint: string): ReadPolicy {
    let policy = this.#policies.get(endpoint)
    if (!policy) {
      policy = { strict: false, unknown: (kind, path, value) => this.#report(endpoint, kind, path, value) }
      this.#policies.set(endpoint, policy)
    }
    return policy
  }

  #report(endpoint: string, kind: UnknownKind, path: readonly PropertyKey[], value: unknown): void {
    const logger = this.#logger
    if (!logger) return
    const field = fieldOf(path)
    const key = `${endpoint} ${kind} ${field}`
    if (this.#seen.has(key)) return
    this.#seen.add(key)
    const message =
      kind === 'value'
        ? `reseller-api: ${endpoint}: ${field} holds ${JSON.stringify(value)}, a value this SDK version does not know; passed through as is`
        : `reseller-api: ${endpoint}: ${field} is a field this SDK version does not know; kept on the object as is`
    logger.warn(message, { endpoint, field, ...(kind === 'value' ? { value } : {}) })
  }
}
