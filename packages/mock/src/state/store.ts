/**
 * The whole state of one mock: its tables, id counters and timestamp source, with synchronous
 * transactions, change notification, and a JSON snapshot/restore of everything.
 *
 * Rules for code that writes (domain code, the webhook dispatcher):
 * - Write through the tables only (`insert`, `update`, `delete`); never assign to a record.
 * - Check and write synchronously: no `await` between reading a value and the write that depends
 *   on it. Request handlers run inside {@link Store.transact}: if they throw, every write of that
 *   request is undone, so a failing request changes nothing.
 * - Read the time through {@link Store.timestamp} (strictly increasing, microseconds) or the clock.
 */
import { applyTableChanges, ChangeTracker, type CommitListener, type StoreChange } from './changes.js'
import type { Clock } from './clock.js'
import {
  AccountRow,
  ApiKeyRow,
  ClientRow,
  DeliveryRow,
  EventRow,
  InvoiceRow,
  MessageRow,
  PackageRow,
  ResellerRow,
  ResellerWebhookRow,
  ServiceRow,
  SettingsRow,
  TicketRow,
  WebhookRow,
} from './schemas.js'
import { type AnyTable, StoreError, Table, type TableHost } from './table.js'

/** Format marker of a {@link StoreSnapshot}. */
export const SNAPSHOT_FORMAT = 'reseller-mock-store'
/** Layout version of a {@link StoreSnapshot}. */
export const SNAPSHOT_VERSION = 1

/** The whole state as plain JSON: every table's rows (oldest first), the id counters, the clock offset. */
export interface StoreSnapshot {
  format: typeof SNAPSHOT_FORMAT
  version: typeof SNAPSHOT_VERSION
  tables: Record<string, unknown[]>
  counters: Record<string, number>
  /** The last timestamp handed out, in microseconds since the epoch: timestamps keep increasing after a restore. */
  last_micros: number
  /** How far mock time ran ahead of real time when the snapshot was taken (restored if the clock allows). */
  clock_offset_ms: number
}

function createTables(host: TableHost) {
  return {
    /** One row, key `settings`: what the seed sets for the whole mock (`domain_price`). */
    settings: new Table('settings', SettingsRow, (r) => r.key, host),
    resellers: new Table('resellers', ResellerRow, (r) => r.id, host),
    apiKeys: new Table('apiKeys', ApiKeyRow, (r) => r.key, host, {
      groups: { reseller: (r) => r.reseller_id },
    }),
    clients: new Table('clients', ClientRow, (r) => r.id, host, {
      groups: { reseller: (r) => r.reseller_id },
    }),
    /** Key `${reseller_id}/${name}`. */
    packages: new Table('packages', PackageRow, (r) => packageKey(r.reseller_id, r.name), host, {
      groups: { reseller: (r) => r.reseller_id },
    }),
    /** Key: username (unique across all resellers); unique `domain` (lower case) across all resellers. */
    accounts: new Table('accounts', AccountRow, (r) => r.username, host, {
      unique: { domain: (r) => r.domain.toLowerCase() },
      groups: {
        reseller: (r) => r.reseller_id,
        package: (r) => packageKey(r.reseller_id, r.whm_package),
      },
    }),
    tickets: new Table('tickets', TicketRow, (r) => r.id, host, {
      unique: { uuid: (r) => r.uuid },
      groups: { reseller: (r) => r.reseller_id },
    }),
    messages: new Table('messages', MessageRow, (r) => r.id, host, {
      groups: { ticket: (r) => r.ticket_id },
    }),
    services: new Table('services', ServiceRow, (r) => r.id, host, {
      groups: { reseller: (r) => r.reseller_id },
    }),
    invoices: new Table('invoices', InvoiceRow, (r) => r.id, host, {
      groups: { reseller: (r) => r.reseller_id },
    }),
    /** Key: reseller id; at most one reseller-style webhook per reseller. */
    resellerWebhooks: new Table('resellerWebhooks', ResellerWebhookRow, (r) => r.reseller_id, host),
    webhooks: new Table('webhooks', WebhookRow, (r) => r.id, host, {
      groups: { reseller: (r) => r.reseller_id },
    }),
    deliveries: new Table('deliveries', DeliveryRow, (r) => r.delivery_id, host, {
      // `owner` (reseller and webhook) bounds the history per webhook: `state/retention.ts`.
      groups: { webhook: (r) => r.webhook_id, owner: deliveryOwnerKey },
    }),
    /** The event outbox, oldest first; see `state/events.ts`. */
    events: new Table('events', EventRow, (r) => r.id, host, { groups: { reseller: (r) => r.reseller_id } }),
  }
}

