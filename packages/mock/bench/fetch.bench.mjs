// A ticket read (`GET /api/v1/support/tickets/{uuid}`) three ways, on the same mock and handlers:
//   mock.fetch        the core called directly (no interception, no MSW on the way)
//   setupServer       MSW's global interception of the global fetch (msw/node)
//   getResponse       MSW's getResponse(handlers, request): handler matching without interception
//   journal off       mock.fetch on a twin mock made with `journalLimit: 0`
// Rounds are interleaved so that machine noise hits all ways alike. Targets: mock.fetch ≥ 10× faster
// than setupServer; mock.fetch with the journal on (the default) within 1.2× of the journal off.
import { getResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createMockApi } from '../dist/index.js'

const KEY = 'svc_live_bench'
const ROUNDS = 5
const BUDGET_MS = 600 // per way and round

const seed = {
  resellers: [
    {
      id: 1,
      api_keys: [{ key: KEY, scopes: ['support:read'] }],
      tickets: Array.from({ length: 100 }, (_, i) => ({
        subject: `Ticket ${i}`,
        department: 'technical',
        messages: [{ message: 'hello' }, { message: 'note', internal: true, from: 'staff' }],
      })),
    },
  ],
}
const mock = createMockApi({ seed })
const quiet = createMockApi({ seed, journalLimit: 0 })
const headers = { authorization: `Bearer ${KEY}` }
const list = await (await mock.fetch(`${mock.baseUrl}/api/v1/support/tickets`, { headers })).json()
const url = `${mock.baseUrl}/api/v1/support/tickets/${list.data[0].uuid}`
const quietList = await (await quiet.fetch(`${quiet.baseUrl}/api/v1/support/tickets`, { headers })).json()
const quietUrl = `${quiet.baseUrl}/api/v1/support/tickets/${quietList.data[0].uuid}`

async function check(response) {
  if (response.status !== 200) throw new Error(`unexpected status ${response.status}`)
  await response.arrayBuffer()
}

const ways = {
  'mock.fetch': () => mock.fetch(url, { headers }).then(check),
  setupServer: () => fetch(url, { headers }).then(check),
  getResponse: () => getResponse(mock.handlers, new Request(url, { headers })).then(check),
  'journal off': () => quiet.fetch(quietUrl, { headers }).then(check),
}
const journalOn = ways['mock.fetch']
const journalOff = ways['journal off']

/** Runs `fn` sequentially for about `budgetMs`; returns ns per call. */
async function measure(fn, budgetMs = BUDGET_MS) {
  let calls = 0
  const start = process.hrtime.bigint()
  const deadline = start + BigInt(budgetMs) * 1_000_000n
  while (process.hrtime.bigint() < deadline) {
    for (let i = 0; i < 20; i++) await fn()
    calls += 20
  }
  return Number(process.hrtime.bigint() - start) / calls
}

const server = setupServer(...mock.handlers)
server.listen({ onUnhandledFrame: 'error' })
for (const fn of Object.values(ways)) for (let i = 0; i < 200; i++) await fn() // warm up
const samples = Object.fromEntries(Object.keys(ways).map((name) => [name, []]))
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, fn] of Object.entries(ways)) samples[name].push(await measure(fn))
}
server.close()

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const result = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]))
const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`)
console.log('ticket read, median of %d rounds (ns/op):', ROUNDS)
for (const [name, ns] of Object.entries(result))
  console.log(`  ${name.padEnd(12)} ${String(Math.round(ns)).padStart(10)} ns/op  (${fmt(ns)})`)
const vsSetup = result.setupServer / result['mock.fetch']
const vsGet = result.getResponse / result['mock.fetch']
console.log(
  `  mock.fetch is ${vsSetup.toFixed(1)}× faster than setupServer, ${vsGet.toFixed(1)}× faster than getResponse`,
)
console.log(`  target mock.fetch ≥ 10× setupServer: ${vsSetup >= 10 ? 'met' : 'NOT met'}`)
// The journal's cost is a small difference between two near-equal figures: measured in many short
// pairs (order swapped every round) and summarized as the median of the per-pair ratios, so that a
// burst of load on a shared machine spoils one pair, not the figure.
const PAIRS = 15
const ratios = []
for (let pair = 0; pair < PAIRS; pair++) {
  const first = pair % 2 === 0 ? journalOn : journalOff
  const second = first === journalOn ? journalOff : journalOn
  const a = await measure(first, 150)
  const b = await measure(second, 150)
  ratios.push(first === journalOn ? a / b : b / a)
}
const journalCost = median(ratios)
console.log(
  `  journal on (default) / journal off (journalLimit: 0), median of ${PAIRS} pairs: ${journalCost.toFixed(2)}× (target ≤ 1.2×: ${journalCost <= 1.2 ? 'met' : 'NOT met'})`,
)
