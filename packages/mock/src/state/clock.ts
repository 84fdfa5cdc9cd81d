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

/**
 * The mock's time. It runs in real time and can be moved forward; tasks scheduled on it
 * (webhook deliveries and their retries) run when real time or an {@link Clock.advance} reaches them.
 */
export interface Clock {
  /** The current mock time. */
  now(): Date
  /** The current mock time in milliseconds since the epoch. */
  nowMs(): number
  /** How far mock time runs ahead of real time, in milliseconds. */
  readonly offsetMs: number
  /**
   * Moves mock time forward by `ms` and resolves once every task that falls due on the way has run.
   * Time moves like a fake timer's: it stops at each due task's time, runs the tasks due then
   * (concurrently), then moves on, so a task scheduled by another (a retry after a failed attempt)
   * also runs if it falls within the same advance.
   */
  advance(ms: number): Promise<void>
  /** Runs `task` once mock time reaches `at`. Returns a function that cancels it. */
  schedule(at: number, task: () => unknown): () => void
  /** Runs every task already due and resolves once they have run. */
  runDue(): Promise<void>
  /** Sets the offset of mock time over real time (restoring a saved state); mock time never goes back. */
  restoreOffset(offsetMs: number): void
  /** Cancels every scheduled task and stops the real-time timer. */
  stop(): void
}

/** Node caps timers at 2^31-1 ms; a later task is re-armed when the timer fires. */
const MAX_TIMER_MS = 2_147_483_647

/** Creates a {@link Clock}. */
export function createClock(options: ClockOptions = {}): Clock {
  const realNow = options.realNow ?? (() => Date.now())
  let offsetMs = options.offsetMs ?? 0
  let tasks: ScheduledTask[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  let draining: Promise<void> = Promise.resolve()

  const nowMs = () => realNow() + offsetMs

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

  /**
   * Runs due tasks in time order. With `advanceMs`, first fixes the target `now + advanceMs`, steps
   * mock time forward through the tasks up to it, and ends with the offset exactly `advanceMs` larger
   * (real time that passed meanwhile still counts on top, as it always does).
   */
  const drain = async (advanceMs?: number) => {
    const startOffset = offsetMs
    const target = advanceMs === undefined ? undefined : nowMs() + advanceMs
    for (;;) {
      const first = tasks[0]
      if (!first) break
      let now = nowMs()
      if (first.at > now) {
        if (target === undefined || first.at > target) break
        offsetMs += first.at - now
        now = first.at
      }
      const batch: ScheduledTask[] = []
      while (tasks[0] && tasks[0].at <= now) batch.push(tasks.shift()!)
      await Promise.all(batch.map(runTask))
    }
    if (advanceMs !== undefined) offsetMs = Math.max(offsetMs, startOffset + advanceMs)
    arm()
  }

  // Drains run one after another so that two advances never run the same task twice.
  const enqueue = (advanceMs?: number): Promise<void> => {
    draining = draining.then(() => drain(advanceMs))
    return draining
  }
  const runDue = () => enqueue()

  return {
    now: () => new Date(nowMs()),
    nowMs,
    get offsetMs() {
      return offsetMs
    },
    advance(ms: number) {
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
        return Promise.reject(new RangeError(`clock.advance: ms must be a finite number >= 0, got ${ms}`))
      }
      return enqueue(ms)
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
      if (next > offsetMs) offsetMs = next
      arm()
    },
    stop() {
      tasks = []
      if (timer) clearTimeout(timer)
      timer = undefined
    },
  }
}

/** Formats a time as an ISO 8601 UTC timestamp with microseconds (`…:30.123000Z`), as the API does. */
export function toTimestampMicros(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
}

/** A UTC timestamp (`…:30.123456Z`) written with a numeric offset (`…:30.123456+00:00`), as general events carry it. */
export function withUtcOffset(timestamp: string): string {
  return timestamp.endsWith('Z') ? `${timestamp.slice(0, -1)}+00:00` : timestamp
}