/** Every table of a store. */
export type Tables = ReturnType<typeof createTables>

/** Primary key of a package row. */
export function packageKey(resellerId: number, name: string): string {
  return `${resellerId}/${name}`
}

/** Group key of a delivery's webhook: the reseller webhook is one per reseller, general ids are unique. */
export function deliveryOwnerKey(row: Pick<DeliveryRow, 'reseller_id' | 'webhook_id'>): string {
  return `${row.reseller_id}/${row.webhook_id}`
}

/** Formats microseconds since the epoch as `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
export function formatMicros(micros: number): string {
  const iso = new Date(Math.floor(micros / 1000)).toISOString()
  return `${iso.slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}Z`
}

/** Reads a `…ffffffZ` timestamp back as microseconds since the epoch. */
export function parseMicros(timestamp: string): number {
  const match = /^(.{19})(?:\.(\d{1,6})\d*)?Z$/.exec(timestamp)
  if (!match) return Number.NaN
  return Date.parse(`${match[1]}Z`) * 1000 + Number((match[2] ?? '').padEnd(6, '0'))
}

export interface Store extends Tables {
  readonly tables: Tables
  /** The mock's clock. */
  readonly clock: Clock
  /** Incremented by every committed change. */
  readonly version: number
  /** A strictly increasing timestamp from the clock: `…:30.123456Z`. Two calls never return the same value. */
  timestamp(): string
  /** Timestamps handed out from now on are later than `micros` (microseconds since the epoch). */
  observeTimestamp(micros: number): void
  /** The next value of a named id counter (1, 2, 3…); undone with a failing transaction. */
  nextId(counter: string): number
  /**
   * Runs `fn` as one transaction: if it throws, every table write and id it made is undone and the
   * error is rethrown. Writes after an `await` inside `fn` are outside the transaction. Nested calls
   * join the outer transaction.
   */
  transact<R>(fn: () => R): R
  /** Runs `fn` once the current transaction commits (at once outside one); dropped if it fails. */
  afterCommit(fn: () => void): void
  /** Calls `listener` after every committed change (once per transaction). Returns an unsubscribe function. */
  onChange(listener: () => void): () => void
  /**
   * The whole state as JSON-serializable data: deep copies, or with `{ copy: false }` the live rows,
   * for a caller that serializes the snapshot at once and keeps nothing of it (the state file).
   */
  snapshot(options?: { copy?: boolean }): StoreSnapshot
  /** Replaces the whole state with a snapshot; throws (changing nothing) if it is not a valid one. */
  restore(snapshot: unknown): void
  /** Empties every table and counter. */
  clear(): void
  /**
   * Replaces the whole state with rows known to be valid, without validating them (a prepared seed:
   * `seed/prepared.ts`): the tables given are filled in order, the others left empty; the counters
   * become `counters`; timestamps continue after `lastMicros`. Notifies once, with no per-row write:
   * persistence must treat it as the whole state replaced (reset and restore both end here).
   */
  load(
    tables: Readonly<Record<string, readonly object[]>>,
    counters: Record<string, number>,
    lastMicros: number,
  ): void
  /**
   * Calls `listener` synchronously with what each committed transaction changed (for an append-only
   * log), or `'replaced'` after a `clear`/`restore`/`load`. Returns an unsubscribe function.
   */
  onCommit(listener: CommitListener): () => void
  /** Replays one change of {@link onCommit}; throws (changing nothing) if it is not valid. */
  applyChange(change: StoreChange): void
}

