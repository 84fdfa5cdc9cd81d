// Memory of a long-running standalone mock: the built `reseller-mock` CLI in a child
// process (in memory, `--insecure-webhooks`, no request log) under a mixed load: ticket creates and
// replies, sandbox and live provisioning (live until the WHM quota is full), general webhook
// creates (until the cap of 100), emitted events, webhook tests, and reads. Events are delivered to
// a receiver in this process. RSS of the server is read after a full GC at 50k and at 100k
// requests; once the retention limits are reached (events per reseller, deliveries per webhook,
// webhooks per reseller, the request journal), the ratio 100k / 50k stays <= 1.10.
//
// What still grows, by design: tickets and their messages (the user's own data, never pruned). They
// are a small share of the mix here, and the count is printed beside the figures.
//
// Then a read-only phase: READS requests that change nothing (lists, details, histories, the
// journal's own listing), on the state the mixed load left. V8's heap after a full GC is read at
// the phase's start and end: what a read retains shows as growth; the target is flat (<= 1 MB over
// 50,000 reads). BENCH_MEMORY_SNAPSHOTS=DIR writes a heap snapshot at both points, to compare in
// Chrome DevTools (Memory, Comparison) when the figure moves.
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { Agent, createServer, request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const TOTAL = Number(process.env.BENCH_MEMORY_REQUESTS ?? 100_000)
const READS = Number(process.env.BENCH_MEMORY_READS ?? 50_000)
const SNAPSHOTS = process.env.BENCH_MEMORY_SNAPSHOTS
const HALF = TOTAL / 2
const CONCURRENCY = 16
const LIVE = 'svc_live_memory'
const SANDBOX = 'svc_test_memory'
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url))

