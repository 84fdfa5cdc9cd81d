// The shell recipes of docs/ run as written: the background server they start is stopped by the
// documented command (no process left behind), and the curl session answers what the guide shows.
import { spawnSync } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, CLI } from '../helpers/cli.js'

const DOCS = fileURLToPath(new URL('../../../../docs/', import.meta.url))
const doc = (name: string) => readFileSync(join(DOCS, name), 'utf8')

/** The fenced blocks of a language in a Markdown text, in order. */
function blocks(markdown: string, lang: string): string[] {
  return [...markdown.matchAll(new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```', 'gm'))].map((m) => m[1]!)
}

/** The blocks of `lang` in the section that starts with `heading` (up to the next heading of its level). */
function section(markdown: string, heading: string, lang = 'sh'): string[] {
  const start = markdown.indexOf(`${heading}\n`)
  if (start === -1) throw new Error(`no heading ${heading}`)
  const level = heading.match(/^#+/)![0]
  const rest = markdown.slice(start + heading.length)
  const end = rest.search(new RegExp(`^${level} `, 'm'))
  return blocks(end === -1 ? rest : rest.slice(0, end), lang)
}

let dir: string
beforeAll(() => {
  assertBuilt()
  // A project as a user has it: the bin linked into node_modules/.bin (as npm links it), the seed
  // of the guide (its full example) in test/seed.json.
  dir = mkdtempSync(join(tmpdir(), 'reseller-mock-docs-'))
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true })
  symlinkSync(CLI, join(dir, 'node_modules/.bin/reseller-mock'))
  mkdirSync(join(dir, 'test'))
  writeFileSync(
    join(dir, 'test/seed.json'),
    section(doc('running-the-mock.md'), '## Seed format', 'json')[0]!,
  )
})
afterAll(() => {
  // Nothing should be left, but a failing test must not leave a server either.
  for (const pid of processesIn(dir)) process.kill(pid, 'SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

/** Processes whose command line mentions `path` (our temporary project): what a recipe left running. */
function processesIn(path: string): number[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
  return ps.stdout
    .split('\n')
    .filter((line) => line.includes(path) && !line.includes('ps -eo'))
    .map((line) => Number.parseInt(line.trim(), 10))
    .filter((pid) => pid !== process.pid)
}

/** Waits (bounded) until no process of the temporary project is left. */
function nothingLeftBehind(timeout = 5000): Promise<void> {
  return expect.poll(() => processesIn(dir), { timeout, interval: 100 }).toEqual([])
}

/** Runs a bash script in the temporary project, with this Node first on PATH. */
function bash(script: string) {
  return spawnSync('bash', ['-c', script], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
  })
}

describe('shell recipes in docs/', { timeout: 90_000 }, () => {
  it('every block that starts a server in the background runs the bin itself, and its guide stops it', () => {
    let found = 0
    for (const name of readdirSync(DOCS).filter((f) => f.endsWith('.md'))) {
      const markdown = doc(name)
      for (const block of blocks(markdown, 'sh')) {
        const background = block
          .split('\n')
          .filter((line) => /&\s*(#.*)?$/.test(line) && !/&&\s*$/.test(line))
        for (const line of background) {
          found++
          expect(line, `${name}: ${line}`).not.toMatch(/\bnpx\b/)
          expect(block, `${name}: the PID is kept`).toMatch(/MOCK_PID=\$!/)
          expect(markdown, `${name}: the server is stopped`).toMatch(/kill \$MOCK_PID/)
        }
      }
    }
    expect(found).toBeGreaterThanOrEqual(2)
  })

  it('the detector sees a server left behind by a wrapper process (as `npx … &` leaves it)', async () => {
    const run = bash(
      `sh -c 'node "$0" --port 0 --quiet > wrapped.log 2>&1; :' ${CLI} &
       WRAPPER=$!
       until grep -q 'listening on' wrapped.log; do sleep 0.1; done
       kill $WRAPPER`.replace('node "$0"', `node "$0" --seed ${join(dir, 'test/seed.json')}`),
    )
    expect(run.status).toBe(0)
    // The wrapper is gone; the server it started is not.
    const left = processesIn(dir)
    expect(left.length).toBeGreaterThan(0)
    for (const pid of left) process.kill(pid, 'SIGKILL')
    await nothingLeftBehind()
  })

  it('running-the-mock.md "In CI": starts, serves, and is stopped with nothing left behind', async () => {
    const [recipe] = section(doc('running-the-mock.md'), '### In CI, or from another language')
    expect(recipe).toContain('# … run the tests …')
    const run = bash(
      recipe!.replace('# … run the tests …', 'curl -sf "$RESELLER_API_URL/__mock/clock" > ran.json'),
    )
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(readFileSync(join(dir, 'ran.json'), 'utf8')).data).toHaveProperty('offset_ms')
    await nothingLeftBehind()
  })

  it('testing-with-the-mock.md: the curl session answers what the guide shows, and the server is stopped', async () => {
    const [start, session, stop] = section(
      doc('testing-with-the-mock.md'),
      '## The standalone server, from any language',
    )
    expect(stop).toMatch(/kill \$MOCK_PID/)
    // The session's commands, each with the answer shown under it (if any).
    const commands: Array<{ command: string; expected?: string }> = []
    const lines = session!.split('\n')
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i]!
      if (line.startsWith('# {')) {
        const last = commands.at(-1)
        if (last && last.expected === undefined) last.expected = line.slice(2)
        continue
      }
      if (line.trim() === '' || line.startsWith('#')) continue
      let command = line
      while (line.endsWith('\\')) {
        line = lines[++i]!
        command += `\n${line}`
      }
      commands.push({ command })
    }
    const shown = commands.filter((c) => c.expected !== undefined)
    expect(shown.length).toBeGreaterThanOrEqual(10)
    const script = [
      // The guide's `curl -s` stays silent on errors; -S makes a failure say why (in stderr).
      'curl() { command curl -S "$@"; }',
      start,
      ...commands.map((c, i) => `printf '\\n@@${i}@@\\n'\n${c.command}`),
      `printf '\\n@@end@@\\n'`,
      stop,
    ].join('\n')
    const run = bash(script)
    expect(run.status, run.stderr).toBe(0)
    const outputs = run.stdout.split(/\n@@(?:\d+|end)@@\n/).slice(1)
    commands.forEach(({ command, expected }, i) => {
      if (expected === undefined) return
      // `…` in the guide stands for any text (ids, times).
      const pattern = new RegExp(
        `^${expected
          .split('…')
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      )
      expect(outputs[i]!.trim(), `${command}\n${run.stderr}`).toMatch(pattern)
    })
    await nothingLeftBehind()
  })
})

