// Durable writes (issue 14): sequential `POST /api/v1/support/tickets` against the built
// `reseller-mock` CLI (a child process) with 100, 10,000 and 50,000 tickets stored: median of 40
// writes with `--state` (every answer waits for its change to be on disk) and, as the baseline column,
// in memory (the same tickets from a `--seed`); the state file's size; the start time (spawn to
// "listening on") on that state file. Targets: write median at 50k within 2× the one at 100;
// start on a 50k-ticket state under 1 s.
//
// The state files are written directly in the version 2 layout (a snapshot holding N copies of a
// real ticket and its message, renumbered), not by 50k HTTP calls.
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createMockApi } from '../dist/index.js'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const SIZES = [100, 10_000, 50_000]
const WRITES = 40
const KEY = 'svc_live_bench'
const seed = {
  resellers: [{ id: 1, name: 'Bench', api_keys: [{ key: KEY, scopes: ['support:read', 'support:write'] }] }],
}
const ticketBody = JSON.stringify({ subject: 'Durable?', message: 'How long?', department: 'technical' })
const dir = await mkdtemp(join(tmpdir(), 'reseller-mock-durable-bench-'))

/** One real ticket and message as the mock stores them, and the rest of a fresh state. */
async function template() {
  const mock = createMockApi({ seed })
  const made = await mock.fetch('https://api.reseller.test/api/v1/support/tickets', {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: ticketBody,
  })
  if (made.status !== 201) throw new Error(`template ticket: ${made.status}`)
  return (await (await mock.fetch('https://api.reseller.test/__mock/state')).json()).data
}

/** A version 2 state file holding `n` tickets (one message each). */
async function writeStateFile(path, base, n) {
  const [ticket] = base.tables.tickets
  const [message] = base.tables.messages
  const tickets = new Array(n)
  const messages = new Array(n)
  for (let i = 0; i < n; i++) {
    tickets[i] = { ...ticket, id: i + 1, uuid: randomUUID(), subject: `Ticket ${i + 1}` }
    messages[i] = { ...message, id: i + 1, ticket_id: i + 1 }
  }
  const state = {
    ...base,
    tables: { ...base.tables, tickets, messages, events: [] },
    counters: { ...base.counters, ticket: n, message: n },
  }
  const header = {
    format: 'reseller-mock-state',
    version: 2,
    saved_at: new Date().toISOString(),
    seed,
    state,
  }
  await writeFile(path, `${JSON.stringify(header)}\n`)
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

async function writeMedian(url) {
  const post = async () => {
    const res = await fetch(`${url}/api/v1/support/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: ticketBody,
    })
    await res.arrayBuffer()
    if (res.status !== 201) throw new Error(`POST answered ${res.status}`)
  }
  for (let i = 0; i < 5; i++) await post()
  const times = []
  for (let i = 0; i < WRITES; i++) {
    const t = performance.now()
    await post()
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  return (times[WRITES / 2 - 1] + times[WRITES / 2]) / 2
}

const base = await template()
const rows = []
for (const n of SIZES) {
  // Memory mode: the same number of tickets, from a seed.
  const seedPath = join(dir, `seed-${n}.json`)
  const seeded = structuredClone(seed)
  seeded.resellers[0].tickets = Array.from({ length: n }, (_, i) => ({
    subject: `Ticket ${i + 1}`,
    department: 'technical',
    priority: 'normal',
    status: 'open',
    messages: [{ message: 'How long?', internal: false, from: 'client' }],
  }))
  await writeFile(seedPath, JSON.stringify(seeded))
  const memory = await startCli(['--seed', seedPath])
  const memoryMs = await writeMedian(memory.url)
  await memory.stop()

  const statePath = join(dir, `state-${n}.json`)
  await writeStateFile(statePath, base, n)
  const bytes = (await stat(statePath)).size
  const durable = await startCli(['--state', statePath])
  const durableMs = await writeMedian(durable.url)
  await durable.stop()
  rows.push({ n, memoryMs, durableMs, bytes, startMs: durable.startMs })
}
await rm(dir, { recursive: true, force: true })

console.log(`sequential POST /api/v1/support/tickets, median of ${WRITES}, CLI child process`)
console.log('tickets stored   write, memory   write, --state   state file   start (--state)')
for (const r of rows) {
  console.log(
    `${String(r.n).padStart(14)}   ${r.memoryMs.toFixed(2).padStart(10)} ms   ${r.durableMs.toFixed(2).padStart(11)} ms   ${(r.bytes / 1e6).toFixed(1).padStart(7)} MB   ${(r.startMs / 1000).toFixed(2).padStart(10)} s`,
  )
}
const small = rows[0]
const large = rows.at(-1)
const ratio = large.durableMs / small.durableMs
console.log(
  `ratio --state write 50k/100   ${ratio.toFixed(2).padStart(6)}   (target <= 2.00) ${ratio <= 2 ? 'ok' : 'ABOVE TARGET'}`,
)
console.log(
  `start on 50k tickets          ${(large.startMs / 1000).toFixed(2).padStart(6)} s (target < 1 s) ${large.startMs < 1000 ? 'ok' : 'ABOVE TARGET'}`,
)
process.exit(0)
