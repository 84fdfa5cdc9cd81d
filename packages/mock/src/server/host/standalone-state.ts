/**
 * The two decisions a standalone start makes about a saved state: which seed to start from and
 * record (the `seed` option against the one the state file recorded, `--adopt-seed`), and whether
 * the saved state is one the mock can run on (the checks of a snapshot, times in range).
 */
import type { SeedInput } from '../../seed/schema.js'
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from '../../state/snapshot.js'
import type { Store } from '../../state/store.js'
import type { SavedState } from '../state-file/database.js'
import { StateFileError } from '../state-file/path.js'
import { type RecordedSeed, seedDigest } from '../state-file/schema.js'

/** Latest instant the mock can write: 9999-12-31T23:59:59.999Z. */
const LAST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

/** JSON with object keys sorted: two seeds are the same when their canonical forms are. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  )
}

/**
 * A seed given to a standalone start: its JSON text, and the seed itself, which a caller holding
 * only the text (a seed file) parses on the first call. The text is what a state file records.
 */
export interface GivenSeed {
  /** SHA-256 (hex) of the text (`state-schema.ts`, `seedDigest`). */
  digest: string
  json: () => string
  value: () => SeedInput
}

/** A seed given as an object: its text is one `JSON.stringify` away. */
export function givenSeedOf(seed: SeedInput): GivenSeed {
  const json = JSON.stringify(seed)
  return { digest: seedDigest(json), json: () => json, value: () => seed }
}

/** The seed a standalone mock starts from, and what its state file records. */
export interface SeedChoice {
  /** The seed to load now (no saved state), or to read when a reset needs it (a saved state). */
  seed: () => SeedInput | undefined
  /** The seed to record, as JSON (`null` for the demo seed); read from the file only when written. */
  recordJson: () => string
  from: 'option' | 'state file' | 'demo'
  /** The file's recorded seed must be replaced with {@link recordJson} (`--adopt-seed`). */
  adopted: boolean
}

/**
 * Chooses the seed from the `given` one and the one `recorded` by a saved state: a file's
 * recorded seed wins when no seed is given; a different one is refused unless adopted. Neither seed
 * is parsed when their texts are the same (a restart with the seed file that wrote the state).
 */
export function chooseSeed(
  given: GivenSeed | undefined,
  recorded: RecordedSeed | undefined,
  adoptSeed: boolean,
  path: string,
): SeedChoice {
  if (given === undefined) {
    if (recorded === undefined || recorded.isDemo)
      return { seed: () => undefined, recordJson: () => 'null', from: 'demo', adopted: false }
    // Read and parsed only when a reset needs it: a large recorded seed costs a restart nothing.
    return {
      seed: () => JSON.parse(recorded.json()),
      recordJson: recorded.json,
      from: 'state file',
      adopted: false,
    }
  }
  // Same text: the same seed, parsed by nobody. Else the same keys in another order may still be
  // the same seed: only then are both parsed and put in canonical form (a large seed costs seconds).
  const same =
    recorded === undefined ||
    recorded.is(given.digest, given.json) ||
    (!recorded.isDemo && canonicalJson(JSON.parse(recorded.json())) === canonicalJson(given.value()))
  if (!same && !adoptSeed) {
    throw new StateFileError(
      path,
      `was created from ${recorded?.isDemo ? 'the built-in demo seed' : 'another seed'}, not the one given; start without --seed to use the recorded seed, or add --adopt-seed to keep the state and make reset go to the new seed`,
    )
  }
  return { seed: given.value, recordJson: given.json, from: 'option', adopted: !same }
}

/**
 * Puts a saved state into `store`: every row checked by its table's schema and keys, or, when the
 * file says each row is as the mock wrote it (`SavedState.rows`), each table's rows read on its
 * first use, unchecked; the counters, the last timestamp and the clock inside the range the mock
 * writes. Throws a one-line
 * {@link StateFileError} naming what is wrong; the store is unchanged then.
 */
export function restoreSaved(store: Store, saved: SavedState, path: string): void {
  const fail = (problem: string, cause?: unknown): never => {
    throw new StateFileError(path, `does not hold a valid mock state (${problem})`, { cause })
  }
  // Microseconds past year 2255 are beyond 2^53: whole numbers still, but not "safe" ones.
  if (!Number.isInteger(saved.last_micros) || saved.last_micros < 0 || saved.last_micros > LAST_MS * 1000)
    fail('last_micros is outside the years 1970-9999')
  const now = Date.now() + saved.clock_offset_ms
  if (!Number.isFinite(saved.clock_offset_ms) || now < 0 || now > LAST_MS)
    fail('clock_offset_ms puts the clock outside the years 1970-9999')
  for (const name of saved.tableNames)
    if (!Object.hasOwn(store.tables, name)) fail(`rows of an unknown table "${name}"`)
  const { rows } = saved
  try {
    store.restore(
      {
        format: SNAPSHOT_FORMAT,
        version: SNAPSHOT_VERSION,
        tables: rows.written ? {} : rows.tables,
        counters: saved.counters,
        last_micros: saved.last_micros,
        clock_offset_ms: saved.clock_offset_ms,
      },
      rows.written ? { deferredRows: rows.of } : {},
    )
  } catch (error) {
    fail((error as Error).message, error)
  }
}
