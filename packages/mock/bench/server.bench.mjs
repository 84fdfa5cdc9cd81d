// Standalone throughput against its ceiling: a keyed read (`GET /api/v1/support/tickets/{uuid}`,
// one ticket of a reseller with 1,000) through the mock's node:http server, next to a bare
// node:http server answering the very same bytes (status, headers, body; node:http adds Date and
// Connection to both). Both run in this process on 127.0.0.1 and are loaded in turn with 50
// keep-alive connections by wrk (Debian's `wrk`: a native process, so the load generator does not
// share this process's event loop) or, when wrk is not installed, by autocannon (in this process:
// the ratio then reads lower, and the line says so). Rounds alternate the order (bare, mock, mock,
// bare, …) so that a machine getting busier or quieter weighs on both; the verdict is the median
// of the rounds' ratios. Many short rounds rather than a few long ones: on a shared machine one
// round's ratio can land anywhere from 0.6 to 1.6 (the bare server alone swings by half from one
// second to the next), and the median of sixteen moves far less than that of six. The line gives
// the rounds' middle half beside the median. The mock runs with its defaults: the request journal
// on (1,000 entries, one per request), the Host and Origin guard, no fault. Target: mock / bare >= 0.9.
// A page of 20 tickets is measured the same way, in fewer rounds, for information (no target: it
// renders a page). Environment: BENCH_DURATION_S (seconds per load, default 1), BENCH_ROUNDS
// (default 16; the page of 20 takes a third of them).
import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import autocannon from 'autocannon'
import { createMockApi } from '../dist/node.js'
import { bareCopy, KEY, seed } from './server-fixture.mjs'

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 1)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 16)
const CONNECTIONS = 50
const TARGET = 0.9

const wrk = spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error === undefined
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q + 0.5)]
const median = (values) => quantile(values, 0.5)

/** Requests per second of `url` under 50 keep-alive connections for `seconds`. */
async function load(url, seconds = DURATION_S) {
  if (wrk) {
    // Asynchronous: both servers answer from this process's event loop meanwhile.
    const { stdout: out } = await promisify(execFile)(
      'wrk',
      ['-t', '2', '-c', String(CONNECTIONS), '-d', `${seconds}s`, '-H', `authorization: Bearer ${KEY}`, url],
      { encoding: 'utf8' },
    )
    if (/Non-2xx|Socket errors/.test(out)) throw new Error(`${url}: wrk saw errors\n${out}`)
    return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])
  }
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${KEY}` },
  })
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(`${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`)
  }
  return result.requests.average
}

/** Loads the bare copy and the mock in `rounds` alternating rounds; returns the median ratio. */
async function compare(name, mockUrl, path, rounds) {
  const { bare, url: bareUrl, bytes } = await bareCopy(mockUrl, path)
  const mockTarget = `${mockUrl}${path}`
  // A short warm-up of each, so the JIT has seen both paths before measuring.
  await load(mockTarget, 1)
  await load(bareUrl, 1)
  const measured = []
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [bareUrl, mockTarget] : [mockTarget, bareUrl]
    const [first, second] = [await load(order[0]), await load(order[1])]
    const [bareRps, mockRps] = round % 2 === 0 ? [first, second] : [second, first]
    measured.push({ bareRps, mockRps, ratio: mockRps / bareRps })
  }
  await new Promise((resolve) => {
    bare.closeAllConnections()
    bare.close(resolve)
  })
  const ratios = measured.map((r) => r.ratio)
  const ratio = median(ratios)
  const rps = (key) =>
    median(measured.map((r) => r[key]))
      .toFixed(0)
      .padStart(6)
  console.log(
    `${name.padEnd(16)} ${String(bytes).padStart(5)} B   bare ${rps('bareRps')} req/s   mock ${rps('mockRps')} req/s   ratio ${ratio.toFixed(2)} (${measured.length} rounds, middle half ${quantile(ratios, 0.25).toFixed(2)}-${quantile(ratios, 0.75).toFixed(2)})`,
  )
  return ratio
}

const mock = createMockApi({ seed })
const server = await mock.listen({ port: 0, host: '127.0.0.1' })
const list = await fetch(`${server.url}/api/v1/support/tickets?page=1`, {
  headers: { authorization: `Bearer ${KEY}` },
})
const page = await list.json()
if (page.meta?.total !== 1000 || page.data?.length !== 20) throw new Error('unexpected page')

console.log(
  `Node ${process.version}, ${CONNECTIONS} connections, rounds of ${DURATION_S} s each, load by ${wrk ? 'wrk' : 'autocannon (wrk is not installed: apt-get install -y wrk; autocannon shares this process, so the ratio reads lower)'}`,
)
const keyed = await compare('one ticket', server.url, `/api/v1/support/tickets/${page.data[0].uuid}`, ROUNDS)
await compare(
  'a page of 20',
  server.url,
  '/api/v1/support/tickets?page=1',
  Math.max(2, Math.round(ROUNDS / 3)),
)
await server.close()

console.log(
  `server ratio mock/bare (one ticket) ${keyed.toFixed(2).padStart(6)}   target >= ${TARGET}  ${keyed >= TARGET ? 'PASS' : 'FAIL'} (journal on)`,
)
process.exit(0)