interface Transaction {
  undo: (() => void)[]
  commit: (() => void)[]
}

/**
 * Creates an empty store reading time from `clock`. `validate: false` stores inserted rows without
 * parsing them with the storage schema (key checks stay): only for rows built from data already
 * validated, such as a large seed applied to a scratch store (`seed/prepared.ts`).
 */
export function createStore(clock: Clock, options: { validate?: boolean } = {}): Store {
  let tx: Transaction | undefined
  let version = 0
  let lastMicros = 0
  let counters: Record<string, number> = {}
  const listeners = new Set<() => void>()

  const notify = () => {
    version++
    for (const listener of listeners) {
      try {
        listener()
      } catch (error) {
        console.error('[reseller-mock] change listener failed:', error)
      }
    }
  }

  const host: TableHost = {
    validate: options.validate ?? true,
    wrote(undo, commit) {
      if (tx) {
        tx.undo.push(undo)
        if (commit) tx.commit.push(commit)
      } else {
        commit?.()
        notify()
      }
    },
  }
  const tables = createTables(host)
  const tableList = Object.values(tables) as AnyTable[]
  const changes = new ChangeTracker()
  const commitListeners = new Set<CommitListener>()
  const emitCommit = (change: StoreChange | 'replaced') => {
    for (const listener of commitListeners) listener(change)
  }

  const store: Store = {
    ...tables,
    tables,
    clock,
    get version() {
      return version
    },
    timestamp() {
      let micros = Math.floor(clock.nowMs() * 1000)
      if (micros <= lastMicros) micros = lastMicros + 1
      lastMicros = micros
      return formatMicros(micros)
    },
    observeTimestamp(micros) {
      if (micros > lastMicros) lastMicros = micros
    },
    nextId(counter) {
      // Drawn outside any transaction (a route run with `transaction: false`): while commits are
      // captured, a change of its own, so the state file keeps it and a restart never repeats the id.
      if (!tx && changes.active) return store.transact(() => store.nextId(counter))
      const had = counter in counters
      const previous = counters[counter] ?? 0
      counters[counter] = previous + 1
      if (tx) {
        tx.undo.push(() => {
          if (had) counters[counter] = previous
          else delete counters[counter]
        })
      }
      return previous + 1
    },
    transact(fn) {
      if (tx) return fn()
      const current: Transaction = { undo: [], commit: [] }
      tx = current
      let result: ReturnType<typeof fn>
      try {
        result = fn()
      } catch (error) {
        tx = undefined
        changes.discard()
        for (let i = current.undo.length - 1; i >= 0; i--) current.undo[i]!()
        throw error
      }
      tx = undefined
      const changed = current.undo.length > 0
      if (changed && changes.active) emitCommit(takeChange())
      else changes.discard()
      for (const commit of current.commit) commit()
      if (changed) notify()
      return result
    },
    afterCommit(fn) {
      if (tx) tx.commit.push(fn)
      else fn()
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    snapshot(options) {
      const copy = options?.copy ?? true
      const rows: Record<string, unknown[]> = {}
      for (const [name, table] of Object.entries(tables)) {
        const all = Array.from((table as AnyTable).all())
        rows[name] = copy ? structuredClone(all) : all
      }
      return {
        format: SNAPSHOT_FORMAT,
        version: SNAPSHOT_VERSION,
        tables: rows,
        counters: { ...counters },
        last_micros: lastMicros,
        clock_offset_ms: clock.offsetMs,
      }
    },
    restore(input) {
      const snapshot = checkSnapshot(input)
      // Validate every row and key before touching anything: a bad snapshot changes nothing. Rows are
      // parsed once, here; `load` then indexes them without parsing them again.
      const parsed: Record<string, unknown[]> = {}
      for (const [name, table] of Object.entries(tables) as [string, AnyTable][]) {
        const rows = snapshot.tables[name] ?? []
        parsed[name] = rows.map((row, i) => {
          const result = table.schema.safeParse(row)
          if (!result.success) throw new StoreError(`snapshot: tables.${name}[${i}] is not a valid row`)
          return result.data
        })
        table.checkKeys(parsed[name] as object[])
      }
      if (tx) throw new StoreError('restore inside a transaction')
      lastMicros = Math.max(lastMicros, snapshot.last_micros)
      clock.restoreOffset?.(snapshot.clock_offset_ms)
      replaceAll(parsed as Record<string, object[]>, snapshot.counters, lastMicros)
    },
    clear() {
      if (tx) throw new StoreError('clear inside a transaction')
      for (const table of tableList) table.clear()
      counters = {}
      notify()
    },
    load(rows, nextCounters, micros) {
      if (tx) throw new StoreError('load inside a transaction')
      replaceAll(rows, nextCounters, micros)
    },
    onCommit(listener) {
      commitListeners.add(listener)
      changes.active = true
      return () => {
        commitListeners.delete(listener)
        changes.active = commitListeners.size > 0
      }
    },
    applyChange(change) {
      if (tx) throw new StoreError('applyChange inside a transaction')
      try {
        store.transact(() => applyTableChanges(tables as unknown as Record<string, AnyTable>, change.tables))
      } catch (error) {
        throw new StoreError(`change record: ${(error as Error).message}`, { cause: error })
      }
      counters = { ...change.counters }
      lastMicros = Math.max(lastMicros, change.last_micros)
      clock.restoreOffset?.(change.clock_offset_ms)
    },
  }
  /** Empties every table, fills them with `rows` (already valid), sets the counters; notifies once. */
  function replaceAll(
    rows: Readonly<Record<string, readonly object[]>>,
    nextCounters: Record<string, number>,
    micros: number,
  ): void {
    for (const [name, table] of Object.entries(tables) as [string, AnyTable][]) {
      table.clear()
      const given = rows[name]
      if (given) table.load(given)
    }
    counters = { ...nextCounters }
    lastMicros = Math.max(lastMicros, micros)
    notify()
  }
  function takeChange(): StoreChange {
    return {
      tables: changes.take(),
      counters: { ...counters },
      last_micros: lastMicros,
      clock_offset_ms: clock.offsetMs,
    }
  }
  for (const table of tableList) changes.watch(table, store.transact)
  // A restore, a clear or a load (reset) replaces everything: one 'replaced' for commit listeners.
  for (const name of ['restore', 'clear', 'load'] as const) {
    const replace = store[name] as (...input: unknown[]) => void
    store[name] = (...input: unknown[]) => {
      const capturing = changes.active
      changes.active = false
      try {
        replace(...input)
      } finally {
        changes.active = capturing
      }
      emitCommit('replaced')
    }
  }
  return store
}

function checkSnapshot(input: unknown): StoreSnapshot {
  const fail = (problem: string): never => {
    throw new StoreError(`not a store snapshot: ${problem}`)
  }
  if (typeof input !== 'object' || input === null) return fail('not an object')
  const s = input as Partial<StoreSnapshot>
  if (s.format !== SNAPSHOT_FORMAT) fail(`format must be "${SNAPSHOT_FORMAT}"`)
  if (s.version !== SNAPSHOT_VERSION) fail(`version must be ${SNAPSHOT_VERSION}`)
  if (typeof s.tables !== 'object' || s.tables === null) fail('tables must be an object')
  for (const [name, rows] of Object.entries(s.tables ?? {})) {
    if (!Array.isArray(rows)) fail(`tables.${name} must be an array`)
  }
  if (typeof s.counters !== 'object' || s.counters === null) fail('counters must be an object')
  for (const [name, value] of Object.entries(s.counters ?? {})) {
    if (!Number.isSafeInteger(value) || value < 0) fail(`counters.${name} must be a whole number`)
  }
  if (typeof s.last_micros !== 'number' || !Number.isFinite(s.last_micros))
    fail('last_micros must be a number')
  if (typeof s.clock_offset_ms !== 'number' || !Number.isFinite(s.clock_offset_ms)) {
    fail('clock_offset_ms must be a number')
  }
  return s as StoreSnapshot
}
