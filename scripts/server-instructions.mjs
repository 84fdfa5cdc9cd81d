// The standalone server's own cost per request in instructions, which the machine's noise does not
// move: one Node process under callgrind (`node --predictable`, one thread) serves the mock and a
// bare node:http server answering the same bytes, as `packages/mock/bench/server.bench.mjs` does;
// both are warmed up alike, then each is sent the same keyed read (`GET /api/v1/support/tickets/{uuid}`)
// over 10 keep-alive connections while callgrind counts, and the counts are divided by the requests.
// User-space instructions only: the kernel's part of a request on loopback (about a third of the
// bare server's time) is the same for both, so the time ratio sits between this one and 1.
// Needs valgrind (`apt-get install -y valgrind`); takes three to five minutes.
//
//   node scripts/server-instructions.mjs            (after `pnpm run build`)
//
// Environment: INSTRUCTIONS_WARMUP (requests to each server before counting, default 15000, in
// three rounds), INSTRUCTIONS_REQUESTS (counted per server, default 2000).
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bareCopy, KEY, seed } from '../packages/mock/bench/server-fixture.mjs'

const WARMUP = Number(process.env.INSTRUCTIONS_WARMUP ?? 15_000)
const REQUESTS = Number(process.env.INSTRUCTIONS_REQUESTS ?? 2_000)

if (process.env.SERVER_INSTRUCTIONS_ROLE === 'server') await serveBoth()
else await measure()

/** In the counted process: the mock and the bare server, then one line naming their ports and path. */
async function serveBoth() {
  const { createMockApi } = await import('../packages/mock/dist/node.js')

  const mock = createMockApi({ seed })
  const server = await mock.listen({ port: 0, host: '127.0.0.1' })
  const headers = { authorization: `Bearer ${KEY}` }
  const page = await (await fetch(`${server.url}/api/v1/support/tickets`, { headers })).json()
  const path = `/api/v1/support/tickets/${page.data[0].uuid}`
  const { bare } = await bareCopy(server.url, path)
  console.log(JSON.stringify({ mock: server.port, bare: bare.address().port, path }))
}

/** Sends `count` GETs of `path` over 10 keep-alive connections; resolves once all are answered. */
function send(port, path, count) {
  const request = Buffer.from(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${KEY}\r\n\r\n`,
  )
  let sent = 0
  let answered = 0
  return new Promise((resolve, reject) => {
    for (let c = 0; c < 10; c++) {
      const socket = connect(port, '127.0.0.1')
      let pending = ''
      const next = () => {
        if (sent < count) {
          sent++
          socket.write(request)
        } else socket.end()
      }
      socket.on('connect', next)
      socket.on('error', reject)
      socket.on('data', (chunk) => {
        pending += chunk.toString('latin1')
        for (;;) {
          const end = pending.indexOf('\r\n\r\n')
          if (end === -1) return
          const head = pending.slice(0, end)
          if (!head.startsWith('HTTP/1.1 200')) reject(new Error(`${port}: ${head.split('\r\n')[0]}`))
          const length = Number(/content-length: (\d+)/i.exec(head)?.[1])
          if (pending.length < end + 4 + length) return
          pending = pending.slice(end + 4 + length)
          if (++answered === count) resolve()
          next()
        }
      })
    }
  })
}

async function measure() {
  if (spawnSync('valgrind', ['--version']).error) {
    console.error('server-instructions: valgrind is not installed (apt-get install -y valgrind)')
    process.exit(1)
  }
  const dir = mkdtempSync(join(tmpdir(), 'server-instructions-'))
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${join(dir, 'callgrind.%p')}`,
      process.execPath,
      '--predictable',
      '--hash-seed=1',
      '--random-seed=1',
      fileURLToPath(import.meta.url),
    ],
    { env: { ...process.env, SERVER_INSTRUCTIONS_ROLE: 'server' }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  try {
    const ready = await new Promise((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (chunk) => {
        out += chunk
        const line = out.split('\n').find((l) => l.startsWith('{'))
        if (line) resolve(JSON.parse(line))
      })
      child.on('exit', (code) => reject(new Error(`the counted process ended (${code}) before serving`)))
    })
    for (let round = 0; round < 3; round++) {
      await send(ready.mock, ready.path, Math.ceil(WARMUP / 3))
      await send(ready.bare, ready.path, Math.ceil(WARMUP / 3))
    }
    const control = (flag) =>
      execFileSync('callgrind_control', [flag, String(child.pid)], { stdio: 'ignore' })
    const counted = {}
    for (const [name, port] of [
      ['mock', ready.mock],
      ['bare', ready.bare],
    ]) {
      control('-z')
      await send(port, ready.path, REQUESTS)
      control('-d')
      // callgrind.<pid>.<n>: the n-th dump (callgrind.<pid> itself is written at exit).
      const dumps = readdirSync(dir).filter((f) => /^callgrind\.\d+\.\d+$/.test(f))
      const last = dumps.sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop())).pop()
      const summary = last && /^summary: (\d+)/m.exec(readFileSync(join(dir, last), 'utf8'))
      if (!summary) throw new Error(`callgrind wrote no dump for ${name} in ${dir}`)
      counted[name] = Number(summary[1]) / REQUESTS
    }
    const own = counted.mock - counted.bare
    console.log(
      `instructions per request (user space, ${REQUESTS} keyed reads each, after ${WARMUP} to each): ` +
        `bare ${Math.round(counted.bare)}, mock ${Math.round(counted.mock)} (own ${Math.round(own)}); ` +
        `ratio bare/mock ${(counted.bare / counted.mock).toFixed(3)}`,
    )
  } finally {
    child.kill()
    rmSync(dir, { recursive: true, force: true })
  }
}
