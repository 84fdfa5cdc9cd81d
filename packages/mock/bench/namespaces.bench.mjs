// What a namespace costs (docs/running-the-mock.md, "Namespaces"), the four figures in one run
// against the built `reseller-mock` CLI in a child process (in memory, its defaults: journal of
// 1,000 entries per mock, --max-namespaces 1000, no request log). The keyed read is
// `GET /api/v1/reseller/whm/usage` with the demo seed's key.
//
// 1. Creating and deleting a namespace of the demo seed, against keyed reads of the root, both one
//    request at a time on the same keep-alive connection: (create + delete) / read <= 10.
// 2. The keyed read under a namespace's URL against the same read at the root: 50 keep-alive
//    connections (autocannon, in this process; the server has its own), rounds alternating the
//    order, the median of the rounds' ratios: namespace / root >= 0.95. The verdict is on the reads
//    per second of the server's own CPU time (utime + stime of /proc/PID/stat): on a machine shared
//    with other work, requests per wall-clock second swing by half from one second to the next,
//    while the server's work per read does not. Both are printed.
// 3. 1,000 idle namespaces of the demo seed: the server's RSS after a full GC, before and after:
//    growth <= 150 MB.
// 4. Namespaces at their journal limit: BENCH_NS_FULL (default 20) namespaces get 1,000 requests
//    each (a full journal), then as many again (a full journal drops its oldest entries: RSS must
//    not grow, <= 1.10); the bound for --max-namespaces namespaces each at its limit is projected
//    from the measured cost of one full journal, and printed (no target: a figure for the docs).
// Environment: BENCH_DURATION_S (seconds per load round, default 1), BENCH_ROUNDS (default 16).
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

const KEY = 'svc_live_acme_full'
const READ = '/api/v1/reseller/whm/usage'
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 1)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 16)
const FULL = Number(process.env.BENCH_NS_FULL ?? 20)
const MAX = 1000
const JOURNAL = 1000
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]

