/** A task the clock runs once the mock time reaches `at` (milliseconds since the epoch). */
interface ScheduledTask {
  at: number
  seq: number
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
 * (webhook retries) run when real time or an {@link Clock.advance} reaches them.
 */
export interface Clock {
  /** The current mock time. */
  now(): Date
  /** The current mock time in milliseconds since the epoch. */
  nowMs(): number
  /** How far mock time runs ahead of real time, in milliseconds. */
  readonly offsetMs: number
  /** Moves mock time forward by `ms`; every task that falls due runs, in time order, before it resolves. */
  advance(ms: number): Promise<void>
  /** Runs `task` once mock time reaches `at`. Returns a function that cancels it. */
  schedule(at: number, task: () => unknown): () => void
  /** Runs every task already due, in time order. */
  runDue(): Promise<void>
  /** Cancels every scheduled task and stops the real-time timer. */
  stop(): void
}

/** Creates a {@link Clock}. */
export function createClock(options: ClockOptions = {}): Clock {
  const realNow = options.realNow ?? (() => Date.now())
  let offsetMs = options.offsetMs ?? 0
  let seq = 0
  let tasks: ScheduledTask[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  let draining: Promise<void> | undefined

  const nowMs = () => realNow() + offsetMs

  const arm = () => {
    if (timer) clearTimeout(timer)
    timer = undefined
    const next = tasks[0]
    if (!next) return
    // Node caps timers at 2^31-1 ms; a later task is re-armed when this one fires.
    const delay = Math.min(Math.max(0, next.at - nowMs()), 2_147_483_647)
    timer = setTimeout(() => void runDue(), delay)
    // A pending retry must not keep a test process or a closed server alive.
    if (typeof timer === 'object' && timer && 'unref' in timer) timer.unref()
  }

  const drain = async () => {
    for (;;) {
      const next = tasks[0]
      if (!next || next.at > nowMs()) break
      tasks.shift()
      try {
        await next.run()
      } catch {
        // A task reports its own failures; one failing task must not stop the others.
      }
    }
    arm()
  }

  const runDue = (): Promise<void> => {
    // Serialize drains so that two advances never run the same task twice.
    draining = (draining ?? Promise.resolve()).then(drain)
    return draining
  }

  return {
    now: () => new Date(nowMs()),
    nowMs,
    get offsetMs() {
      return offsetMs
    },
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) {
        return Promise.reject(new RangeError(`clock.advance: ms must be a finite number >= 0, got ${ms}`))
      }
      offsetMs += ms
      return runDue()
    },
    schedule(at: number, run: () => unknown) {
      const task: ScheduledTask = { at, seq: seq++, run }
      tasks.push(task)
      tasks.sort((a, b) => a.at - b.at || a.seq - b.seq)
      arm()
      return () => {
        tasks = tasks.filter((t) => t !== task)
        arm()
      }
    },
    runDue,
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

/** Formats a time as an ISO 8601 timestamp with a numeric offset (`…:30+00:00`), as general events do. */
export function toTimestampWithOffset(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00')
}