// The receiver of every delivery: answers at once.
let delivered = 0
const receiver = createServer({ keepAlive: true }, (req, res) => {
  req.resume()
  req.on('end', () => {
    delivered++
    res.writeHead(204).end()
  })
})
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`

const dir = mkdtempSync(join(tmpdir(), 'reseller-mock-memory-'))
const seedPath = join(dir, 'seed.json')
writeFileSync(
  seedPath,
  JSON.stringify({
    domain_price: 10,
    resellers: [
      {
        id: 1,
        name: 'Memory Hosting',
        wallet_balance: 1000,
        whm: { status: 'online', accounts_limit: 50 },
        packages: [{ name: 'starter', quota: 1000 }],
        clients: [{ id: 501, name: 'One', email: 'one@example.com' }],
        api_keys: [
          { key: LIVE, scopes: ['reseller:hosting', 'reseller:webhooks', 'support:read', 'support:write'] },
          {
            key: SANDBOX,
            scopes: ['reseller:hosting', 'reseller:webhooks', 'support:read', 'support:write'],
          },
        ],
        webhook: { url: hookUrl, secret: 'reseller-secret' },
      },
    ],
  }),
)

// The server reports its RSS when it gets SIGUSR2 (a preload; the CLI is untouched), after V8's
// "last resort" full GC, the one it runs before giving up on memory: it also shrinks the young
// generation and gives pooled pages back, so RSS shows what is live rather than how large the
// heap happened to grow under load.
// SIGUSR1 writes a heap snapshot (Node's --heapsnapshot-signal) when BENCH_MEMORY_SNAPSHOTS is set.
const preload = `data:text/javascript,${encodeURIComponent(
  "const full = () => globalThis.gc({ type: 'major', execution: 'sync', flavor: 'last-resort' }); process.on('SIGUSR2', () => { full(); setTimeout(() => { full(); const m = process.memoryUsage(); process.stdout.write('rss ' + m.rss + ' heap ' + m.heapUsed + ' ' + JSON.stringify(m) + '\\n') }, 1000) })",
)}`
const child = spawn(
  process.execPath,
  [
    '--expose-gc',
    ...(SNAPSHOTS ? ['--heapsnapshot-signal=SIGUSR1', `--diagnostic-dir=${SNAPSHOTS}`] : []),
    '--import',
    preload,
    cli,
    '--port',
    '0',
    '--seed',
    seedPath,
    '--insecure-webhooks',
    '--quiet',
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
)
const lines = createInterface({ input: child.stdout })
const waiters = []
lines.on('line', (line) => {
  const waiter = waiters.find((w) => w.test.test(line))
  if (waiter) {
    waiters.splice(waiters.indexOf(waiter), 1)
    waiter.resolve(line)
  }
})
const nextLine = (test) => new Promise((resolve) => waiters.push({ test, resolve }))
const base = (await nextLine(/http:\/\/\S+/)).match(/http:\/\/[^\s/]+/)[0]

const headers = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' })
let lastTicket
let serial = 0
const counts = {}

/** One request of the mix, chosen by its number. */
function request(n) {
  const op = n % 20
  const json = (method, path, body, key = LIVE) => ({ method, path, body, key })
  switch (op) {
    case 0:
      // Tickets and replies are kept for good: one of each per 40 requests.
      if (n % 40 !== 0) return json('GET', '/api/v1/support/tickets?page=2')
      return json('POST', '/api/v1/support/tickets', {
        subject: `Ticket ${n}`,
        department: 'technical',
        message: `Message of ticket ${n}`,
      })
    case 1:
      return lastTicket && n % 40 === 1
        ? json('POST', `/api/v1/support/tickets/${lastTicket}/messages`, { message: `Reply ${n}` })
        : json('GET', '/api/v1/support/tickets?page=1')
    case 2:
    case 7:
    case 12:
      return json(
        'POST',
        '/api/v1/reseller/clients/501/hosting',
        { domain: `sb${n}.example`, whm_package: 'starter' },
        SANDBOX,
      )
    case 3:
      return json('POST', '/api/v1/reseller/clients/501/hosting', {
        domain: `live${n}.example`,
        whm_package: 'starter',
      })
    case 4:
      // Until the cap: the first two get the frequent events, the rest one never emitted here (a
      // webhook that gets a few deliveries now and then would still be filling its history).
      serial++
      return json('POST', '/api/v1/webhooks', {
        url: hookUrl,
        events: serial <= 2 ? ['ticket.created', 'payment.failed'] : ['domain.renewed'],
      })
    case 5:
    case 15:
      return json('POST', '/__mock/events', { reseller_id: 1, event: 'payment.failed' })
    case 6:
      return json('POST', '/api/v1/webhooks/wh_1/test', { event: 'test' })
    case 8:
      return json('GET', '/api/v1/webhooks/wh_1/deliveries?page=3')
    case 9:
      return json('GET', '/api/v1/reseller/whm/accounts')
    case 10:
      return lastTicket
        ? json('GET', `/api/v1/support/tickets/${lastTicket}`)
        : json('GET', '/api/v1/reseller/whm/usage')
    case 11:
      return json('GET', '/api/v1/reseller/webhook')
    default:
      return json('GET', `/api/v1/support/tickets?page=${1 + (n % 5)}`)
  }
}

/** One request over a keep-alive connection; resolves `{ status, text }`. */
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
/**
 * A GET is sent again once when its connection was reset: a connection that sat idle while the
 * server ran its full GC may have been closed by the server (keep-alive timeout) as it was reused.
 */
function send(method, path, body, key) {
  return sendOnce(method, path, body, key).catch((error) => {
    if (method !== 'GET' || error.code !== 'ECONNRESET') throw error
    return sendOnce(method, path, body, key)
  })
}
function sendOnce(method, path, body, key) {
  const payload = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        agent,
        headers: { ...headers(key), ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        const chunks = []
        res.on('data', (chunk) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }))
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

/** Uuids of every ticket, read from the list pages before the read-only phase. */
const ticketUuids = []

/** One request of the read-only phase, chosen by its number: each changes nothing; all rows are read. */
function readRequest(n) {
  const get = (path, key = LIVE) => ({ method: 'GET', path, key })
  const pages = Math.ceil(ticketUuids.length / 20)
  switch (n % 10) {
    case 0:
    case 1:
    case 2:
      // Every ticket's detail in turn.
      return get(`/api/v1/support/tickets/${ticketUuids[n % ticketUuids.length]}`)
    case 3:
    case 4:
      // Every page of the tickets in turn.
      return get(`/api/v1/support/tickets?page=${1 + (Math.floor(n / 10) % pages)}`)
    case 5:
    case 6:
      // Every page of every general webhook's history.
      return get(`/api/v1/webhooks/wh_${1 + (n % 100)}/deliveries?page=${1 + (Math.floor(n / 100) % 25)}`)
    case 7:
      return get('/api/v1/reseller/whm/accounts', n % 20 === 7 ? SANDBOX : LIVE)
    case 8:
      return get(n % 20 === 8 ? '/api/v1/services' : '/api/v1/reseller/webhook')
    default:
      // The journal's own listing (a control endpoint, not journaled), now and then: it is large.
      return n % 100 === 9 ? get('/__mock/requests?method=POST') : get('/api/v1/reseller/whm/usage')
  }
}

/** Reads every page of the tickets list into {@link ticketUuids}. */
async function collectTickets() {
  for (let page = 1; ; page++) {
    const { text } = await send('GET', `/api/v1/support/tickets?page=${page}`, undefined, LIVE)
    const rows = JSON.parse(text).data
    if (rows.length === 0) return
    for (const row of rows) ticketUuids.push(row.uuid)
  }
}

let sent = 0
async function drive(until, next = request) {
  const worker = async () => {
    while (sent < until) {
      const n = sent++
      const { method, path, body, key } = next(n)
      const { status, text } = await send(method, path, body, key)
      counts[status] = (counts[status] ?? 0) + 1
      if (status === 404 || status >= 500) throw new Error(`${method} ${path} answered ${status}: ${text}`)
      if (n % 40 === 0 && status === 201) {
        lastTicket = JSON.parse(text).data.ticket_id
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
}

/** Writes a heap snapshot of the server (when asked for) and waits until it is on disk. */
async function snapshot() {
  if (!SNAPSHOTS) return
  const before = new Set(readdirSync(SNAPSHOTS))
  child.kill('SIGUSR1')
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500))
    const written = readdirSync(SNAPSHOTS).filter((name) => !before.has(name))
    // Node writes the file at once under its final name: wait until its size stops changing.
    if (written.length === 1) {
      const size = statSync(join(SNAPSHOTS, written[0])).size
      await new Promise((resolve) => setTimeout(resolve, 1000))
      if (size > 0 && statSync(join(SNAPSHOTS, written[0])).size === size) return
    }
  }
}

async function measure() {
  // Let the deliveries of the last events land first.
  await new Promise((resolve) => setTimeout(resolve, 500))
  const line = nextLine(/^rss /)
  child.kill('SIGUSR2')
  const got = await line
  if (process.env.BENCH_VERBOSE) console.log(got)
  const [, rss, , heap] = got.split(' ')
  const state = JSON.parse((await send('GET', '/__mock/state')).text)
  const rows = Object.fromEntries(
    Object.entries(state.data.tables).map(([name, list]) => [name, list.length]),
  )
  return { rss: Number(rss), heap: Number(heap), rows }
}

const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`
const started = performance.now()
await drive(HALF)
const half = await measure()
await drive(TOTAL)
const full = await measure()
const seconds = ((performance.now() - started) / 1000).toFixed(1)

