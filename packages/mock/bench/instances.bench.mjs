// What a fresh mock costs, for suites that make one per test: `createMockApi({ seed: demoSeed })`
// and `mock.reset()` (targets: under 1 ms each), heap per instance, and a 100k-record store built
// from a seed (target: under 1 s). The baseline, measured in the same run, is a mock made from a
// fresh copy of the demo seed each time: it pays what a seed object seen before does not (parse,
// uuids, one validated write per row), so the ratio shows what preparing a seed once saves.
import { createMockApi, demoSeed } from '../dist/index.js'

const ROUNDS = 400

/** Median ms of `fn` over ROUNDS runs, after a warm-up. */
function median(fn) {
  for (let i = 0; i < 50; i++) fn(i)
  const times = []
  for (let i = 0; i < ROUNDS; i++) {
    const start = process.hrtime.bigint()
    fn(i)
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]
}

const copies = Array.from({ length: ROUNDS + 50 }, () => structuredClone(demoSeed))
const baseline = median((i) => createMockApi({ seed: copies[i] }))
const create = median(() => createMockApi({ seed: demoSeed }))
const mock = createMockApi({ seed: demoSeed })
const reset = median(() => mock.reset())

// Heap: 200 live mocks, after a full collection before and after.
const settle = async () => {
  await new Promise((resolve) => setTimeout(resolve, 20))
  globalThis.gc?.()
}
await settle()
const before = process.memoryUsage().heapUsed
const live = Array.from({ length: 200 }, () => createMockApi({ seed: demoSeed }))
await settle()
const heapKiB = (process.memoryUsage().heapUsed - before) / live.length / 1024

// 100,000 records: 50,000 tickets with one message each, built once from a new seed object.
const big = {
  resellers: [
    {
      id: 1,
      api_keys: [{ key: 'svc_live_bench' }],
      tickets: Array.from({ length: 50_000 }, (_, i) => ({
        subject: `Ticket ${i}`,
        department: 'technical',
        messages: [{ message: `message ${i}` }],
      })),
    },
  ],
}
const started = process.hrtime.bigint()
const large = createMockApi({ seed: big })
const bigMs = Number(process.hrtime.bigint() - started) / 1e6
const records = large.db.tickets.size + large.db.messages.size
const resetStarted = process.hrtime.bigint()
large.reset()
const bigResetMs = Number(process.hrtime.bigint() - resetStarted) / 1e6

const line = (label, ms, target) =>
  console.log(`  ${label.padEnd(44)} ${ms.toFixed(3).padStart(9)} ms   ${target}`)
line('createMockApi({ seed: demoSeed }) median', create, `target < 1 ms: ${create < 1 ? 'met' : 'NOT met'}`)
line('  baseline: a fresh copy of the seed each time', baseline, `${(create / baseline).toFixed(2)}× of it`)
line('mock.reset() median', reset, `target < 1 ms: ${reset < 1 ? 'met' : 'NOT met'}`)
console.log(`  heap per live instance ${heapKiB.toFixed(1).padStart(29)} KiB`)
line(
  `store of ${records.toLocaleString('en')} records from a seed`,
  bigMs,
  `target < 1 s: ${bigMs < 1000 ? 'met' : 'NOT met'}`,
)
line('  and its reset()', bigResetMs, '')
if (live.length !== 200) throw new Error('unreachable: keeps the mocks alive until measured')
