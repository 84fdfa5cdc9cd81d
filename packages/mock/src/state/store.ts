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
import { type Clock, strictlyAfter } from './clock.js'
import {
  parseSnapshot,
  type RestoreOptions,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type StoreSnapshot,
  tableRows,
} from './snapshot.js'
import { type AnyTable, StoreError, type TableHost } from './table.js'
import { createTables, type Tables } from './tables.js'
import { formatMicros } from './timestamps.js'

/** What a store does besides holding its tables: see {@link Store}. */
export interface StoreApi {
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
   * join the outer transaction. `refusable`: a commit listener may refuse the change by throwing
   * (the state file that cannot save it), which undoes it as a throw of `fn` would.
   */
  transact<R>(fn: () => R, options?: { refusable?: boolean }): R
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
  restore(snapshot: unknown, options?: RestoreOptions): void
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

/** The whole state of one mock: every table as a property (`store.tickets`), and {@link StoreApi}. */
export type Store = StoreApi & Tables

/**
 * One open transaction: what undoes its writes, and what runs once it commits. Each list is made
 * by its first entry: most transactions (every read) write nothing and allocate none.
 */
interface Transaction {
  undo: (() => void)[] | undefined
  commit: (() => void)[] | undefined
}

/** `list` with `fn` added at its end; a new list when there is none yet. */
function append(list: (() => void)[] | undefined, fn: () => void): (() => void)[] {
  if (list === undefined) return [fn]
  list.push(fn)
  return list
}

/**
 * A store's bookkeeping: the open transaction, the id counters, the last timestamp, the change
 * listeners. Its tables report every write to it (it is their {@link TableHost}).
 */
class StoreCore implements StoreApi, TableHost {
  readonly tables: Tables
  readonly clock: Clock
  readonly validate: boolean
  #tx: Transaction | undefined
  #version = 0
  #lastMicros = 0
  #counters: Record<string, number> = {}
  readonly #listeners = new Set<() => void>()
  readonly #commitListeners = new Set<CommitListener>()
  readonly #changes = new ChangeTracker()
  readonly #tableList: AnyTable[]

