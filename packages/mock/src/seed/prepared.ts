/**
 * A seed resolved once and loaded many times: the cheap path behind `createMockApi()` and
 * `reset()`. Parsing a seed, drawing its uuids and secrets and validating every row costs far more
 * than copying the resulting rows, and a suite that makes a fresh mock per test does it for every
 * test. So a seed is prepared once per (seed object, `randomSeed`): parsed, resolved and applied to
 * a scratch store, whose rows become frozen templates; a mock's store is then filled with copies of
 * them (`store.load`: no validation, the templates were validated when they were made).
 *
 * Timestamps: what the seed gives (`created_at` of services and invoices) is absolute; what it
 * leaves to the clock is relative to the moment the mock is created, as before. A template keeps
 * the latter as offsets (0, 1, 2… µs in seed order), and each load writes `start + offset`, so a
 * mock made later gets later timestamps and `reset()` (same start) gives the very same state.
 * The offsets are found by applying the seed at a start later than every timestamp the seed gives:
 * a `…_at` field at or after that start came from the clock.
 */
import { createClock } from '../state/clock.js'
import { cloneRow, deepFreeze } from '../state/clone.js'
import { createRandom, DEFAULT_RANDOM_SEED, localCounter } from '../state/random.js'
import { createStore, parseMicros, type Store } from '../state/store.js'
import { applySeed, normalizeTimestamp, resolveSeed } from './apply.js'
import { parseSeed, type Seed } from './schema.js'

/** One row of a prepared seed and its clock-relative timestamp fields. */
interface TemplateRow {
  readonly row: Readonly<Record<string, unknown>>
  /** `[field, µs after the start]` for each timestamp the clock gave; absent when none did. */
  readonly stamps?: readonly (readonly [string, number])[]
}

/** A seed ready to load: see the module comment. */
export interface PreparedSeed {
  /** The parsed seed, uuids and secrets filled in (frozen). */
  readonly seed: Seed
  /** Rows per table, in insertion order. */
  readonly tables: Readonly<Record<string, readonly TemplateRow[]>>
  /** Id counters after loading (`ticket`, `message`, `invoice`…). */
  readonly counters: Readonly<Record<string, number>>
  /** How many timestamps the seed takes from the clock: `start`, `start + 1`, … */
  readonly span: number
}

/** Earliest start used to find clock-given timestamps (any instant works; this one reads well). */
const BASE_MICROS = Date.UTC(2000, 0, 1) * 1000
/** Seeds with more records than this are prepared for one mock and not cached (nor stringified). */
const CACHE_MAX_RECORDS = 5_000

interface CacheEntry {
  /** The seed's JSON when it was prepared: a seed object changed since is prepared again. */
  readonly json: string
  readonly byRandomSeed: Map<string, PreparedSeed>
}
const cache = new WeakMap<object, CacheEntry>()

/**
 * Parses (throwing {@link SeedError} on a bad seed), resolves and prepares `input`, or returns the
 * preparation made earlier for the same seed object, unchanged since, and the same `randomSeed`.
 */
export function prepareSeed(input: unknown, randomSeed: string | number = DEFAULT_RANDOM_SEED): PreparedSeed {
  const cacheable = typeof input === 'object' && input !== null && recordCount(input) <= CACHE_MAX_RECORDS
  if (!cacheable) return prepare(input, randomSeed)
  const json = JSON.stringify(input)
  let entry = cache.get(input)
  if (entry?.json !== json) {
    entry = { json, byRandomSeed: new Map() }
    cache.set(input, entry)
  }
  const key = String(randomSeed)
  let prepared = entry.byRandomSeed.get(key)
  if (!prepared) {
    prepared = prepare(input, randomSeed)
    entry.byRandomSeed.set(key, prepared)
  }
  return prepared
}

/** Fills `store` with a fresh copy of the prepared seed, clock-given timestamps starting at `startMicros`. */
export function loadSeed(store: Store, prepared: PreparedSeed, startMicros: number): void {
  const stampAt = stampFormatter()
  const tables: Record<string, object[]> = {}
  for (const [name, templates] of Object.entries(prepared.tables)) {
    tables[name] = templates.map(({ row, stamps }) => {
      const copy = cloneRow(row) as Record<string, unknown>
      if (stamps) for (const [field, offset] of stamps) copy[field] = stampAt(startMicros + offset)
      return copy
    })
  }
  // Timestamps handed out later follow the seed's, as `applySeed` leaves them.
  store.load(tables, prepared.counters, startMicros + prepared.span)
}

function prepare(input: unknown, randomSeed: string | number): PreparedSeed {
  const seed = resolveSeed(parseSeed(input), createRandom(randomSeed, 'seed', localCounter()))
  const start = Math.max(BASE_MICROS, latestGivenTimestamp(seed) + 1)
  const scratch = createStore(createClock())
  const span = applySeed(scratch, seed, start)
  const snapshot = scratch.snapshot({ copy: false })
  const tables: Record<string, TemplateRow[]> = {}
  for (const [name, rows] of Object.entries(snapshot.tables)) {
    tables[name] = (rows as Record<string, unknown>[]).map((row) => {
      const stamps: [string, number][] = []
      for (const [field, value] of Object.entries(row)) {
        if (!field.endsWith('_at') || typeof value !== 'string') continue
        const micros = parseMicros(value)
        if (micros >= start) stamps.push([field, micros - start])
      }
      return stamps.length > 0 ? { row: deepFreeze(row), stamps } : { row: deepFreeze(row) }
    })
  }
  return deepFreeze({ seed, tables, counters: snapshot.counters, span })
}

/** The latest timestamp the seed gives itself, in µs (`-Infinity` when it gives none). */
function latestGivenTimestamp(seed: Seed): number {
  let latest = Number.NEGATIVE_INFINITY
  const see = (given: string | null | undefined) => {
    if (given != null) latest = Math.max(latest, parseMicros(normalizeTimestamp(given)))
  }
  for (const r of seed.resellers) {
    for (const s of r.services) see(s.created_at)
    for (const v of r.invoices) {
      see(v.created_at)
      see(v.due_at)
    }
  }
  return latest
}

/** Records a seed input lists, roughly (no validation): decides whether it is worth caching. */
function recordCount(input: object): number {
  const resellers = (input as { resellers?: unknown }).resellers
  if (!Array.isArray(resellers)) return 0
  let count = 0
  for (const r of resellers) {
    if (typeof r !== 'object' || r === null) continue
    for (const list of Object.values(r)) if (Array.isArray(list)) count += list.length
  }
  return count
}

/**
 * `formatMicros` for many timestamps of a few seconds: the ISO date and time of a second is
 * formatted once, then only the microseconds change.
 */
function stampFormatter(): (micros: number) => string {
  let second = Number.NaN
  let prefix = ''
  return (micros) => {
    const s = Math.floor(micros / 1_000_000)
    if (s !== second) {
      second = s
      prefix = new Date(s * 1000).toISOString().slice(0, 19)
    }
    return `${prefix}.${String(micros - s * 1_000_000).padStart(6, '0')}Z`
  }
}
