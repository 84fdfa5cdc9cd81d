// The client's cost over a bare call: `api.tickets.get(uuid)` and `api.tickets.list()` over the
// mock's in-process `mock.fetch`, against the same request made by hand in the same run
// (`mock.fetch` + `JSON.parse` of the text, no validation). The ratio is what the SDK adds: ky,
// request checks, retries bookkeeping, answer validation. Target: 2× the baseline or less.
//
// Noise control on a shared machine: paired blocks (a block of baseline calls, then a block of
// SDK calls, order alternating), one ratio per pair, median of the ratios; load from other
// processes hits both sides of a pair alike. A miss prints FAIL but keeps exit code 0 (benchmarks
// are noisy); a wrong answer exits 1. Imports the built SDK and mock (their package entries).
//
// A third line per case, `Request floor`, is the bare call given a `Request` built the way any
// Request-based client builds one (ky does, on every call): it shows how much of the ratio is the
// platform's Request, AbortSignal and Headers machinery rather than the SDK's own work.
//
// And `ky floor`: the same request through one ky instance set up as the SDK sets up its own
// (no retries, a timeout, no HTTP errors thrown, the headers put on ky's Request in its `fetch`),
// then `JSON.parse` of the text, no validation: the share of the ratio that is ky's own per-call
// work (option merging, an AbortController, a Request, timers), which no use of ky avoids. The
// same with ky's timeout off (`no timers`) shows that its timers are not what makes that floor.
import { createMockApi } from '@reseller-api/mock'
import { ResellerApi } from '@reseller-api/sdk'
import ky from 'ky'

const TARGET = 2
const PAIRS = Number(process.env.BENCH_PAIRS ?? 41)
const BLOCK = Number(process.env.BENCH_BLOCK ?? 50)

const KEY = 'svc_live_bench'
const seed = {
  resellers: [
    {
      id: 1,
      api_keys: [{ key: KEY, scopes: ['support:read'] }],
      tickets: Array.from({ length: 30 }, (_, i) => ({
        subject: `Ticket ${i}`,
        department: 'technical',
        messages: [{ message: 'hello' }, { message: 'a reply', from: 'staff' }],
      })),
    },
  ],
}
// The journal is off: it costs both sides alike, and would only shrink the ratio.
const mock = createMockApi({ seed, journalLimit: 0 })
const api = new ResellerApi({ apiKey: KEY, baseUrl: mock.baseUrl, fetch: mock.fetch, strictResponses: true })
const headers = { authorization: `Bearer ${KEY}`, accept: 'application/json' }
const listUrl = `${mock.baseUrl}/api/v1/support/tickets`
const first = JSON.parse(await (await mock.fetch(listUrl, { headers })).text()).data[0]
const getUrl = `${listUrl}/${first.uuid}`

async function bare(url, asRequest = false) {
  const response = await (asRequest
    ? mock.fetch(new Request(url, { headers, signal: new AbortController().signal }))
    : mock.fetch(url, { headers }))
  const body = JSON.parse(await response.text())
  if (response.status !== 200 || body.success !== true)
    throw new Error(`bare call failed: ${response.status}`)
  return body.data
}

const headerList = Object.entries(headers)
const kyWith = (timeout) =>
  ky.create({
    retry: 0,
    timeout,
    throwHttpErrors: false,
    fetch: (request, init) => {
      for (const [name, value] of headerList) request.headers.set(name, value)
      return mock.fetch(request, init)
    },
  })
const kyInstance = kyWith(30_000)
const kyWithoutTimers = kyWith(false)

async function throughKy(url, instance = kyInstance) {
  const pending = instance(url)
  const response = await pending
  const body = JSON.parse(await pending.text())
  if (response.status !== 200 || body.success !== true) throw new Error(`ky call failed: ${response.status}`)
  return body.data
}

const cases = {
  get: {
    baseline: () => bare(getUrl),
    floor: () => bare(getUrl, true),
    kyFloor: () => throughKy(getUrl),
    kyNoTimers: () => throughKy(getUrl, kyWithoutTimers),
    sdk: () => api.tickets.get(first.uuid),
    check: (value) => value.uuid === first.uuid && value.messages.length === 2,
  },
  list: {
    baseline: () => bare(listUrl),
    floor: () => bare(listUrl, true),
    kyFloor: () => throughKy(listUrl),
    kyNoTimers: () => throughKy(listUrl, kyWithoutTimers),
    sdk: () => api.tickets.list(),
    check: (page) => page.data.length === 20 && page.meta.total === 30,
  },
}

async function block(fn) {
  const start = process.hrtime.bigint()
  for (let i = 0; i < BLOCK; i++) await fn()
  return Number(process.hrtime.bigint() - start) / BLOCK
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const fmt = (ns) => `${(ns / 1e3).toFixed(1)} µs`
let wrong = false
console.log(
  `SDK call over mock.fetch vs mock.fetch + JSON.parse (median of ${PAIRS} paired blocks of ${BLOCK})`,
)
for (const [name, { baseline, floor, kyFloor, kyNoTimers, sdk, check }] of Object.entries(cases)) {
  if (!check(await sdk())) {
    console.error(`${name}: the SDK's answer is not the expected one`)
    wrong = true
    continue
  }
  for (let i = 0; i < 300; i++) {
    await baseline()
    await floor()
    await kyFloor()
    await kyNoTimers()
    await sdk()
  }
  const base = []
  const own = []
  const floors = []
  const kyFloors = []
  const kyBare = []
  for (let pair = 0; pair < PAIRS; pair++) {
    // Alternate the order, so neither side always runs on a warmer or colder machine.
    const order =
      pair % 2 === 0
        ? [baseline, floor, kyFloor, kyNoTimers, sdk]
        : [sdk, kyNoTimers, kyFloor, floor, baseline]
    const times = new Map()
    for (const fn of order) times.set(fn, await block(fn))
    base.push(times.get(baseline))
    floors.push(times.get(floor) / times.get(baseline))
    kyFloors.push(times.get(kyFloor) / times.get(baseline))
    kyBare.push(times.get(kyNoTimers) / times.get(baseline))
    own.push(times.get(sdk) / times.get(baseline))
  }
  const ratio = median(own)
  console.log(
    `  ${name.padEnd(5)} baseline ${fmt(median(base)).padStart(9)}  sdk ${ratio.toFixed(2)}×  target ≤ ${TARGET}×  ${ratio <= TARGET ? 'PASS' : 'FAIL'}  (Request floor ${median(floors).toFixed(2)}×, ky floor ${median(kyFloors).toFixed(2)}×, no timers ${median(kyBare).toFixed(2)}×)`,
  )
}
process.exit(wrong ? 1 : 0)