describe('developer-loop.md', { timeout: 120_000 }, () => {
  it('"The whole loop, as a script" runs as written: trigger, listen, a failed attempt, its retry, resend', async () => {
    const guide = doc('developer-loop.md')
    const [receiver] = section(guide, '## A receiver', 'js')
    const [script] = section(guide, '## The whole loop, as a script')
    writeFileSync(join(dir, 'receiver.mjs'), receiver!)
    // The SDK as an installed package: its entries are its built files.
    mkdirSync(join(dir, 'node_modules/@reseller-api'), { recursive: true })
    symlinkSync(
      fileURLToPath(new URL('../../../sdk', import.meta.url)),
      join(dir, 'node_modules/@reseller-api/sdk'),
    )
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo
        probe.close(() => resolve(free))
      })
    })
    const run = spawnSync('bash', ['-c', script!], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 90_000,
      env: { ...process.env, PORT: String(port), PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
    })
    expect(run.status, run.stderr).toBe(0)
    const time = '\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}'
    expect(run.stdout).toMatch(new RegExp(`^${time}\\s+--> hosting\\.created \\[dlv_[0-9a-f]{32}\\]$`, 'm'))
    expect(run.stdout).toMatch(
      new RegExp(
        `^${time}\\s+<-- \\[200\\] POST http://127\\.0\\.0\\.1:${port}/webhooks \\(\\d+ ms\\)$`,
        'm',
      ),
    )
    expect(run.stdout).toContain('not delivered')
    expect(run.stdout).toMatch(/--> wallet\.credited \[dlv_\w+\] \(redelivery of dlv_\w+\)/)
    const listened = readFileSync(join(dir, 'listen.log'), 'utf8').trim().split('\n')
    expect(listened[0]).toMatch(/Ready! .*reseller webhook signing secret is dev-secret /)
    expect(listened.slice(1)).toEqual([
      expect.stringMatching(/<-- \[200\] vps\.activated \[dlv_\w+\] \(\d+ ms\)$/),
      expect.stringMatching(
        /<-- \[ERROR\] wallet\.credited \[dlv_\w+\] \(\d+ ms\) connection failed: ECONNREFUSED, next retry at \S+Z \(mock time\)$/,
      ),
      expect.stringMatching(/<-- \[200\] wallet\.credited \[dlv_\w+\] \(\d+ ms\)$/),
      expect.stringMatching(/<-- \[200\] wallet\.credited \[dlv_\w+\] \(\d+ ms\) redelivery of dlv_\w+$/),
    ])
    const received = readFileSync(join(dir, 'receiver.log'), 'utf8')
    for (const event of ['hosting.created', 'vps.activated', 'wallet.credited'])
      expect(received).toContain(`received ${event}`)
    // The mock's request log shows the attempts.
    expect(readFileSync(join(dir, 'mock.log'), 'utf8')).toMatch(
      /^webhook vps\.activated dlv_\w+ attempt 1: POST \S+ 200 \d+ms$/m,
    )
    await nothingLeftBehind()
  })
})
