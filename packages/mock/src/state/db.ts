/**
 * `mock.db`: read-only questions about what the mock holds, in `@msw/data`'s query language.
 *
 * ```ts
 * mock.db.tickets.findMany((q) => q.where({ status: 'open', reseller_id: 1 }))
 * mock.db.accounts.findFirst((q) => q.where({ domain: (d) => d.endsWith('.example') }))
 * ```
 *
 * Queries run over the store's live records (what the mock holds at the moment of the call, never
 * a copy that goes stale) with `@msw/data`'s `Query` (`where`, `and`, `or`, predicate fields);
 * they scan the table, which suits a test's questions. Each record handed out is a deep-frozen
 * copy: a test cannot change the mock's state behind its indexes, undo log and serialization
 * cache by assigning to a result (change state through the API or the `mock.*` controls).
 * There is no `@msw/data` `Collection` behind this: a collection keeps its own array of records,
 * filled by an asynchronous `create()`, which is the very copy kept in sync that this avoids.
 */
import { Query } from '@msw/data'
import { cloneRow, deepFreeze } from './clone.js'
import type { Tables } from './tables.js'

/** A record as `mock.db` hands it out: a deep-frozen copy. */
export type DbRecord<T> = T extends readonly (infer U)[]
  ? readonly DbRecord<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DbRecord<T[K]> }
    : T

/**
 * Which records a query selects: an `@msw/data` `Query`, or a function building one from an
 * empty query, e.g. `(q) => q.where({ status: 'open' })`. A function returning `q` unchanged selects
 * nothing, as in `@msw/data`.
 */
export type DbQuery<T> = Query<T> | ((query: Query<T>) => Query<T>)

/** Sort order by top-level fields: `{ created_at: 'desc' }`, or a list applied in turn. */
export type DbOrderBy<T> = { [K in keyof T]?: 'asc' | 'desc' } | { [K in keyof T]?: 'asc' | 'desc' }[]

/** Options of {@link DbTable.findMany}. */
export interface DbFindManyOptions<T> {
  /** Sort the matches (default: oldest first, the order records were stored in). */
  orderBy?: DbOrderBy<T>
  /** Skip this many matches (after sorting); a whole number ≥ 0. */
  skip?: number
  /** Return at most this many matches (after `skip`); a whole number ≥ 0. */
  take?: number
}

/** One table of {@link MockDb}: read-only queries over its live records. */
export interface DbTable<T> {
  /** How many records the table holds now. */
  readonly size: number
  /** The oldest record matching `query` (the oldest record when no query is given), or `undefined`. */
  findFirst(query?: DbQuery<T>): DbRecord<T> | undefined
  /** Every record matching `query` (all records when no query is given), oldest first unless `orderBy` says otherwise. */
  findMany(query?: DbQuery<T>, options?: DbFindManyOptions<T>): DbRecord<T>[]
  /** How many records match `query` (all when no query is given). */
  count(query?: DbQuery<T>): number
}

/** Row type of a store table. */
type RowOf<Table> = Table extends { all(): IterableIterator<infer T> } ? T : never

/**
 * The mock's tables, for queries in tests: `mock.db.tickets`, `mock.db.accounts`… Table names and
 * record types are the store's (storage schemas: the SDK's wire fields plus what the mock keeps
 * beside them, such as `reseller_id`, internal messages or webhook secrets).
 */
export type MockDb = { readonly [Name in keyof Tables]: DbTable<RowOf<Tables[Name]>> }

/**
 * The record type of one table of {@link MockDb}, as stored (not frozen): `MockDbRow<'tickets'>`.
 * For typing a prebuilt query: `new Query<MockDbRow<'invoices'>>().where({ status: 'paid' })`.
 */
export type MockDbRow<Name extends keyof MockDb> = RowOf<Tables[Name]>

/** Builds `mock.db` over `tables` (which a reset or restore refills in place, so it stays live). */
export function createDb(tables: Tables): MockDb {
  const db: Record<string, DbTable<object>> = {}
  for (const [name, table] of Object.entries(tables)) db[name] = dbTable(name, table as never)
  return Object.freeze(db) as MockDb
}

function isQuery<T>(value: unknown): value is Query<T> {
  return (
    typeof (value as Query<T> | null)?.test === 'function' && typeof (value as Query<T>).where === 'function'
  )
}

function dbTable<T extends object>(
  name: string,
  table: { readonly size: number; all(): IterableIterator<T> },
): DbTable<T> {
  const where = `mock.db.${name}`
  const toQuery = (query: DbQuery<T> | undefined, method: string): Query<T> | undefined => {
    if (query === undefined) return undefined
    const built = typeof query === 'function' ? query(new Query<T>()) : query
    // By shape, not `instanceof`: a Query built with the application's own copy of `@msw/data` (another
    // version, or the copy the mock's build inlines) is as good as ours.
    if (!isQuery<T>(built)) {
      throw new TypeError(
        `${where}.${method}: the query must be an @msw/data Query or a function returning one, e.g. (q) => q.where({ … })`,
      )
    }
    return built
  }
  const matches = function* (query: Query<T> | undefined) {
    for (const row of table.all()) if (!query || query.test(row)) yield row
  }
  const out = (row: T) => deepFreeze(cloneRow(row)) as DbRecord<T>
  return {
    get size() {
      return table.size
    },
    findFirst(query) {
      for (const row of matches(toQuery(query, 'findFirst'))) return out(row)
      return undefined
    },
    findMany(query, options = {}) {
      const q = toQuery(query, 'findMany')
      const skip = count(options.skip, `${where}.findMany: skip`) ?? 0
      const take = count(options.take, `${where}.findMany: take`) ?? Number.POSITIVE_INFINITY
      let rows = Array.from(matches(q))
      if (options.orderBy !== undefined) rows.sort(comparator(options.orderBy, `${where}.findMany: orderBy`))
      rows = rows.slice(skip, skip + take)
      return rows.map(out)
    },
    count(query) {
      let n = 0
      for (const _ of matches(toQuery(query, 'count'))) n++
      return n
    },
  }
}

/** `value` as a whole number ≥ 0, or `undefined` when not given; a clear TypeError otherwise. */
function count(value: unknown, what: string): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new TypeError(`${what} must be a whole number ≥ 0, got ${JSON.stringify(value)}`)
  }
  return value
}

function comparator<T>(orderBy: DbOrderBy<T>, what: string): (a: T, b: T) => number {
  const criteria: [keyof T, 1 | -1][] = []
  for (const entry of Array.isArray(orderBy) ? orderBy : [orderBy]) {
    for (const [field, direction] of Object.entries(entry ?? {})) {
      if (direction !== 'asc' && direction !== 'desc') {
        throw new TypeError(`${what}.${field} must be 'asc' or 'desc', got ${JSON.stringify(direction)}`)
      }
      criteria.push([field as keyof T, direction === 'asc' ? 1 : -1])
    }
  }
  return (a, b) => {
    for (const [field, sign] of criteria) {
      if (a[field] > b[field]) return sign
      if (a[field] < b[field]) return -sign
    }
    return 0
  }
}
