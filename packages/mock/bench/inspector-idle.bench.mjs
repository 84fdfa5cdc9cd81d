// What an open inspector costs an idle mock: the CPU time of the `reseller-mock` process (a child,
// read from /proc) over 10 s of idle with a full journal (1,000 entries) and one event stream
// connected, against the same 10 s with no stream (the baseline); and the CPU of one stream connect
// (the mean of 50 connects, each read up to its first event). Target: the stream adds next to
// nothing to the idle baseline (docs/running-the-mock.md, "Inspector").
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const IDLE_MS = 10_000
const CONNECTS = 50
const TICKS = 100 // USER_HZ on Linux

/** CPU time (user + system) of process `pid` so far, in ms. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS
}

const child = spawn(process.execPath, [CLI, '--port', '0', '--quiet'], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
const url = await new Promise((resolve, reject) => {
  let out = ''
  child.stdout.on('data', (chunk) => {
    out += chunk
    const found = /listening on (http:\/\/\S+)/.exec(out)
    if (found) resolve(found[1])
  })
  child.once('exit', () => reject(new Error(`the CLI exited: ${out}`)))
})

const headers = { authorization: 'Bearer svc_live_acme_full', 'content-type': 'application/json' }
for (let i = 0; i < 1000; i++) {
  const body = JSON.stringify({ subject: `Idle ${i}`, message: 'x'.repeat(200), department: 'billing' })
  await (await fetch(`${url}/api/v1/support/tickets`, { method: 'POST', headers, body })).text()
}

/** Opens the stream and resolves once its first event arrived; `close()` ends it. */
async function openStream() {
  const controller = new AbortController()
  const response = await fetch(`${url}/__mock/stream`, { signal: controller.signal })
  const reader = response.body.getReader()
  let text = ''
  while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value)
  return {
    close: () => {
      controller.abort()
      return reader.closed.catch(() => undefined)
    },
  }
}

async function idleCpu() {
  const before = cpuMs(child.pid)
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
  return cpuMs(child.pid) - before
}

const baseline = await idleCpu()
const stream = await openStream()
const watched = await idleCpu()
await stream.close()

const connectStart = cpuMs(child.pid)
for (let i = 0; i < CONNECTS; i++) await (await openStream()).close()
const perConnect = (cpuMs(child.pid) - connectStart) / CONNECTS

const share = (ms) => `${((ms / IDLE_MS) * 100).toFixed(2)} % of a core`
console.log(
  `idle 10 s, journal full (1,000 entries), no stream:  ${baseline.toFixed(0)} ms CPU (${share(baseline)})`,
)
console.log(
  `idle 10 s, journal full, one stream connected:     ${watched.toFixed(0)} ms CPU (${share(watched)})`,
)
console.log(`one stream connect (mean of ${CONNECTS}):                 ${perConnect.toFixed(1)} ms CPU`)
console.log(`stream's idle cost over the baseline: ${(watched - baseline).toFixed(0)} ms per 10 s`)
child.kill('SIGTERM')