  constructor(clock: Clock, validate: boolean) {
    this.clock = clock
    this.validate = validate
    this.tables = createTables(this)
    this.#tableList = Object.values(this.tables) as AnyTable[]
    for (const table of this.#tableList) this.#changes.watch(table, (fn) => this.transact(fn))
  }

  get version(): number {
    return this.#version
  }

  /** {@link TableHost}: a table changed; undone with a failing transaction, committed with it. */
  wrote(undo: () => void, commit?: () => void): void {
    const tx = this.#tx
    if (tx) {
      tx.undo = append(tx.undo, undo)
      if (commit) tx.commit = append(tx.commit, commit)
    } else {
      commit?.()
      this.#notify()
    }
  }

  timestamp(): string {
    const micros = strictlyAfter(Math.floor(this.clock.nowMs() * 1000), this.#lastMicros)
    this.#lastMicros = micros
    return formatMicros(micros)
  }

  observeTimestamp(micros: number): void {
    if (micros > this.#lastMicros) this.#lastMicros = micros
  }

  nextId(counter: string): number {
    // Drawn outside any transaction (a route run with `transaction: false`): while commits are
    // captured, a change of its own, so the state file keeps it and a restart never repeats the id.
    if (!this.#tx && this.#changes.active) return this.transact(() => this.nextId(counter))
    const counters = this.#counters
    const had = counter in counters
    const previous = counters[counter] ?? 0
    counters[counter] = previous + 1
    const tx = this.#tx
    if (tx) {
      tx.undo = append(tx.undo, () => {
        if (had) counters[counter] = previous
        else delete counters[counter]
      })
    }
    return previous + 1
  }

  transact<R>(fn: () => R, options?: { refusable?: boolean }): R {
    if (this.#tx) return fn()
    const current: Transaction = { undo: undefined, commit: undefined }
    this.#tx = current
    let result: R
    const undo = () => {
      this.#tx = undefined
      this.#changes.discard()
      const list = current.undo
      if (list) for (let i = list.length - 1; i >= 0; i--) list[i]!()
    }
    try {
      result = fn()
    } catch (error) {
      undo()
      throw error
    }
    this.#tx = undefined
    const changed = current.undo !== undefined
    if (changed && this.#changes.active) {
      const refusable = options?.refusable === true
      const change = this.#takeChange()
      try {
        this.#emitCommit(change, refusable)
      } catch (error) {
        // A listener refused it (see CommitListener): undone before anyone saw it.
        if (!refusable) throw error
        undo()
        throw error
      }
    } else this.#changes.discard()
    if (current.commit) for (const commit of current.commit) commit()
    if (changed) this.#notify()
    return result
  }

  afterCommit(fn: () => void): void {
    const tx = this.#tx
    if (tx) tx.commit = append(tx.commit, fn)
    else fn()
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  snapshot(options?: { copy?: boolean }): StoreSnapshot {
    return {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      tables: tableRows(this.#tablesByName(), options?.copy ?? true),
      counters: { ...this.#counters },
      last_micros: this.#lastMicros,
      clock_offset_ms: this.clock.offsetMs,
    }
  }

  restore(input: unknown, options?: RestoreOptions): void {
    // Every row and key is checked before anything changes; `load` then indexes the parsed rows.
    const { snapshot, rows } = parseSnapshot(this.#tablesByName(), input, options)
    this.#outsideTransaction('restore')
    this.#replacing(() => {
      this.#lastMicros = Math.max(this.#lastMicros, snapshot.last_micros)
      this.clock.restoreOffset?.(snapshot.clock_offset_ms)
      this.#replaceAll(rows, snapshot.counters, this.#lastMicros, options?.deferredRows)
    })
  }

  clear(): void {
    this.#outsideTransaction('clear')
    this.#replacing(() => {
      for (const table of this.#tableList) table.clear()
      this.#counters = {}
      this.#notify()
    })
  }

  load(
    rows: Readonly<Record<string, readonly object[]>>,
    counters: Record<string, number>,
    lastMicros: number,
  ): void {
    this.#outsideTransaction('load')
    this.#replacing(() => this.#replaceAll(rows, counters, lastMicros))
  }

  onCommit(listener: CommitListener): () => void {
    this.#commitListeners.add(listener)
    this.#changes.active = true
    return () => {
      this.#commitListeners.delete(listener)
      this.#changes.active = this.#commitListeners.size > 0
    }
  }

  applyChange(change: StoreChange): void {
    this.#outsideTransaction('applyChange')
    try {
      this.transact(() => applyTableChanges(this.#tablesByName(), change.tables))
    } catch (error) {
      throw new StoreError(`change record: ${(error as Error).message}`, { cause: error })
    }
    this.#counters = { ...change.counters }
    this.#lastMicros = Math.max(this.#lastMicros, change.last_micros)
    this.clock.restoreOffset?.(change.clock_offset_ms)
  }

  #tablesByName(): Record<string, AnyTable> {
    return this.tables as unknown as Record<string, AnyTable>
  }

  #outsideTransaction(operation: string): void {
    if (this.#tx) throw new StoreError(`${operation} inside a transaction`)
  }

  #notify(): void {
    this.#version++
    for (const listener of this.#listeners) {
      try {
        listener()
      } catch (error) {
        console.error('[reseller-mock] change listener failed:', error)
      }
    }
  }

  #emitCommit(change: StoreChange | 'replaced', refusable = false): void {
    const info = { refusable }
    for (const listener of this.#commitListeners) listener(change, info)
  }

  /** A restore, a clear or a load (reset) replaces everything: one 'replaced' for commit listeners. */
  #replacing(replace: () => void): void {
    const capturing = this.#changes.active
    this.#changes.active = false
    try {
      replace()
    } finally {
      this.#changes.active = capturing
    }
    this.#emitCommit('replaced')
  }

  /**
   * Empties every table, fills them with `rows` (already valid) or has them read `deferredRows` on
   * first use, sets the counters; notifies once.
   */
  #replaceAll(
    rows: Readonly<Record<string, readonly object[]>>,
    counters: Record<string, number>,
    micros: number,
    deferredRows?: (table: string) => readonly object[],
  ): void {
    for (const [name, table] of Object.entries(this.#tablesByName())) {
      table.clear()
      const given = rows[name]
      if (given) table.load(given)
      if (deferredRows) table.defer(() => deferredRows(name))
    }
    this.#counters = { ...counters }
    this.#lastMicros = Math.max(this.#lastMicros, micros)
    this.#notify()
  }

  #takeChange(): StoreChange {
    return {
      tables: this.#changes.take(),
      counters: { ...this.#counters },
      last_micros: this.#lastMicros,
      clock_offset_ms: this.clock.offsetMs,
    }
  }
}

/**
 * Creates an empty store reading time from `clock`. `validate: false` stores inserted rows without
 * parsing them with the storage schema (key checks stay): only for rows built from data already
 * validated, such as a large seed applied to a scratch store (`seed/prepared.ts`).
 */
export function createStore(clock: Clock, options: { validate?: boolean } = {}): Store {
  const core = new StoreCore(clock, options.validate ?? true)
  return Object.assign(core, core.tables)
}
