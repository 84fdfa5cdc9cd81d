// Standalone throughput: `GET /api/v1/support/tickets?page=1` against a reseller with 1,000 tickets,
// through the mock's node:http server, next to a bare node:http server answering the very same
// bytes (status, content type, body). Both run in this process, one after the other, on 127.0.0.1,
// loaded with 50 keep-alive connections by wrk (Debian's `wrk`, a separate native process, so the
// load generator does not share this process's event loop) or, when wrk is not installed, by
// autocannon (in this process: the ratio then reads lower). The mock runs with its defaults: the
// request journal on (1,000 entries, one per request), no fault. Target: mock / bare >= 0.9.
import { execFile, spawnSync } from 'node:child_process'
import { createServer } from 'node:http'
import { promisify } from 'node:util'
import autocannon from 'autocannon'
import { createMockApi } from '../dist/node.js'

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 6)
const CONNECTIONS = 50
const KEY = 'svc_live_bench'
const PATH = '/api/v1/support/tickets?page=1'

const seed = {
  resellers: [
    {
      id: 1,
      name: 'Bench Hosting',
      api_keys: [{ key: KEY, scopes: ['support:read', 'support:write'] }],
      tickets: Array.from({ length: 1000 }, (_, i) => ({
        subject: `Ticket number ${i + 1}`,
        department: 'technical',
        priority: 'normal',
        status: 'open',
        messages: [{ message: `First message of ticket ${i + 1}`, internal: false, from: 'client' }],
      })),
    },
  ],
}

const TARGET = 0.9
const wrk = spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error === undefined

/** Requests per second of `url` under 50 keep-alive connections for `seconds`. */
async function load(url, seconds = DURATION_S) {
  if (wrk) {
    // Asynchronous: both servers answer from this process's event loop meanwhile.
    const { stdout: out } = await promisify(execFile)(
      'wrk',
      [
        '-t',
        '2',
        '-c',
        String(CONNECTIONS),
        '-d',
        `${seconds}s`,
        '-H',
        `authorization: Bearer ${KEY}`,
        `${url}${PATH}`,
      ],
      { encoding: 'utf8' },
    )
    if (/Non-2xx|Socket errors/.test(out)) throw new Error(`${url}: wrk saw errors\n${out}`)
    return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])
  }
  const result = await autocannon({
    url: `${url}${PATH}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${KEY}` },
  })
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(`${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`)
  }
  return result.requests.average
}

const mock = createMockApi({ seed })
const server = await mock.listen({ port: 0, host: '127.0.0.1' })
const sample = await fetch(`${server.url}${PATH}`, { headers: { authorization: `Bearer ${KEY}` } })
const body = Buffer.from(await sample.arrayBuffer())
const contentType = sample.headers.get('content-type') ?? 'application/json'
if (sample.status !== 200) throw new Error(`mock answered ${sample.status}: ${body}`)
const parsed = JSON.parse(body.toString('utf8'))
if (parsed.meta?.total !== 1000 || parsed.data?.length !== 20) throw new Error('unexpected page')

const bare = createServer({ keepAlive: true }, (_req, res) => {
  res.writeHead(200, { 'content-type': contentType, 'content-length': body.length })
  res.end(body)
})
await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve))
const bareUrl = `http://127.0.0.1:${bare.address().port}`

console.log(
  `page of ${body.length} bytes, ${CONNECTIONS} connections, ${DURATION_S} s each, load by ${wrk ? 'wrk' : 'autocannon (wrk is not installed: apt-get install -y wrk)'}`,
)
// A short warm-up of each, so the JIT has seen both paths before measuring.
await load(server.url, 1)
await load(bareUrl, 1)
const bareRps = await load(bareUrl)
const mockRps = await load(server.url)

await server.close()
await new Promise((resolve) => {
  bare.closeAllConnections()
  bare.close(resolve)
})

const ratio = mockRps / bareRps
console.log(`bare node:http   ${bareRps.toFixed(0).padStart(8)} req/s`)
console.log(`reseller-mock    ${mockRps.toFixed(0).padStart(8)} req/s`)
console.log(
  `server ratio mock/bare ${ratio.toFixed(2).padStart(6)}   target >= ${TARGET}  ${ratio >= TARGET ? 'PASS' : 'FAIL'} (journal on)`,
)
process.exit(0)
