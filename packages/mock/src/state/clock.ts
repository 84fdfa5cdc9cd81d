/** A task the clock runs once the mock time reaches `at` (milliseconds since the epoch). */
interface ScheduledTask {
  at: number
  run: () => unknown
}

/** Options of {@link createClock}. */
export interface ClockOptions {
  /** Source of real time; the only place in the mock where the wall clock is read. */
  realNow?: () => number
  /** Mock time starts this many milliseconds ahead of real time (a restored offset). */
  offsetMs?: number
}

/** What the clock reads: `GET /__mock/clock` answers it, {@link Clock.advance} resolves it. */
export interface ClockState {
  /** The current mock time, ISO 8601 UTC with microseconds (`2026-11-23T14:00:00.000000Z`). */
  now: string
  /** How far mock time runs ahead of real time, in milliseconds. */
  offset_ms: number
}

/**
 * The mock's time: real time plus an offset that only grows. Between advances it runs with real
 * time; {@link Clock.advance} moves it like a fake timer: while an advance runs, mock time stands
 * still except for the jumps the advance makes itself, so slow receivers cannot push a retry past
 * the end of the advance. Tasks scheduled on it (webhook deliveries and their retries) run when real
 * time or an advance reaches them.
 */
export interface Clock {
  /** The current mock time. */
  now(): Date
  /** The current mock time in milliseconds since the epoch. */
  nowMs(): number
  /** How far mock time runs ahead of real time, in milliseconds. */
  readonly offsetMs: number
  /** The current mock time and offset. */
  state(): ClockState
  /**
   * The same as {@link Clock.state}, by the name `connectMock(url).clock.get()` has (`GET
   * /__mock/clock`), so that `await mock.clock.get()` runs against an in-process mock and a
   * running one alike.
   */
  get(): ClockState
  /**
   * Moves mock time forward by `ms` (the offset grows by exactly `ms`) and resolves, with the
   * clock's {@link ClockState} afterwards, once every task that falls due on the way has run.
   * Time moves like a fake timer's: it is frozen at the advance's start, jumps to each due task's
   * time, runs the tasks due then (concurrently) while standing still, then moves on, so a task
   * scheduled by another (a retry after a failed attempt) also runs if it falls within the same
   * advance, however long the tasks take in real time. Real time that passed during the advance
   * counts again once it resolves (mock time is real time plus the offset).
   *
   * Mock time never passes 9999-12-31T00:00:00Z (timestamps have four-digit years): an advance
   * that would end later rejects with a `RangeError` before anything moves, and real time passing
   * leaves mock time standing there.
   */
  advance(ms: number): Promise<ClockState>
  /** Runs `task` once mock time reaches `at`. Returns a function that cancels it. */
  schedule(at: number, task: () => unknown): () => void
  /** Runs every task already due and resolves once they have run. */
  runDue(): Promise<void>
  /**
   * Sets the offset of mock time over real time (restoring a saved state); mock time never goes
   * back, nor past 9999-12-31T00:00:00Z (an offset that would carry it further stops it there).
   */
  restoreOffset(offsetMs: number): void
  /** Cancels every scheduled task and stops the real-time timer. */
  stop(): void
}

/**
 * The latest mock time: 9999-12-31T00:00:00.000Z. Timestamps are written with four-digit years
 * (ISO 8601 as the API sends them), so the clock stops a day short of year 10000: times the mock
 * derives from now (a webhook retry up to an hour ahead) and real time passing stay writable.
 * See docs/spec-decisions.md, "The clock's range".
 */
export const LATEST_MOCK_TIME_MS = Date.UTC(9999, 11, 31)

/**
 * Thrown (as a rejection) by {@link Clock.advance} when the advance would take mock time past
 * {@link LATEST_MOCK_TIME_MS}; nothing moved. `remainingMs` is the longest advance still possible.
 */
export class ClockRangeError extends RangeError {
  override readonly name = 'ClockRangeError'
  constructor(
    /** The advance asked for, in milliseconds. */
    readonly requestedMs: number,
    /** The longest advance the clock can still make, in milliseconds. */
    readonly remainingMs: number,
  ) {
    super(
      `clock.advance: ${requestedMs} ms would take mock time past ${new Date(LATEST_MOCK_TIME_MS).toISOString()}, the latest it can write; it can move ${remainingMs} ms more`,
    )
  }
}

/** Node caps timers at 2^31-1 ms; a later task is re-armed when the timer fires. */
const MAX_TIMER_MS = 2_147_483_647

