// Start time of the standalone mock: spawn to its ready line (`listening on http://…`, demo seed,
// state in memory, --quiet), for the single executable and the npm CLI, beside a bare `node -e 0`
// of the same Node: target the binary within 2× of it. Also `trigger --forward-to` (a command that
// runs once: spawn to exit, one signed delivery to a local receiver). Runs interleaved (one of each
// in turn, so that the machine's load hits all alike), medians of RUNS, empty environment.
// The binary is `pnpm run build:binary`'s (skipped, with a note, when it is not built).
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
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

/** Milliseconds from spawn to `marker` on stdout (then SIGTERM), or to the exit when no marker. */
function once([command, ...args], marker) {
  const started = performance.now()
  const child = spawn(command, args, { env: {}, stdio: ['ignore', 'pipe', 'pipe'] })
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    let time
    child.stderr.on('data', (chunk) => {
      err += chunk
    })
    child.stdout.on('data', (chunk) => {
      out += chunk
      if (marker !== undefined && time === undefined && out.includes(marker)) {
        time = performance.now() - started
        child.kill('SIGTERM')
      }
    })
    child.on('exit', (code) => {
      time ??= performance.now() - started
      if (code === 0) resolve(time)
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${err}`))
    })
  })
}

const cases = [
  { label: 'node -e 0 (the baseline)', command: [process.execPath, '-e', '0'] },
  hasBinary && { label: 'binary: ready line', command: [binary, ...serve], marker: 'listening on http://' },
  {
    label: 'npm CLI: ready line',
    command: [process.execPath, cli, ...serve],
    marker: 'listening on http://',
  },
  hasBinary && { label: 'binary: trigger --forward-to (to exit)', command: [binary, ...trigger] },
  { label: 'npm CLI: trigger --forward-to (to exit)', command: [process.execPath, cli, ...trigger] },
].filter(Boolean)

for (const c of cases) c.times = []
// One warm-up round: the first spawn of each pays for the page cache.
for (const c of cases) await once(c.command, c.marker)
for (let run = 0; run < RUNS; run++) {
  for (const c of cases) c.times.push(await once(c.command, c.marker))
}
receiver.close()

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]
const baseline = median(cases[0].times)
console.log(`  Node ${process.version}, median of ${RUNS} interleaved runs, empty environment`)
for (const c of cases) {
  const ms = median(c.times)
  const note = c === cases[0] ? '' : `${(ms / baseline).toFixed(2)}× of it`
  const target =
    c.label === 'binary: ready line'
      ? `   target ≤ 2× node -e 0: ${ms / baseline <= 2 ? 'met' : 'NOT met'}`
      : ''
  console.log(`  ${c.label.padEnd(42)} ${ms.toFixed(0).padStart(5)} ms   ${note}${target}`)
}
if (!hasBinary) console.log('  (no binary: pnpm run build:binary builds it)')
