// verifySignature on a 1 KiB body, against a bare node:crypto baseline measured in the same run,
// @octokit/webhooks-methods' verify and svix's Webhook.verify. Imports the built dist/.
//
// Baseline: what a receiver writes by hand with node:crypto, called synchronously as it naturally
// runs: decode the header's hex, createHmac(...).update(body).digest(), length check,
// timingSafeEqual. A second, stricter baseline skips the header decode (expected MAC pre-decoded).
//
// Noise control on a shared machine: (1) the tinybench table runs every task in several short
// rounds, rotated, and reports the median over rounds of its mean time per call (timer overhead
// subtracted); (2) the PASS/FAIL ratio comes from paired blocks: many short blocks of baseline calls
// and verifySignature calls back to back (order alternating), one ratio per pair, median of the
// ratios, so load from other processes hits both sides of each pair alike. The target is
// verifySignature ≤ 1.1× the baseline. A miss prints FAIL but does not change the exit code
// (benchmarks are noisy); a wrong result does.
import { Buffer } from 'node:buffer'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { verify as octokitVerify } from '@octokit/webhooks-methods'
import { Webhook } from 'svix'
import { Bench } from 'tinybench'
import * as webEntry from '../dist/webhooks/index.js'
import * as nodeEntry from '../dist/webhooks/node.js'

const TARGET = 1.1
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const TIME_MS = Number(process.env.BENCH_TIME_MS ?? 250)

const secret = 'whsec_bench_0123456789abcdef'
const event = {
  event: 'vps.activated',
  sandbox: false,
  timestamp: '2026-11-22T10:15:30Z',
  data: {
    client_id: 501,
    order_uuid: '6f1c2f0e-8d3a-4b7e-9c2d-1a2b3c4d5e6f',
    server_id: 42,
    ipv4: '203.0.113.10',
  },
}
// A 1 KiB JSON body (exactly 1024 bytes), as a string and as the Buffer a Node server receives.
const prefix = JSON.stringify({ ...event, data: { ...event.data, status: '' } })
const body = prefix.replace('"status":""', `"status":"${'a'.repeat(1024 - prefix.length)}"`)
const bodyBuffer = Buffer.from(body)
if (bodyBuffer.byteLength !== 1024) throw new Error(`body is ${bodyBuffer.byteLength} bytes, not 1024`)

const header = await nodeEntry.signPayload(body, secret)
const expectedMac = Buffer.from(header.slice(7), 'hex')

function baseline(payload, signature) {
  const expected = Buffer.from(signature.slice(7), 'hex')
  const actual = createHmac('sha256', secret).update(payload).digest()
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}

function baselinePredecoded(payload) {
  const actual = createHmac('sha256', secret).update(payload).digest()
  return actual.length === expectedMac.length && timingSafeEqual(actual, expectedMac)
}

// svix signs its own scheme (base64 secret, id + timestamp + body, base64 MAC): sign with svix so
// that its verification succeeds; the timestamp is fresh, within its 5-minute tolerance.
const svixSecret = `whsec_${Buffer.from(secret).toString('base64')}`
const svix = new Webhook(svixSecret)
const svixId = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W'
const svixTimestamp = new Date()
const svixHeaders = {
  'svix-id': svixId,
  'svix-timestamp': String(Math.floor(svixTimestamp.getTime() / 1000)),
  'svix-signature': svix.sign(svixId, svixTimestamp, body),
}

/** [name, fn, isBaseline]; each fn must resolve (or return) true, checked before timing. */
const tasks = [
  ['baseline: node:crypto HMAC + timingSafeEqual (sync)', () => baseline(body, header), 'baseline'],
  ['baseline, MAC pre-decoded (sync)', () => baselinePredecoded(body)],
  [
    'verifySignature (node entry), string body',
    () => nodeEntry.verifySignature(body, header, secret),
    'ours',
  ],
  ['verifySignature (node entry), Buffer body', () => nodeEntry.verifySignature(bodyBuffer, header, secret)],
  ['verifySignature (default entry, Web Crypto)', () => webEntry.verifySignature(body, header, secret)],
  ['@octokit/webhooks-methods verify', () => octokitVerify(secret, body, header)],
  [
    'svix Webhook.verify',
    () => {
      svix.verify(body, svixHeaders)
      return true
    },
  ],
]

for (const [name, fn] of tasks) {
  if ((await fn()) !== true) {
    console.error(`${name} did not verify its own signature`)
    process.exit(1)
  }
}
if ((await nodeEntry.verifySignature(`${body} `, header, secret)) !== false) {
  console.error('verifySignature accepted a changed body')
  process.exit(1)
}

const perRound = new Map(tasks.map(([name]) => [name, []]))
for (let round = 0; round < ROUNDS; round++) {
  // Rotate the order each round so no task always runs first (or right after GC-heavy svix).
  const order = tasks.map((_, i) => tasks[(i + round) % tasks.length])
  const bench = new Bench({ time: TIME_MS, warmupTime: 100, throws: true, subtractTimerOverhead: true })
  for (const [name, fn] of order) bench.add(name, fn)
  globalThis.gc?.()
  await bench.run()
  for (const task of bench.tasks) {
    if (task.result.state !== 'completed') throw new Error(`${task.name}: ${task.result.state}`)
    perRound.get(task.name).push(task.result.latency.mean * 1e6) // ms → ns
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
const ns = new Map([...perRound].map(([name, values]) => [name, median(values)]))
const baselineName = tasks.find((t) => t[2] === 'baseline')[0]
const oursName = tasks.find((t) => t[2] === 'ours')[0]
const base = ns.get(baselineName)

console.log(
  `Node ${process.version}, 1 KiB body, ${ROUNDS} rounds × ${TIME_MS} ms per task; median of per-round means`,
)
console.table(
  tasks.map(([name]) => ({
    task: name,
    'ns/op': Math.round(ns.get(name)),
    'min..max over rounds': `${Math.round(Math.min(...perRound.get(name)))}..${Math.round(Math.max(...perRound.get(name)))}`,
    '× baseline': (ns.get(name) / base).toFixed(2),
  })),
)

// Paired blocks: the baseline called synchronously, verifySignature awaited, as each naturally runs.
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 300)
const PER_BLOCK = 500
const runBaseline = () => {
  const t0 = performance.now()
  for (let i = 0; i < PER_BLOCK; i++) baseline(body, header)
  return performance.now() - t0
}
const runOurs = async () => {
  const t0 = performance.now()
  for (let i = 0; i < PER_BLOCK; i++) await nodeEntry.verifySignature(body, header, secret)
  return performance.now() - t0
}
const ratios = []
for (let block = 0; block < BLOCKS; block++) {
  let a
  let b
  if (block % 2 === 0) {
    a = runBaseline()
    b = await runOurs()
  } else {
    b = await runOurs()
    a = runBaseline()
  }
  ratios.push(b / a)
}
const ratio = median(ratios)
const q = (p) => [...ratios].sort((x, y) => x - y)[Math.floor(p * (ratios.length - 1))]
console.log(
  `paired blocks (${BLOCKS} × ${PER_BLOCK} calls each side): verifySignature / baseline median ${ratio.toFixed(3)}, ` +
    `interquartile ${q(0.25).toFixed(3)}..${q(0.75).toFixed(3)}`,
)
console.log(
  `${ratio <= TARGET ? 'PASS' : 'FAIL'}: verifySignature (node entry) = ${ratio.toFixed(3)}× the node:crypto baseline ` +
    `per call (target ≤ ${TARGET}×; table above: ${(ns.get(oursName) / base).toFixed(3)}×)`,
)
