/**
 * A seed resolved once and loaded many times: the cheap path behind `createMockApi()` and
 * `reset()`. Parsing a seed, drawing its uuids and secrets and validating every row costs far more
 * than copying the resulting rows, and a suite that makes a fresh mock per test does it for every
 * test. So a seed is prepared once per (seed object, `randomSeed`): parsed, resolved and applied to
 * a scratch store, whose rows become frozen templates; a mock's store is then filled with copies of
 * them (`store.load`: no validation, the templates were validated when they were made).
 *
 * Timestamps: what the seed gives (`created_at` of services, invoices, accounts, tickets…) is absolute; what it
 * leaves to the clock is relative to the moment the mock is created. A template keeps
 * the latter as offsets (0, 1, 2… µs in seed order), and each load writes `start + offset`, so a
 * mock made later gets later timestamps and `reset()` (same start) gives the very same state.
 * The offsets are found by applying the seed at a start later than every timestamp the seed gives:
 * a `…_at` field at or after that start came from the clock.
 *
 * Seeds of more than {@link CACHE_MAX_RECORDS} records skip the templates: parsed once, they are
 * applied to a scratch store at each load and its rows moved into the mock's store.
 */
import { createClock } from '../state/clock.js'
import { cloneRow, deepFreeze } from '../state/clone.js'
import { createRandom, DEFAULT_RANDOM_SEED, localCounter } from '../state/random.js'
import { createStore, type Store } from '../state/store.js'
import { parseMicros } from '../state/timestamps.js'
import { applySeed, normalizeTimestamp, resolveSeed, timestampFormatter } from './apply.js'
import { parseSeed, type Seed } from './schema.js'

/** One row of a prepared seed and its clock-relative timestamp fields. */
interface TemplateRow {
  readonly row: Readonly<Record<string, unknown>>
  /** `[field, µs after the start]` for each timestamp the clock gave; absent when none did. */
  readonly stamps?: readonly (readonly [string, number])[]
}

/** Rows of a seed applied once, ready to copy. */
interface Templates {
  /** Rows per table, in insertion order. */
  readonly tables: Readonly<Record<string, readonly TemplateRow[]>>
  /** Id counters after loading (`ticket`, `message`, `invoice`…). */
  readonly counters: Readonly<Record<string, number>>
  /** How many timestamps the seed takes from the clock: `start`, `start + 1`, … */
  readonly span: number
}

/** A seed ready to load: see the module comment. */
export interface PreparedSeed {
  /** The parsed seed, uuids and secrets filled in (frozen). */
  readonly seed: Seed
  /**
   * Its rows, for a seed of up to {@link CACHE_MAX_RECORDS} records. A larger seed is applied
   * directly instead: it is typically loaded once, and templates would only double its memory and
   * the work of its one load.
   */
  readonly templates?: Templates
}

/** Earliest start used to find clock-given timestamps (any instant works; this one reads well). */
const BASE_MICROS = Date.UTC(2000, 0, 1) * 1000
/** Seeds with more records than this are applied directly, neither templated nor cached (nor stringified). */
export const CACHE_MAX_RECORDS = 5_000

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
  if (typeof input !== 'object' || input === null || recordCount(input) > CACHE_MAX_RECORDS) {
    return { seed: resolve(input, randomSeed) }
  }
  const json = jsonOf(input)
  // Not JSON (a cycle, a bigint): prepared for this mock only; parseSeed names what is wrong.
  if (json === undefined) return prepare(input, randomSeed)
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

/**
 * Takes `prepared`, a preparation of `input` under `randomSeed` made ahead of time (the build writes
 * the demo seed's: server/seed/prebuilt.ts), as if {@link prepareSeed} had just made it: the
 * standalone server then starts without parsing and validating its seed (most of its start's own
 * work). The caller vouches that it is `prepareSeed(input, randomSeed)` of the same sources.
 */
export function adoptPreparedSeed(
  input: object,
  randomSeed: string | number,
  prepared: PreparedSeed,
  json: string | undefined = jsonOf(input),
): void {
  if (json === undefined) return
  const entry = { json, byRandomSeed: new Map([[String(randomSeed), deepFreeze(prepared)]]) }
  cache.set(input, entry)
}

/** Fills `store` with a fresh copy of the prepared seed, clock-given timestamps starting at `startMicros`. */
export function loadSeed(store: Store, prepared: PreparedSeed, startMicros: number): void {
  const { templates } = prepared
  if (!templates) {
    // A large seed: applied at this start, its rows moved into the store as they are.
    const { tables, counters, span } = applyFresh(prepared.seed, startMicros, false)
    store.load(tables, counters, startMicros + span)
    return
  }
  const stampAt = timestampFormatter()
  const tables: Record<string, object[]> = {}
  for (const [name, rows] of Object.entries(templates.tables)) {
    tables[name] = rows.map(({ row, stamps }) => {
      const copy = cloneRow(row) as Record<string, unknown>
      if (stamps) for (const [field, offset] of stamps) copy[field] = stampAt(startMicros + offset)
      return copy
    })
  }
  // Timestamps handed out later follow the seed's, as `applySeed` leaves them.
  store.load(tables, templates.counters, startMicros + templates.span)
}

/** The seed parsed, with what it leaves to chance drawn from `randomSeed`'s seed stream. */
function resolve(input: unknown, randomSeed: string | number): Seed {
  return resolveSeed(parseSeed(input), createRandom(randomSeed, 'seed', localCounter()))
}

function prepare(input: unknown, randomSeed: string | number): PreparedSeed {
  const seed = resolve(input, randomSeed)
  const start = Math.max(BASE_MICROS, latestGivenTimestamp(seed) + 1)
  const applied = applyFresh(seed, start, true)
  const tables: Record<string, TemplateRow[]> = {}
  for (const [name, rows] of Object.entries(applied.tables)) {
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
  return deepFreeze({ seed, templates: { tables, counters: applied.counters, span: applied.span } })
}

/**
 * `seed` applied to a store of its own: its rows, counters and the number of clock timestamps.
 * `validate`: parse each row with its storage schema. Templates are validated (once per seed);
 * a large seed is not: every field of its rows is a field the seed schema (built from the same SDK
 * schemas) has checked, or an id, uuid or timestamp the mock makes, and parsing 100,000 rows again
 * would double the time to build the store. Key clashes are still refused either way.
 */
function applyFresh(seed: Seed, startMicros: number, validate: boolean) {
  const scratch = createStore(createClock(), { validate })
  const span = applySeed(scratch, seed, startMicros)
  const { tables, counters } = scratch.snapshot({ copy: false })
  return { tables: tables as Record<string, object[]>, counters, span }
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
    for (const a of r.accounts) {
      see(a.created_at)
      see(a.suspended_at)
    }
    for (const t of r.tickets) {
      see(t.created_at)
      see(t.updated_at)
      for (const m of t.messages) see(m.created_at)
    }
    for (const w of r.webhooks) {
      for (const d of w.deliveries) {
        see(d.attempted_at)
        see(d.next_attempt_at)
      }
    }
  }
  return latest
}

/** `JSON.stringify(value)`, or `undefined` when it cannot be serialized. */
function jsonOf(value: object): string | undefined {
  try {
    return JSON.stringify(value)
  } catch {
    return undefined
  }
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