// The server reports its RSS after V8's last-resort full GC when it gets SIGUSR2 (a preload, as in
// memory.bench.mjs: the CLI is untouched).
const preload = `data:text/javascript,${encodeURIComponent(
  "const full = () => globalThis.gc({ type: 'major', execution: 'sync', flavor: 'last-resort' }); process.on('SIGUSR2', () => { full(); setTimeout(() => { full(); process.stdout.write('rss ' + process.memoryUsage().rss + '\\n') }, 500) })",
)}`
const child = spawn(process.execPath, ['--expose-gc', '--import', preload, cli, '--port', '0', '--quiet'], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
const waiters = []
createInterface({ input: child.stdout }).on('line', (line) => {
  const waiter = waiters.find((w) => w.test.test(line))
  if (waiter) {
    waiters.splice(waiters.indexOf(waiter), 1)
    waiter.resolve(line)
  }
})
const nextLine = (test) => new Promise((resolve) => waiters.push({ test, resolve }))
const base = (await nextLine(/listening on http:\/\/\S+/)).match(/http:\/\/\S+/)[0]
const rss = async () => {
  const line = nextLine(/^rss \d+$/)
  child.kill('SIGUSR2')
  return Number((await line).slice(4))
}

/** One request on `agent`'s connections; resolves the status (the body is read and dropped). */
function send(agent, method, path, body) {
  const payload = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${KEY}`,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode))
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}
const expectStatus = async (pending, status, what) => {
  const got = await pending
  if (got !== status) throw new Error(`${what}: ${got}, not ${status}`)
}

// 1. Create + delete against keyed reads, on one connection.
const one = new Agent({ keepAlive: true, maxSockets: 1 })
const timeOf = async (n, step) => {
  for (let i = 0; i < Math.min(50, n); i++) await step(i)
  const started = performance.now()
  for (let i = 0; i < n; i++) await step(i)
  return (performance.now() - started) / n
}
const createDelete = []
const reads = []
for (let round = 0; round < 5; round++) {
  reads.push(await timeOf(2000, () => expectStatus(send(one, 'GET', READ), 200, 'keyed read')))
  createDelete.push(
    await timeOf(200, async (i) => {
      await expectStatus(send(one, 'POST', '/__mock/namespaces', { id: `cd-${round}-${i}` }), 201, 'create')
      await expectStatus(send(one, 'DELETE', `/__mock/namespaces/cd-${round}-${i}`), 200, 'delete')
    }),
  )
}
const lifecycle = median(createDelete) / median(reads)
console.log(
  `create + delete of a demo-seed namespace: ${(median(createDelete) * 1000).toFixed(0)} µs = ${lifecycle.toFixed(1)} keyed reads of the root (${(median(reads) * 1000).toFixed(0)} µs each, same connection); target <= 10: ${lifecycle <= 10 ? 'ok' : 'MISSED'}`,
)

// 2. The keyed read under a namespace against the root.
await expectStatus(send(one, 'POST', '/__mock/namespaces', { id: 'bench' }), 201, 'create bench')
/** The server's CPU time so far, in seconds (Linux: /proc/PID/stat, in clock ticks of 1/100 s). */
const cpu = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}
const load = async (path) => {
  const spent = cpu()
  const result = await autocannon({
    url: `${base}${path}`,
    connections: 50,
    duration: DURATION_S,
    headers: { authorization: `Bearer ${KEY}` },
  })
  if (result.errors || result.timeouts || result.non2xx) throw new Error(`${path}: errors under load`)
  return { wall: result.requests.average, cpu: result.requests.total / (cpu() - spent) }
}
await load(READ)
await load(`/ns/bench${READ}`)
const ratios = []
const wallRatios = []
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? [READ, `/ns/bench${READ}`] : [`/ns/bench${READ}`, READ]
  const [first, second] = [await load(order[0]), await load(order[1])]
  const [root, namespaced] = round % 2 === 0 ? [first, second] : [second, first]
  ratios.push(namespaced.cpu / root.cpu)
  wallRatios.push(namespaced.wall / root.wall)
}
const readRatio = median(ratios)
const range = (values) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`
console.log(
  `keyed read under a namespace / at the root, per second of server CPU: ${readRatio.toFixed(3)} (median of ${ROUNDS} rounds, ${range(ratios)}); per wall-clock second: ${median(wallRatios).toFixed(3)} (${range(wallRatios)}); target >= 0.95: ${readRatio >= 0.95 ? 'ok' : 'MISSED'}`,
)
await expectStatus(send(one, 'DELETE', '/__mock/namespaces'), 200, 'clear')

// 3. 1,000 idle namespaces.
const pool = new Agent({ keepAlive: true, maxSockets: 8 })
const before = await rss()
for (let i = 0; i < MAX; i += 8) {
  await Promise.all(
    Array.from({ length: Math.min(8, MAX - i) }, (_, j) =>
      expectStatus(send(pool, 'POST', '/__mock/namespaces', { id: `idle-${i + j}` }), 201, 'create idle'),
    ),
  )
}
const idle = await rss()
const idleMb = (idle - before) / 2 ** 20
console.log(
  `${MAX} idle namespaces of the demo seed add ${idleMb.toFixed(1)} MB RSS (${(before / 2 ** 20).toFixed(0)} -> ${(idle / 2 ** 20).toFixed(0)} MB; ${((idle - before) / MAX / 1024).toFixed(0)} KiB each); target <= 150 MB: ${idleMb <= 150 ? 'ok' : 'MISSED'}`,
)

// 4. Full journals: FULL namespaces get 1,000 reads each, then 1,000 more.
const fill = async () => {
  for (let n = 0; n < FULL; n++) {
    for (let i = 0; i < JOURNAL; i += 16)
      await Promise.all(
        Array.from({ length: 16 }, () =>
          expectStatus(send(pool, 'GET', `/ns/idle-${n}${READ}`), 200, 'fill'),
        ),
      )
  }
}
await fill()
const full = await rss()
await fill()
const again = await rss()
const perJournal = (full - idle) / FULL
const bound = idle + perJournal * MAX
console.log(
  `a full journal (${JOURNAL} entries) costs ${(perJournal / 2 ** 20).toFixed(2)} MB per namespace (measured on ${FULL}); as many requests again: RSS x${(again / full).toFixed(2)} (bounded: <= 1.10 ${again / full <= 1.1 ? 'ok' : 'MISSED'}); projected for ${MAX} namespaces each at its limit: ${(bound / 2 ** 20).toFixed(0)} MB RSS`,
)

child.kill('SIGTERM')
await new Promise((resolve) => child.once('exit', resolve))
// As the other benches: the lines say ok or MISSED; the run itself does not fail on a figure.
process.exit(0)