// The read-only phase: counts of rows before and after prove that nothing changed.
const readsStarted = performance.now()
const counted = Object.values(counts).reduce((a, b) => a + b, 0)
await collectTickets()
await snapshot()
await drive(TOTAL + READS, readRequest)
const readSeconds = ((performance.now() - readsStarted) / 1000).toFixed(1)
const afterReads = await measure()
await snapshot()
const readAnswers = Object.values(counts).reduce((a, b) => a + b, 0) - counted

child.kill('SIGTERM')
await new Promise((resolve) => child.once('exit', resolve))
agent.destroy()
receiver.closeAllConnections()
receiver.close()
rmSync(dir, { recursive: true, force: true })

const show = ({ rows }) =>
  `events ${rows.events}, deliveries ${rows.deliveries}, webhooks ${rows.webhooks}, tickets ${rows.tickets}, messages ${rows.messages}`
console.log(
  `${TOTAL} mixed requests in ${seconds} s, ${delivered} deliveries received; answers ${JSON.stringify(counts)}`,
)
console.log(
  `at ${HALF}:  rss ${mb(half.rss).padStart(9)}  heap ${mb(half.heap).padStart(9)}  (${show(half)})`,
)
console.log(
  `at ${TOTAL}: rss ${mb(full.rss).padStart(9)}  heap ${mb(full.heap).padStart(9)}  (${show(full)})`,
)
const ratio = full.rss / half.rss
console.log(
  `ratio rss ${TOTAL / 1000}k/${HALF / 1000}k ${ratio.toFixed(3).padStart(7)}   (target <= 1.10) ${ratio <= 1.1 ? 'ok' : 'ABOVE TARGET'}`,
)
const changed = JSON.stringify(afterReads.rows) !== JSON.stringify(full.rows)
console.log(
  `${readAnswers} read-only requests in ${readSeconds} s${changed ? ' (ROWS CHANGED: not read-only)' : ''}`,
)
const growth = afterReads.heap - full.heap
console.log(
  `heap after GC: start ${mb(full.heap)}, end ${mb(afterReads.heap)}, growth ${mb(growth)}   (target <= 1.0 MB) ${growth <= 1048576 ? 'ok' : 'ABOVE TARGET'}`,
)
process.exit(0)
