/**
 * Keeps a state database in step with a store: each committed transaction of the store is written
 * as one SQLite transaction the moment it commits (synchronously, inside `store.onCommit`), so it
 * is on disk before any answer can leave. A request's change that cannot be written (a full disk)
 * is refused: the store undoes it and the request is answered 500, so an error answer means nothing
 * changed, in memory or on disk, and a client may retry it. A write no request waits for (a delivery
 * attempt, a reset, a clock advance) is kept, in order with every later one, and tried again before
 * the next answer; until it succeeds every answer is a 500. See `ARCHITECTURE.md`, "Persistence".
 */
import { ApiError } from '../../errors.js'
import type { Clock } from '../../state/clock.js'
import type { Store } from '../../state/store.js'
import type { AnyTable, Key } from '../../state/table.js'
import {
  type KeyOf,
  type SerializedChange,
  type StateDatabase,
  serializeChange,
  type WholeState,
} from './database.js'

/** A write waiting for its turn: a change, the whole state (a reset), or a clock advance alone. */
type PendingWrite = { change: SerializedChange } | { whole: true } | { clockOffsetMs: number }

/** The answer of a request whose change the file refused: nothing of it was kept. */
function unsaved(failure: Error | undefined): ApiError {
  return new ApiError(
    500,
    'internal_error',
    `the change could not be saved to the state file (${failure?.message ?? 'unknown error'}): nothing was changed, the request may be retried`,
  )
}

/** How to find the primary key of a row of any of the store's tables. */
export function keyOfStore(store: Store): KeyOf {
  const tables = store.tables as unknown as Record<string, AnyTable & { keyOf(row: object): Key }>
  return (name, row) => {
    const table = tables[name]
    if (!table) throw new Error(`unknown table "${name}"`)
    return table.keyOf(row)
  }
}

/** The whole state of `store`, rows as they are (serialized at once by the database). */
export function wholeStateOf(store: Store): WholeState {
  const snapshot = store.snapshot({ copy: false })
  return {
    tables: snapshot.tables as Record<string, object[]>,
    counters: snapshot.counters,
    last_micros: snapshot.last_micros,
    clock_offset_ms: snapshot.clock_offset_ms,
  }
}

/** Writes a store's commits to its state database; see the module comment. */
export class StateSync {
  readonly #db: StateDatabase
  readonly #store: Store
  readonly #clock: Clock
  readonly #keyOf: KeyOf
  /** The seed `reset` returns to, as recorded (a reset writes it again with the whole state). */
  readonly #seedJson: () => string
  /** Writes not on disk yet, oldest first; empty while everything is. */
  #pending: PendingWrite[] = []
  #failure: Error | undefined
  /** The clock offset the database holds (or will, once `#pending` is written). */
  #savedOffset: number
  #unsubscribe: (() => void) | undefined

  constructor(db: StateDatabase, store: Store, clock: Clock, seedJson: () => string) {
    this.#db = db
    this.#store = store
    this.#clock = clock
    this.#keyOf = keyOfStore(store)
    this.#seedJson = seedJson
    this.#savedOffset = clock.offsetMs
    this.#unsubscribe = store.onCommit((change, { refusable }) => {
      if (change === 'replaced') {
        // The whole state replaces every earlier write still waiting.
        this.#pending = [{ whole: true }]
        this.#savedOffset = this.#clock.offsetMs
        this.#flush()
        return
      }
      const savedOffset = this.#savedOffset
      this.#pending.push({ change: serializeChange(change, this.#keyOf) })
      this.#savedOffset = change.clock_offset_ms
      if (this.#flush() || !refusable) return
      // Not written (the database rolled its transaction back): the store undoes it too.
      this.#pending.pop()
      this.#savedOffset = savedOffset
      throw unsaved(this.#failure)
    })
  }

  /** Number of writes waiting (after a failure). */
  get pending(): number {
    return this.#pending.length
  }

  /**
   * Makes the current state durable: records a clock advance no change recorded and writes what a
   * failure left waiting. `undefined` when everything is on disk (no promise on the read path); a
   * rejected promise while a write keeps failing.
   */
  durable(): Promise<void> | undefined {
    if (this.#clock.offsetMs !== this.#savedOffset) {
      this.#savedOffset = this.#clock.offsetMs
      this.#pending.push({ clockOffsetMs: this.#savedOffset })
    }
    if (this.#pending.length === 0) return undefined
    return this.#flush() ? undefined : Promise.reject(this.#failure)
  }

  /** Writes the whole current state now (a new file, an adopted seed). Throws when it cannot. */
  writeWhole(): void {
    this.#pending = [{ whole: true }]
    if (!this.#flush()) throw this.#failure
  }

  /**
   * Stops listening, writes what is waiting (one last try) and closes the database; first reads the
   * tables nobody used (the store outlives the file's lock) unless `settle` is false (the process exits).
   */
  close(warn: (line: string) => void, { settle = true }: { settle?: boolean } = {}): void {
    this.#unsubscribe?.()
    this.#unsubscribe = undefined
    try {
      this.durable()?.catch(() => {})
      if (this.#pending.length > 0) {
        warn(
          `reseller-mock: could not save the state file ${this.#db.path}: ${this.#failure?.message}; the last ${this.#pending.length} change(s) were not saved`,
        )
      }
    } finally {
      if (settle) this.#settleTables()
      this.#db.close()
    }
  }

  /**
   * Reads the tables the run never used (their rows are read on first use, from this file): the
   * store outlives the file's lock. A table that cannot be read stays as it is (it failed at use).
   */
  #settleTables(): void {
    for (const table of Object.values(this.#store.tables) as AnyTable[]) {
      try {
        table.settle()
      } catch {
        // Its uses answered the failure already.
      }
    }
  }

  /** Writes the waiting writes in order; stops at the first failure. Returns whether all were written. */
  #flush(): boolean {
    while (this.#pending.length > 0) {
      const next = this.#pending[0]!
      try {
        if ('change' in next) this.#db.writeChange(next.change)
        else if ('whole' in next) {
          this.#db.writeAll(wholeStateOf(this.#store), this.#seedJson(), this.#keyOf)
          // The current state covers every write queued after it.
          this.#pending = []
          break
        } else this.#db.writeClock(next.clockOffsetMs)
      } catch (error) {
        this.#failure = error as Error
        return false
      }
      this.#pending.shift()
    }
    this.#failure = undefined
    return true
  }
}