/** Creates a {@link Clock}. */
export function createClock(options: ClockOptions = {}): Clock {
  const realNow = options.realNow ?? (() => Date.now())
  let offsetMs = options.offsetMs ?? 0
  let tasks: ScheduledTask[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  let draining: Promise<unknown> = Promise.resolve()
  // Mock time while an advance runs: it stands still there, whatever real time does.
  let frozenAt: number | undefined

  // Real time passing never carries mock time out of the range it can write.
  const nowMs = () => frozenAt ?? Math.min(realNow() + offsetMs, LATEST_MOCK_TIME_MS)
  const state = (): ClockState => ({ now: toTimestampMicros(new Date(nowMs())), offset_ms: offsetMs })

  const arm = () => {
    if (timer) clearTimeout(timer)
    timer = undefined
    const next = tasks[0]
    if (!next) return
    const delay = Math.min(Math.max(0, next.at - nowMs()), MAX_TIMER_MS)
    timer = setTimeout(() => void runDue(), delay)
    // A pending retry must not keep a test process or a closed server alive.
    if (typeof timer === 'object' && timer && 'unref' in timer) timer.unref()
  }

  const runTask = async (task: ScheduledTask) => {
    try {
      await task.run()
    } catch {
      // A task reports its own failures; one failing task must not stop the others.
    }
  }

  /** Runs the tasks due at `now`, in time order, until none is left (a task may schedule another). */
  const runDueAt = async (now: () => number) => {
    while (tasks[0] && tasks[0].at <= now()) {
      const batch: ScheduledTask[] = []
      const at = now()
      while (tasks[0] && tasks[0].at <= at) batch.push(tasks.shift()!)
      await Promise.all(batch.map(runTask))
    }
  }

  /**
   * Moves mock time to `start + ms` through every task on the way. Time is frozen from the start;
   * it jumps to each next task's time, and the offset ends exactly `ms` larger than it began.
   */
  const advanceBy = async (ms: number): Promise<ClockState> => {
    const start = nowMs()
    const target = start + ms
    // Refused before anything moves: no task runs, the offset stays.
    if (target > LATEST_MOCK_TIME_MS) throw new ClockRangeError(ms, LATEST_MOCK_TIME_MS - start)
    frozenAt = start
    try {
      await runDueAt(() => frozenAt!)
      for (;;) {
        const next = tasks[0]
        if (!next || next.at > target) break
        frozenAt = Math.max(frozenAt!, next.at)
        await runDueAt(() => frozenAt!)
      }
    } finally {
      offsetMs += ms
      frozenAt = undefined
    }
    arm()
    return state()
  }

  const drainDue = async () => {
    await runDueAt(nowMs)
    arm()
  }

  // Drains run one after another so that two advances never run the same task twice.
  const enqueue = <T>(job: () => Promise<T>): Promise<T> => {
    const done = draining.then(job)
    draining = done.catch(() => {})
    return done
  }
  const runDue = () => enqueue(drainDue)

  return {
    now: () => new Date(nowMs()),
    nowMs,
    get offsetMs() {
      return offsetMs
    },
    state,
    get: state,
    advance(ms: number) {
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
        return Promise.reject(new RangeError(`clock.advance: ms must be a finite number >= 0, got ${ms}`))
      }
      return enqueue(() => advanceBy(ms))
    },
    schedule(at: number, run: () => unknown) {
      const task: ScheduledTask = { at, run }
      // Insert in order (stable for equal times); schedules are short, a scan is fine.
      let i = tasks.length
      while (i > 0 && tasks[i - 1]!.at > at) i--
      tasks.splice(i, 0, task)
      if (i === 0) arm()
      return () => {
        const index = tasks.indexOf(task)
        if (index === -1) return
        tasks.splice(index, 1)
        if (index === 0) arm()
      }
    },
    runDue,
    restoreOffset(next: number) {
      if (!Number.isFinite(next)) throw new RangeError(`clock.restoreOffset: not a finite number: ${next}`)
      // A saved offset past the clock's range (real time moved on since) puts it at its latest time.
      const capped = Math.min(next, LATEST_MOCK_TIME_MS - realNow())
      if (capped > offsetMs) offsetMs = capped
      arm()
    },
    stop() {
      tasks = []
      if (timer) clearTimeout(timer)
      timer = undefined
    },
  }
}

/**
 * `micros` if it is later than `last`, else the next value after `last` (both microseconds since
 * the epoch). Past 2^53 µs (year 2255) a double skips microseconds: the step is then the smallest
 * one it holds, so timestamps stay strictly increasing up to the end of the clock's range.
 */
export function strictlyAfter(micros: number, last: number): number {
  if (micros > last) return micros
  let step = 1
  while (last + step <= last) step *= 2
  return last + step
}

/** Formats a time as an ISO 8601 UTC timestamp with microseconds (`…:30.123000Z`), as the API does. */
export function toTimestampMicros(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
}

/** A UTC timestamp (`…:30.123456Z`) written with a numeric offset (`…:30.123456+00:00`), as general events carry it. */
export function withUtcOffset(timestamp: string): string {
  return timestamp.endsWith('Z') ? `${timestamp.slice(0, -1)}+00:00` : timestamp
}
