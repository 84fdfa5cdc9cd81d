/**
 * The request journal: the last N API requests in a ring buffer. Recording costs
 * one small object per request and no serialization: the raw body string and the query are kept
 * as they came and turned into the wire entry only when somebody lists the journal.
 */
import { nestsDeeperThan } from '../routing/json-depth.js'
import type { MockResponse } from '../routing/types.js'
import { redactQuery, redactSecrets } from './redact.js'
import type { JournalEntry } from './schema.js'

/** What the journal keeps of an answer: references only, parsed when listed. */
export interface JournalAnswer {
  status: number
  /** Lower-case names, as the answer carries them. */
  headers: Record<string, string>
  /** The answer's JSON text; `''` when it was over {@link JOURNAL_ANSWER_MAX_BYTES} (see `bytes`). */
  body: string
  /** The body's size in UTF-8 bytes when it was too large to keep, else `0`. */
  truncatedBytes: number
}

/** What the core records about one API request. */
export interface JournalRecord {
  id: string
  /** Mock time of arrival, ms since the epoch. */
  atMs: number
  method: string
  /** Path without its query. */
  path: string
  /** The query string with its `?`, or `''`. */
  search: string
  route: string | null
  keyMode: 'live' | 'sandbox' | null
  resellerId: number | null
  /** `null` for a dropped answer. */
  status: number | null
  errorCode: string | null
  /** The raw request body, parsed only when listed. */
  body: string
  fault: string | null
  /** The answer; `null` while unanswered and for a dropped request. */
  response: JournalAnswer | null
}

/** Default number of entries kept. */
export const DEFAULT_JOURNAL_LIMIT = 1000

/**
 * Longest request body kept, in characters: any valid body of the API is far shorter (a ticket
 * message is at most 5,000), and a full journal stays within a few tens of MB whatever is sent.
 * A longer body is journaled as `null`.
 */
export const JOURNAL_BODY_MAX = 16_384

/** Largest answer body listed, in UTF-8 bytes (64 KiB); a larger one is listed as `{ truncated, bytes }`. */
export const JOURNAL_ANSWER_MAX_BYTES = 65_536

/** Size of `text` in UTF-8 bytes, counted without encoding it (no `node:` import in this graph). */
function utf8Bytes(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) continue
    if (code < 0x800) bytes += 1
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair: two UTF-16 units, four bytes.
      bytes += 2
      i++
    } else bytes += 2
  }
  return bytes
}

/**
 * What the journal keeps of `response`: the same header object and body string (no copy), or,
 * for a body over {@link JOURNAL_ANSWER_MAX_BYTES}, only its size, so a full journal holds no
 * large answers.
 */
export function journalAnswer(response: MockResponse): JournalAnswer {
  const { body } = response
  // Each UTF-16 unit is at most 3 bytes: short bodies need no count.
  const bytes = body.length * 3 <= JOURNAL_ANSWER_MAX_BYTES ? 0 : utf8Bytes(body)
  return bytes > JOURNAL_ANSWER_MAX_BYTES
    ? { status: response.status, headers: response.headers, body: '', truncatedBytes: bytes }
    : { status: response.status, headers: response.headers, body, truncatedBytes: 0 }
}

/** A parsed filter: method upper-case, status a number. */
export type ParsedJournalFilter = {
  method?: string
  route?: string
  path?: string
  status?: number | null
  /** A request id: only the entries that arrived after it. */
  after?: string
}

/** The request journal of one mock. */
export interface Journal {
  /** Entries kept at most; `0`: nothing is recorded. */
  readonly limit: number
  /** A new request id, never handed out before by this journal (`clear()` does not rewind it). */
  nextId(): string
  /** Keeps `record`, dropping the oldest entry when full. */
  record(record: JournalRecord): void
  /** Entries oldest first, as wire entries (fresh objects: changing them changes nothing). */
  list(filter?: ParsedJournalFilter): JournalEntry[]
  /** Forgets every entry; ids keep counting. */
  clear(): number
  /** Tells the journal that a recorded request got its answer (its status was filled in). */
  answered(): void
  /**
   * Counts every change: an entry recorded or answered, a clear. The inspector's stream compares it
   * instead of listing the journal, so that a watching page costs nothing while the mock is idle.
   */
  readonly revision: number
  /** Id of the oldest entry kept, or `null` when empty: entries older than it were cleared or dropped. */
  oldestId(): string | null
}

function parseBody(text: string): unknown {
  // Too deep to list (JSON.stringify would overflow): journaled as null, like a body too long.
  if (text === '' || nestsDeeperThan(text)) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

function answerEntry(answer: JournalAnswer | null): JournalEntry['response'] {
  if (answer === null) return null
  let body: unknown
  if (answer.truncatedBytes > 0) body = { truncated: true, bytes: answer.truncatedBytes }
  else body = redactSecrets(parseBody(answer.body))
  return { status: answer.status, headers: { ...answer.headers }, body }
}

function toEntry(record: JournalRecord): JournalEntry {
  return {
    id: record.id,
    at: new Date(record.atMs).toISOString(),
    method: record.method,
    path: record.path + redactQuery(record.search),
    route: record.route,
    key_mode: record.keyMode,
    reseller_id: record.resellerId,
    status: record.status,
    error_code: record.errorCode,
    body: redactSecrets(parseBody(record.body)),
    fault: record.fault,
    response: answerEntry(record.response),
  }
}

function matches(record: JournalRecord, filter: ParsedJournalFilter): boolean {
  return (
    (filter.method === undefined || record.method === filter.method) &&
    (filter.route === undefined || record.route === filter.route) &&
    (filter.path === undefined || record.path === filter.path) &&
    (filter.status === undefined || record.status === filter.status)
  )
}

/** Creates a journal keeping the last `limit` entries (`0` keeps none). */
export function createJournal(limit: number = DEFAULT_JOURNAL_LIMIT): Journal {
  if (!Number.isInteger(limit) || limit < 0) {
    throw new TypeError(`journalLimit must be a whole number of 0 or more, got ${String(limit)}`)
  }
  let counter = 0
  // Ring buffer: `slots` grows to `limit`, then `head` is the oldest entry and the next to overwrite.
  let slots: JournalRecord[] = []
  let head = 0
  let revision = 0
  return {
    limit,
    get revision() {
      return revision
    },
    nextId: () => `req_${++counter}`,
    oldestId: () => (slots.length === 0 ? null : slots[head]!.id),
    answered() {
      if (limit > 0) revision++
    },
    record(record) {
      if (limit === 0) return
      revision++
      if (record.body.length > JOURNAL_BODY_MAX) record.body = ''
      if (slots.length < limit) {
        slots.push(record)
        return
      }
      slots[head] = record
      head = head + 1 === limit ? 0 : head + 1
    },
    list(filter = {}) {
      const out: JournalEntry[] = []
      const n = slots.length
      // Ids count up in arrival order: walk back from the newest to the first one not after `after`.
      let first = 0
      if (filter.after !== undefined) {
        const after = Number(filter.after.slice('req_'.length))
        first = n
        while (first > 0 && Number(slots[(head + first - 1) % n]!.id.slice('req_'.length)) > after) first--
      }
      for (let i = first; i < n; i++) {
        const record = slots[(head + i) % n]!
        if (matches(record, filter)) out.push(toEntry(record))
      }
      return out
    },
    clear() {
      const cleared = slots.length
      if (cleared > 0) revision++
      slots = []
      head = 0
      return cleared
    },
  }
}
