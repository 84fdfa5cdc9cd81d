// `reseller-mock import` of an account with 10,000 tickets from a local upstream (another mock,
// over HTTP): target at most twice the time of the reads alone. The baseline, measured in the
// same run, is the same reads (every page of tickets, then every ticket's detail, 8 at a time)
// with plain fetch and no seed building, so the ratio shows what the import adds to the reads it
// cannot avoid.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createMockApi } from '../dist/node.js'

const TICKETS = 10_000
const KEY = 'svc_live_bench_import'
const seed = {
  resellers: [
    {
      id: 1,
      api_keys: [{ key: KEY }],
      tickets: Array.from({ length: TICKETS }, (_, i) => ({
        subject: `Ticket ${i}`,
        department: 'technical',
        messages: [{ message: `first message ${i}` }, { message: `answer ${i}`, from: 'staff' }],
      })),
    },
  ],
}
const upstream = createMockApi({ seed })
const server = await upstream.listen({ port: 0 })
const headers = { authorization: `Bearer ${KEY}` }

async function plainWalk() {
  const uuids = []
  for (let page = 1; ; page++) {
    const body = await (await fetch(`${server.url}/api/v1/support/tickets?page=${page}`, { headers })).json()
    if (body.data.length === 0) break
    for (const t of body.data) uuids.push(t.uuid)
  }
  let next = 0
  const worker = async () => {
    while (next < uuids.length) {
      const uuid = uuids[next++]
      await (await fetch(`${server.url}/api/v1/support/tickets/${uuid}`, { headers })).json()
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
  return uuids.length
}

let started = process.hrtime.bigint()
const walked = await plainWalk()
const baselineMs = Number(process.hrtime.bigint() - started) / 1e6

const dir = mkdtempSync(join(tmpdir(), 'import-bench-'))
const out = join(dir, 'seed.json')
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
started = process.hrtime.bigint()
// The command as a user runs it, node startup included; the upstream answers from this process.
const run = await new Promise((resolve) => {
  import('node:child_process').then(({ spawn }) => {
    const child = spawn(process.execPath, [cli, 'import', '--from', server.url, '--key', KEY, '--out', out], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('exit', (code) => resolve({ code, stderr }))
  })
})
const importMs = Number(process.hrtime.bigint() - started) / 1e6
if (run.code !== 0) throw new Error(`import failed (${run.code}): ${run.stderr}`)
const imported = JSON.parse(readFileSync(out, 'utf8')).resellers[0].tickets.length
rmSync(dir, { recursive: true, force: true })
await server.close()
if (imported !== TICKETS || walked !== TICKETS)
  throw new Error(`imported ${imported}, walked ${walked} of ${TICKETS}`)

const line = (label, ms, note) =>
  console.log(`  ${label.padEnd(48)} ${(ms / 1000).toFixed(2).padStart(7)} s   ${note}`)
const ratio = importMs / baselineMs
line(
  `reseller-mock import, ${TICKETS.toLocaleString('en')} tickets`,
  importMs,
  `target ≤ 2× the baseline: ${ratio <= 2 ? 'met' : 'NOT met'}`,
)
line('  baseline: the same reads with plain fetch', baselineMs, `${ratio.toFixed(2)}× of it`)
