// Reads by key stay flat as the state grows: ticket by uuid, WHM account by username, package by
// name, at 100, 1,000, 10,000 and 100,000 records of each. Each read is a whole request through the
// core handler (`mock.handle`, no Request/Response objects). At every size the reads go to the same
// number of distinct records (100, spread evenly over the whole key space, in a shuffled order), so
// that what grows is the state searched, not the set of answers the serialization cache holds.
// Target: the median at 100k within 2× of the median at 100.
import { createMockApi } from '../dist/index.js'

const SIZES = [100, 1_000, 10_000, 100_000]
const KEY = 'svc_live_bench'
const BATCH = 500
const BATCHES = 15

function seedOf(n) {
  return {
    resellers: [
      {
        id: 1,
        api_keys: [{ key: KEY }],
        whm: { status: 'online', accounts_limit: n },
        packages: Array.from({ length: n }, (_, i) => ({ name: `pkg-${i}`, quota: 100 })),
        accounts: Array.from({ length: n }, (_, i) => ({
          username: `u${i}`,
          domain: `site${i}.example`,
          whm_package: 'pkg-0',
        })),
        tickets: Array.from({ length: n }, (_, i) => ({
          subject: `Ticket ${i}`,
          department: 'technical',
          messages: [{ message: `message ${i}` }],
        })),
      },
    ],
  }
}

const headers = { get: (name) => (name === 'authorization' ? `Bearer ${KEY}` : null) }
const noQuery = new URLSearchParams()
const request = (method, path, body = '') => ({ method, path, query: noQuery, headers, body })

/** Median ns per request over BATCHES batches of BATCH requests made by `make(i)`. */
async function measure(handle, make, expectStatus) {
  const times = []
  for (let b = 0; b < BATCHES; b++) {
    const requests = Array.from({ length: BATCH }, (_, i) => make(b * BATCH + i))
    const start = process.hrtime.bigint()
    for (const r of requests) {
      const answer = await handle(r)
      if (answer.status !== expectStatus)
        throw new Error(`${r.method} ${r.path}: ${answer.status} ${answer.body}`)
    }
    times.push(Number(process.hrtime.bigint() - start) / BATCH)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]
}

const rows = []
for (const n of SIZES) {
  const built = process.hrtime.bigint()
  const mock = createMockApi({ seed: seedOf(n) })
  const buildMs = Number(process.hrtime.bigint() - built) / 1e6
  // Ticket uuids through the API (the last page of the list holds the oldest; any will do).
  // 100 record indexes spread over 0..n-1; requests visit them in a scrambled order.
  const spread = Array.from(
    { length: 100 },
    (_, k) => Math.floor((k * n) / 100) + ((k * 37) % Math.max(1, n / 100)),
  )
  const rand = (i) => spread[(i * 7919) % 100]
  const uuids = []
  const pages = Math.ceil(n / 20)
  for (const index of spread) {
    // Newest first: record `index` (in seed order) sits at position n-1-index of the list.
    const position = n - 1 - index
    const page = JSON.parse(
      (
        await mock.handle({
          ...request('GET', '/api/v1/support/tickets'),
          query: new URLSearchParams({ page: String(Math.floor(position / 20) + 1) }),
        })
      ).body,
    )
    uuids.push(page.data[position % 20].uuid)
    if (page.meta.total !== n || pages < 1) throw new Error('unexpected ticket count')
  }
  const pick = (i) => (i * 7919) % uuids.length
  const pkgBody = (i) =>
    JSON.stringify({
      name: `pkg-${rand(i)}`,
      quota: 1,
      bandwidth: 1,
      maxsql: 1,
      maxpop: 1,
      maxftp: 1,
      maxsub: 1,
    })
  // Warm up every path.
  for (let i = 0; i < 5000; i++) {
    await mock.handle(request('GET', `/api/v1/support/tickets/${uuids[pick(i)]}`))
    await mock.handle(request('GET', `/api/v1/reseller/whm/accounts/u${rand(i)}`))
  }
  const uuid = await measure(
    mock.handle,
    (i) => request('GET', `/api/v1/support/tickets/${uuids[pick(i)]}`),
    200,
  )
  const username = await measure(
    mock.handle,
    (i) => request('GET', `/api/v1/reseller/whm/accounts/u${rand(i)}`),
    200,
  )
  // A duplicate package name is looked up by name and refused (422): a read, no write.
  const name = await measure(
    mock.handle,
    (i) => request('POST', '/api/v1/reseller/whm/packages', pkgBody(i)),
    422,
  )
  rows.push({ n, uuid, username, name, buildMs })
  console.log(
    `${String(n).padStart(7)} records: uuid ${(uuid / 1000).toFixed(1).padStart(6)} µs  username ${(username / 1000).toFixed(1).padStart(6)} µs  package name ${(name / 1000).toFixed(1).padStart(6)} µs   (built in ${buildMs.toFixed(0)} ms)`,
  )
}
const first = rows[0]
const last = rows.at(-1)
let met = true
for (const key of ['uuid', 'username', 'name']) {
  const ratio = last[key] / first[key]
  if (ratio > 2) met = false
  console.log(`  ${key.padEnd(8)} 100k/100 = ${ratio.toFixed(2)}×`)
}
console.log(`  target ≤ 2×: ${met ? 'met' : 'NOT met'}`)
