/**
 * Ids on two sides of a comparison. The import keeps the upstream's ids, so most ids are equal on
 * both sides; ids made during a run (a sandbox account's `sb_` username, a delivery made by a test
 * event) differ, and are learned from the first pair of answers that shows them, then mapped in
 * later requests and answers (docs/keeping-the-mock-honest.md, "What is masked"). Integer ids are
 * not learned: a ticket and a message may both be 29, so a value cannot say what it identifies;
 * the engine masks the integer ids of a record made during the run instead ({@link IdMap.madeDuringRun}).
 */

/** Field names whose values identify a record. */
export const ID_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'uuid',
  'ticket_id',
  'delivery_id',
  'username',
  'event_id',
])

type Json = unknown

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Ids seen on the upstream side mapped to the mock side, and the values the import brought along. */
export class IdMap {
  readonly #upToMock = new Map<string, string>()
  readonly #known = new Set<string>()
  #pattern: RegExp | undefined

  /** @param known values that came from the import (ids, uuids, timestamps): stable on both sides. */
  constructor(known: Iterable<string> = []) {
    for (const value of known) this.#known.add(value)
  }

  /** Marks a value as coming from the import: it must be equal on both sides. */
  remember(value: string): void {
    this.#known.add(value)
  }

  /** Whether `value` came from the import. */
  isKnown(value: string): boolean {
    return this.#known.has(value)
  }

  /** How many ids are mapped. */
  get size(): number {
    return this.#upToMock.size
  }

  /**
   * Walks both answers side by side and maps each id field (`id`, `uuid`, `username`…) whose
   * values differ and did not come from the import. An id already mapped keeps its first partner.
   */
  learn(upstreamBody: Json, mockBody: Json): void {
    this.#walk(upstreamBody, mockBody)
  }

  #walk(up: Json, mock: Json): void {
    if (Array.isArray(up) && Array.isArray(mock)) {
      const n = Math.min(up.length, mock.length)
      for (let i = 0; i < n; i++) this.#walk(up[i], mock[i])
      return
    }
    if (!isObject(up) || !isObject(mock)) return
    for (const [key, value] of Object.entries(up)) {
      const other = mock[key]
      if (ID_FIELDS.has(key) && (typeof value === 'string' || typeof value === 'number')) {
        if (typeof value === 'string' && typeof other === 'string' && other !== value) this.#map(value, other)
      } else {
        this.#walk(value, other)
      }
    }
  }

  /**
   * Whether `record`, an object of an upstream answer, was made during the run: one of its ids, or
   * its `created_at`, is a string the import did not bring (an imported record shows the import's).
   */
  madeDuringRun(record: Record<string, Json>): boolean {
    for (const [key, value] of Object.entries(record)) {
      if (
        typeof value === 'string' &&
        (ID_FIELDS.has(key) || key === 'created_at') &&
        !this.#known.has(value)
      )
        return true
    }
    return false
  }

  #map(up: string, mock: string): void {
    if (this.#known.has(up) || this.#upToMock.has(up) || up === '') return
    this.#upToMock.set(up, mock)
    this.#pattern = undefined
  }

  /** The mock-side id of an upstream id (the id itself when it is not mapped). */
  id(upstreamId: string | number): string {
    const text = String(upstreamId)
    return this.#upToMock.get(text) ?? text
  }

  /** `text` (a path, a query, a request body) with every mapped upstream id replaced by its partner. */
  toMock(text: string): string {
    if (this.#upToMock.size === 0) return text
    this.#pattern ??= new RegExp(
      [...this.#upToMock.keys()]
        .sort((a, b) => b.length - a.length)
        .map((id) => `(?<![\\w-])${escapeRegExp(id)}(?![\\w-])`)
        .join('|'),
      'g',
    )
    return text.replace(this.#pattern, (match) => this.#upToMock.get(match) ?? match)
  }
}
