/**
 * The layout of a state database and the checks at open: what tells our files from others, the
 * integrity check, and the mark that says every row was written by this mock (so a restart need
 * not parse each row with its schema again), and the recorded seed, read in the file when needed.
 * See `docs/running-the-mock.md`, "State file".
 */
import type { DatabaseSync } from 'node:sqlite'
import { StateFileError } from './path.js'

/** `PRAGMA application_id` of a state database: "RMST". */
export const STATE_APPLICATION_ID = 0x524d5354
/** `PRAGMA user_version`: the layout of the tables below. */
export const STATE_SCHEMA_VERSION = 1
/** `meta.format`, for a reader who opens the file with the `sqlite3` shell. */
export const STATE_FORMAT = 'reseller-mock-state'
/**
 * `meta.rows_valid`: `'1'` once a transaction of this mock ends (its rows passed the store's
 * schemas); the triggers below set it to `'0'` at any row inserted or changed, so a change by
 * another program (the `sqlite3` shell) leaves `'0'` and the next start checks every row.
 */
export const ROWS_VALID = 'rows_valid'

/** Triggers that clear {@link ROWS_VALID}: name → the SQL that `sqlite_schema` keeps of each. */
const ROW_TRIGGERS = Object.fromEntries(
  (['INSERT', 'UPDATE'] as const).map((operation) => {
    const name = `rows_${operation.toLowerCase()}_clears_rows_valid`
    return [
      name,
      `CREATE TRIGGER ${name} AFTER ${operation} ON rows WHEN (SELECT value FROM meta WHERE name = '${ROWS_VALID}') IS NOT '0' BEGIN UPDATE meta SET value = '0' WHERE name = '${ROWS_VALID}'; END`,
    ]
  }),
)

/** Creates the tables (and the triggers) of a new state database. */
export function createSchema(db: DatabaseSync): void {
  db.exec(`BEGIN;
    PRAGMA application_id = ${STATE_APPLICATION_ID};
    PRAGMA user_version = ${STATE_SCHEMA_VERSION};
    CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS rows (tbl TEXT NOT NULL, key TEXT NOT NULL, json TEXT NOT NULL, UNIQUE (tbl, key));
    -- A table's rows in rowid order (the order the store keeps) without sorting them: a table is
    -- read whole at its first use (a 50,000-ticket table in a third of the time).
    CREATE INDEX IF NOT EXISTS rows_by_table ON rows (tbl);
    ${ROW_TRIGGERS_SQL}
    COMMIT;`)
}

/** (Re)creates the triggers: part of a transaction that then sets {@link ROWS_VALID}. */
export const ROW_TRIGGERS_SQL = [
  ...Object.keys(ROW_TRIGGERS).map((name) => `DROP TRIGGER IF EXISTS ${name};`),
  ...Object.values(ROW_TRIGGERS).map((sql) => `${sql};`),
].join('\n')

/**
 * Whether every row is as this mock wrote it: the triggers are there as created and no row was
 * inserted or changed since the mock's last transaction ended. Otherwise the start parses each row
 * with its schema, as it would a snapshot's.
 */
export function rowsWrittenByMock(db: DatabaseSync, meta: ReadonlyMap<string, string>): boolean {
  if (meta.get(ROWS_VALID) !== '1') return false
  const found = new Map<string, string>()
  for (const { name, sql } of db
    .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'rows'")
    .all())
    found.set(String(name), String(sql))
  return Object.entries(ROW_TRIGGERS).every(([name, sql]) => found.get(name) === sql)
}

/**
 * Checks, on a read-only connection, that the database is a sound state database of this mock:
 * its id and layout, then SQLite's `PRAGMA integrity_check` (pages, and every index against its
 * table: damage `quick_check` cannot see, such as a row its index misses, is refused too; see
 * `docs/spec-decisions.md` for its cost). Returns whether it holds no state yet (tables, but a
 * first start that stopped before its first write). Throws a one-line {@link StateFileError}.
 */
export function checkStateDatabase(path: string, db: DatabaseSync): { empty: boolean } {
  const pragma = (name: string) => Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0]
  if (pragma('application_id') !== STATE_APPLICATION_ID) {
    throw new StateFileError(
      path,
      'is an SQLite database of another application, not a state file of this mock',
    )
  }
  const version = pragma('user_version')
  if (version !== STATE_SCHEMA_VERSION) {
    throw new StateFileError(
      path,
      `has state layout ${String(version)}; this mock reads layout ${STATE_SCHEMA_VERSION} (a newer release wrote it?)`,
    )
  }
  const problems = db
    .prepare(`PRAGMA integrity_check(${INTEGRITY_PROBLEMS_SHOWN})`)
    .all()
    .flatMap((row) => String(Object.values(row)[0]).split('\n'))
    .filter((line) => line !== '' && !line.startsWith('***'))
  if (problems.length !== 1 || problems[0] !== 'ok') {
    throw new StateFileError(path, `fails SQLite's integrity check (${problems.join('; ')})`)
  }
  return { empty: db.prepare('SELECT count(*) AS n FROM meta').get()?.n === 0 }
}

/** Problems of a failed integrity check named in the refusal (the check stops after as many). */
const INTEGRITY_PROBLEMS_SHOWN = 3

/**
 * `meta.recorded_seed_sha256`: the SHA-256 (hex) of the recorded seed's text, to compare a `--seed`
 * without reading it.
 *
 * Every `meta` name must sort before `seed`. `meta` is a WITHOUT ROWID table on one page, and
 * SQLite reads the whole of a key that spills onto overflow pages to compare it during a search: a
 * search that probes the megabytes of a large recorded seed costs milliseconds. With `seed` the
 * last key, the binary search for any other name never probes it (`test/api/state-db.test.ts`).
 */
export const SEED_DIGEST = 'recorded_seed_sha256'

/** SHA-256 (hex) of a seed's text, or of a seed file's bytes (the same for UTF-8 text). */
export function seedDigest(text: string | Uint8Array): string {
  // node:crypto loads on first use: loading it was a tenth of a start on the demo seed, which hashes nothing.
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex')
}

/**
 * The seed a state file recorded, as JSON (`null`: the built-in demo seed). Large seeds are common
 * (a 50,000-ticket seed is megabytes), so the text stays in the file until `json()` is called; a
 * given seed is compared by its digest ({@link SEED_DIGEST}, or in the file when it has none).
 */
export interface RecordedSeed {
  /** The built-in demo seed (`null`). */
  readonly isDemo: boolean
  /** The recorded JSON text (read once). */
  json(): string
  /** Whether the recorded text is the one with this digest and text (read only when needed). */
  is(digest: string, text: () => string): boolean
}

/**
 * The seed `meta` recorded, if any (see {@link RecordedSeed}); read later through the connection
 * `db()` returns then (the state is read before the file is opened for writing).
 */
export function readRecordedSeed(db: () => DatabaseSync): RecordedSeed | undefined {
  const select = (expression: string, ...values: string[]) =>
    db()
      .prepare(`SELECT ${expression} AS v FROM meta WHERE name = ?`)
      .get(...values)?.v
  const digest = select('value', SEED_DIGEST) as string | undefined
  // A file without a digest: the text itself is compared, in the file.
  const isDemo =
    digest === undefined ? select("value = 'null'", 'seed') : digest === seedDigest('null') ? 1 : 0
  if (isDemo === undefined) return undefined
  let json: string | undefined
  return {
    isDemo: isDemo === 1,
    json: () => {
      json ??= String(select('value', 'seed'))
      return json
    },
    is: (given, text) =>
      digest !== undefined ? digest === given : select('value = ?', text(), 'seed') === 1,
  }
}
