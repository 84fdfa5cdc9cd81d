// Start time of the standalone mock: spawn to its ready line (`listening on http://…`, demo seed,
// state in memory, --quiet), for the single executable and the npm CLI, beside a bare `node -e 0`
// of the same Node: target the binary within 2× of it. Also `trigger --forward-to` (a command that
// runs once: spawn to exit, one signed delivery to a local receiver). Runs interleaved (one of each
// in turn, so that the machine's load hits all alike), medians of RUNS, empty environment.
// On Linux it also reads the CPU time the process's main thread used up to its ready line
// (/proc/PID/schedstat), which a loaded machine inflates far less than the elapsed time; the
// baseline's is a `node -e` that prints a line and waits. The verdict is on the elapsed time.
// The binary is `pnpm run build:binary`'s (skipped, with a note, when it is not built).
// On the demo seed the server prints its ready line before it makes the mock (requests sent
// meanwhile wait for it): "first answer" times spawn to the answer of an API request sent at the
// ready line, what a test suite that starts the server waits for.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'

const RUNS = Number(process.env.START_BENCH_RUNS ?? 21)
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const binary = fileURLToPath(new URL('../dist-bin/reseller-mock', import.meta.url))
const hasBinary = existsSync(binary)

const receiver = createServer((request, response) => {
  request.resume()
  request.on('end', () => response.end('ok'))
})
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const to = `http://127.0.0.1:${receiver.address().port}/hook`
const trigger = ['trigger', 'ticket.created', '--forward-to', to, '--secret', 'whsec_bench']
const serve = ['--port', '0', '--quiet']

/** CPU milliseconds of a process's main thread so far (Linux), else undefined. */
function cpuMs(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6
  } catch {
    return undefined
  }
}

/** Requests the first API page of the demo seed from the server at `url`, resolving once answered. */
async function firstAnswer(url) {
  const response = await fetch(`${url}/api/v1/support/tickets`, {
    headers: { authorization: 'Bearer svc_live_acme_full' },
  })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`${url}: answered ${response.status}`)
}

/**
 * Milliseconds from spawn to `marker` on stdout (then SIGTERM), or to the exit when no marker;
 * `cpu`: the main thread's CPU milliseconds at the marker. With `answer`, to the answer of a
 * request sent at the marker (a server's ready line, which names its URL).
 */
function once([command, ...args], marker, answer = false) {
  const started = performance.now()
  const child = spawn(command, args, { env: {}, stdio: ['ignore', 'pipe', 'pipe'] })
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    let time
    let cpu
    let seen = false
    child.stderr.on('data', (chunk) => {
      err += chunk
    })
    child.stdout.on('data', (chunk) => {
      out += chunk
      if (marker !== undefined && time === undefined && !seen && out.includes(marker)) {
        seen = true
        if (!answer) {
          time = performance.now() - started
          cpu = cpuMs(child.pid)
          child.kill('SIGTERM')
          return
        }
        firstAnswer(out.match(/listening on (http:\/\/\S+)/)[1]).then(() => {
          time = performance.now() - started
          child.kill('SIGTERM')
        }, reject)
      }
    })
    child.on('exit', (code) => {
      // Stopped by our SIGTERM after its line (the baseline dies of it; the mock exits 0).
      const stopped = time !== undefined
      time ??= performance.now() - started
      if (code === 0 || stopped) resolve({ time, cpu })
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${err}`))
    })
  })
}

const cases = [
  { label: 'node -e 0 (the baseline)', command: [process.execPath, '-e', '0'] },
  {
    label: 'node -e (prints a line): CPU baseline',
    command: [process.execPath, '-e', 'console.log("listening on http://"); setTimeout(() => {}, 1e4)'],
    marker: 'listening on http://',
  },
  hasBinary && { label: 'binary: ready line', command: [binary, ...serve], marker: 'listening on http://' },
  {
    label: 'npm CLI: ready line',
    command: [process.execPath, cli, ...serve],
    marker: 'listening on http://',
  },
  hasBinary && {
    label: 'binary: first answer',
    command: [binary, ...serve],
    marker: 'listening on http://',
    answer: true,
  },
  {
    label: 'npm CLI: first answer',
    command: [process.execPath, cli, ...serve],
    marker: 'listening on http://',
    answer: true,
  },
  hasBinary && { label: 'binary: trigger --forward-to (to exit)', command: [binary, ...trigger] },
  { label: 'npm CLI: trigger --forward-to (to exit)', command: [process.execPath, cli, ...trigger] },
].filter(Boolean)

for (const c of cases) {
  c.times = []
  c.cpu = []
}
// One warm-up round: the first spawn of each pays for the page cache.
for (const c of cases) await once(c.command, c.marker, c.answer)
for (let run = 0; run < RUNS; run++) {
  for (const c of cases) {
    const { time, cpu } = await once(c.command, c.marker, c.answer)
    c.times.push(time)
    if (cpu !== undefined) c.cpu.push(cpu)
  }
}
receiver.close()

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]
const baseline = median(cases[0].times)
const cpuBaseline = cases[1].cpu.length > 0 ? median(cases[1].cpu) : undefined
console.log(`  Node ${process.version}, median of ${RUNS} interleaved runs, empty environment`)
for (const c of cases) {
  const ms = median(c.times)
  const note = c === cases[0] ? '' : `${(ms / baseline).toFixed(2)}× of it`
  const cpu =
    c.cpu.length > 0 && cpuBaseline !== undefined
      ? `   CPU ${median(c.cpu).toFixed(0)} ms (${(median(c.cpu) / cpuBaseline).toFixed(2)}×)`
      : ''
  const target =
    c.label === 'binary: ready line'
      ? `   target ≤ 2× node -e 0: ${ms / baseline <= 2 ? 'met' : 'NOT met'}`
      : ''
  console.log(`  ${c.label.padEnd(42)} ${ms.toFixed(0).padStart(5)} ms   ${note}${cpu}${target}`)
}
if (!hasBinary) console.log('  (no binary: pnpm run build:binary builds it)')
