// Durable writes with `--state` (an SQLite database), against the built `reseller-mock` CLI (a child
// process), on the state the CLI itself writes from a `--seed` of N tickets (the seed recorded in it,
// a message per ticket):
// - write: median of sequential `POST /api/v1/support/tickets` at 100 and 50,000 tickets stored;
//   baseline: the same writes in memory (same seed, no --state), measured in the same run;
// - concurrency: throughput of 4 concurrent writers against 1, on the same state file (median of
//   3 alternated rounds each);
// - restart: spawn to "listening on" on the 50,000-ticket state, as `--seed FILE --state FILE` (the
//   command that wrote it) and as `--state FILE` alone; baseline: the start on the 100-ticket state.
//   A table is read from the file when first used (docs/running-the-mock.md, "State file"), so the
//   bench also shows spawn to the first answer of `GET /api/v1/support/tickets` (which reads the
//   50,000 tickets) after a `--state FILE` start.
// Targets: write at 50k within 2x the one at 100; 4 writers at least the throughput of 1; restart
// on 50k tickets under 1 s (both commands).
import { spawn } from 'node:child_process'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const SIZES = [100, 50_000]
const WRITES = 40
const CONCURRENT_WRITES = 120
const KEY = 'svc_live_bench'
const ticketBody = JSON.stringify({ subject: 'Durable?', message: 'How long?', department: 'technical' })
const dir = await mkdtemp(join(tmpdir(), 'reseller-mock-durable-bench-'))

function seedOf(n) {
  return {
    resellers: [
      {
        id: 1,
        name: 'Bench',
        api_keys: [{ key: KEY, scopes: ['support:read', 'support:write'] }],
        tickets: Array.from({ length: n }, (_, i) => ({
          subject: `Ticket ${i + 1}`,
          department: 'technical',
          priority: 'normal',
          status: 'open',
          messages: [{ message: 'How long?', internal: false, from: 'client' }],
        })),
      },
    ],
  }
}

/** Starts the CLI; resolves its URL, the time to "listening on", and a stop function. */
function startCli(args) {
  const started = performance.now()
  const child = spawn(process.execPath, [CLI, '--port', '0', '--quiet', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let err = ''
  child.stderr.on('data', (c) => {
    err += c
  })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match) {
        child.stdout.removeAllListeners('data')
        child.stdout.resume()
        resolve({
          url: match[1],
          started,
          startMs: performance.now() - started,
          stop: () =>
            new Promise((done) => {
              child.once('exit', done)
              child.kill('SIGTERM')
            }),
        })
      }
    })
    child.once('exit', (code) => reject(new Error(`CLI exited with ${code}: ${err}`)))
  })
}

async function post(url) {
  const res = await fetch(`${url}/api/v1/support/tickets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: ticketBody,
  })
  await res.arrayBuffer()
  if (res.status !== 201) throw new Error(`POST answered ${res.status}`)
}

/** Spawn to the first answer of a ticket list (the tickets table read from the file). */
async function firstListMs(cli) {
  const res = await fetch(`${cli.url}/api/v1/support/tickets?per_page=20`, {
    headers: { authorization: `Bearer ${KEY}` },
  })
  await res.arrayBuffer()
  if (res.status !== 200) throw new Error(`GET answered ${res.status}`)
  return performance.now() - cli.started
}

async function writeMedian(url) {
  for (let i = 0; i < 5; i++) await post(url)
  const times = []
  for (let i = 0; i < WRITES; i++) {
    const t = performance.now()
    await post(url)
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  return (times[WRITES / 2 - 1] + times[WRITES / 2]) / 2
}

/** Writes per second with `writers` clients each posting in a loop, `CONCURRENT_WRITES` in all. */
async function throughput(url, writers) {
  let left = CONCURRENT_WRITES
  const t = performance.now()
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (left-- > 0) await post(url)
    }),
  )
  return CONCURRENT_WRITES / ((performance.now() - t) / 1000)
}

const rows = []
let concurrency
for (const n of SIZES) {
  const seedPath = join(dir, `seed-${n}.json`)
  await writeFile(seedPath, JSON.stringify(seedOf(n)))
  const memory = await startCli(['--seed', seedPath])
  const memoryMs = await writeMedian(memory.url)
  await memory.stop()

  const statePath = join(dir, `state-${n}.db`)
  const args = ['--seed', seedPath, '--state', statePath]
  const created = await startCli(args)
  await created.stop()
  const restart = await startCli(args)
  const durableMs = await writeMedian(restart.url)
  if (n === SIZES[0]) {
    // Alternated rounds, median of each: a machine whose load drifts skews both alike.
    const ones = []
    const fours = []
    for (let round = 0; round < 3; round++) {
      ones.push(await throughput(restart.url, 1))
      fours.push(await throughput(restart.url, 4))
    }
    const median = (values) => values.sort((a, b) => a - b)[1]
    concurrency = { one: median(ones), four: median(fours) }
  }
  await restart.stop()
  const stateOnly = await startCli(['--state', statePath])
  const firstAnswerMs = await firstListMs(stateOnly)
  await stateOnly.stop()
  const bytes = (await stat(statePath)).size
  rows.push({
    n,
    memoryMs,
    durableMs,
    bytes,
    createMs: created.startMs,
    restartMs: restart.startMs,
    stateOnlyMs: stateOnly.startMs,
    firstAnswerMs,
  })
}
await rm(dir, { recursive: true, force: true })

console.log(
  `sequential POST /api/v1/support/tickets, median of ${WRITES}, CLI child process; state written by the CLI from --seed`,
)
console.log(
  'tickets stored   write, memory   write, --state   state file   first start   restart   restart (--state only)   first list answered',
)
for (const r of rows) {
  console.log(
    `${String(r.n).padStart(14)}   ${r.memoryMs.toFixed(2).padStart(10)} ms   ${r.durableMs.toFixed(2).padStart(11)} ms   ${(r.bytes / 1e6).toFixed(1).padStart(7)} MB   ${(r.createMs / 1000).toFixed(2).padStart(9)} s   ${(r.restartMs / 1000).toFixed(2).padStart(5)} s   ${(r.stateOnlyMs / 1000).toFixed(2).padStart(5)} s   ${(r.firstAnswerMs / 1000).toFixed(2).padStart(12)} s`,
  )
}
const small = rows[0]
const large = rows.at(-1)
const ratio = large.durableMs / small.durableMs
console.log(
  `ratio --state write 50k/100           ${ratio.toFixed(2).padStart(6)}   (target <= 2.00) ${ratio <= 2 ? 'PASS' : 'FAIL'}`,
)
const share = concurrency.four / concurrency.one
console.log(
  `throughput, 4 writers / 1 writer     ${share.toFixed(2).padStart(6)}   (${concurrency.one.toFixed(0)} vs ${concurrency.four.toFixed(0)} writes/s; target >= 1.00) ${share >= 1 ? 'PASS' : 'FAIL'}`,
)
const startRatio = large.restartMs / small.restartMs
console.log(`ratio restart 50k/100                ${startRatio.toFixed(2).padStart(6)}`)
console.log(
  `restart on 50k tickets               ${(large.restartMs / 1000).toFixed(2).padStart(6)} s (--state only ${(large.stateOnlyMs / 1000).toFixed(2)} s; target < 1 s) ${Math.max(large.restartMs, large.stateOnlyMs) < 1000 ? 'PASS' : 'FAIL'}`,
)
console.log(
  `first ticket list after --state only ${(large.firstAnswerMs / 1000).toFixed(2).padStart(6)} s (spawn to answer; the tickets are read at that first use)`,
)
process.exit(0)
