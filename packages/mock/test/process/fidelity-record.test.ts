/**
 * `reseller-mock record` and `replay` as a user runs them: the "real" service is a second mock
 * behind a tap (test/helpers/tap.ts) that keeps the exact answers it sent and changes some on
 * purpose; the recorder is the built CLI in a child process.
 */
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RunningServer } from '../../src/server/http/listen.js'
import { assertBuilt, CLI, type CliRun, runCli, spawnCli, waitForLine } from '../helpers/cli.js'
import { KEYS, newMock } from '../helpers/mock.js'
import { editJson, rawRequest, startTap, type Tap, type TappedAnswer, withLength } from '../helpers/tap.js'

const KEY = KEYS.a
let dir: string
let upstream: RunningServer
let tap: Tap
const children: CliRun[] = []

beforeAll(() => assertBuilt())
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-record-'))
  upstream = await newMock().listen({ port: 0 })
  tap = await startTap(upstream.url)
})
afterEach(async () => {
  for (const run of children.splice(0)) if (run.child.exitCode === null) run.child.kill('SIGKILL')
  await tap.close()
  await upstream.close()
  await rm(dir, { recursive: true, force: true })
})

/** Starts `record` in front of the tap; resolves with the proxy's URL once it listens. */
async function startRecord(out: string) {
  const run = spawnCli(['record', '--upstream', tap.url, '--key', KEY, '--out', out, '--port', '0'])
  children.push(run)
  const [, url] = await waitForLine(
    run,
    /^reseller-mock record listening on (http:\/\/127\.0\.0\.1:\d+)$/,
    30_000,
  )
  return { ...run, url: url! }
}

const auth = { authorization: `Bearer ${KEY}` }
const json = { ...auth, 'content-type': 'application/json' }

async function stop(run: CliRun, signal: NodeJS.Signals) {
  run.child.kill(signal)
  return run.exited
}

async function cassetteLines(path: string) {
  const text = await readFile(path, 'utf8')
  expect(text.endsWith('\n')).toBe(true)
  return text
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line))
}

describe('reseller-mock record', { timeout: 240_000 }, () => {
  it('answers with the upstream answer byte for byte: JSON, errors, HTML, binary and a custom status line', async () => {
    const out = join(dir, 'c.jsonl')
    const run = await startRecord(out)
    // An answer no API gives, to prove bytes that are not UTF-8 and a reason phrase of its own pass.
    const binary = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x0a, 0x7b])
    tap.change = (_method, path, answer) =>
      path === '/binary'
        ? {
            status: 299,
            statusMessage: 'Quite Fine',
            rawHeaders: [
              ...withLength(['Content-Type', 'application/octet-stream', 'X-Odd-Case', 'a'], binary.length),
              'Connection',
              'close',
            ],
            body: binary,
          }
        : answer
    const requests: [string, string, Record<string, string>, string?][] = [
      ['GET', '/api/v1/support/tickets?page=1', auth],
      ['GET', '/api/v1/support/tickets/00000000-0000-4000-8000-000000000000', auth],
      ['GET', '/api/v1/services', {}],
      ['POST', '/api/v1/support/tickets', json, '{"subject":"Hi","department":"technical","message":"m"}'],
      ['POST', '/api/v1/support/tickets', json, '{"subject":'],
      ['GET', '/__mock/', {}],
      ['GET', '/binary', {}],
    ]
    for (const [index, [method, path, headers, body]] of requests.entries()) {
      const id = String(index)
      const got = await rawRequest(run.url, method, path, { ...headers, 'x-tap': id }, body)
      const sent = tap.answers.get(id)!
      expect(sent, `${method} ${path}`).toBeDefined()
      expect(got.status, `${method} ${path}`).toBe(sent.status)
      expect(got.statusMessage).toBe(sent.statusMessage)
      expect(got.rawHeaders, `${method} ${path}`).toEqual(sent.rawHeaders)
      expect(got.body.equals(sent.body), `${method} ${path}`).toBe(true)
    }
    expect(await stop(run, 'SIGTERM')).toEqual({ code: 0, signal: null })
    const [seed, header, ...exchanges] = await cassetteLines(out)
    // The first line is the seed as import writes it, with a new key of the recorded key's mode.
    expect(seed.resellers[0].api_keys).toEqual([
      { key: expect.stringMatching(/^svc_live_/), scopes: expect.any(Array) },
    ])
    expect(seed.resellers[0].api_keys[0].key).not.toBe(KEY)
    expect(header).toMatchObject({
      format: 'reseller-mock-cassette',
      version: 1,
      upstream: tap.url,
      mode: 'live',
    })
    expect(exchanges.map((e) => [e.request.method, e.request.path, e.response.status])).toEqual([
      ['GET', '/api/v1/support/tickets?page=1', 200],
      ['GET', '/api/v1/support/tickets/00000000-0000-4000-8000-000000000000', 404],
      ['GET', '/api/v1/services', 401],
      ['POST', '/api/v1/support/tickets', 201],
      ['POST', '/api/v1/support/tickets', 422],
      ['GET', '/__mock/', 200],
      ['GET', '/binary', 299],
    ])
    const last = exchanges.at(-1)
    expect(last.response.body_encoding).toBe('base64')
    expect(Buffer.from(last.response.body, 'base64').equals(binary)).toBe(true)
    expect(exchanges[3].request.headers.authorization).toBe('live')
  })

  it('prints each violation of the OpenAPI document on stderr and still answers as the upstream did', async () => {
    const out = join(dir, 'c.jsonl')
    const run = await startRecord(out)
    tap.change = (_method, path, answer) =>
      path === '/api/v1/support/tickets'
        ? editJson(answer, (body) => {
            const first = (body.data as Record<string, unknown>[])[0]!
            first.priority = 'critical'
            ;(body.data as Record<string, unknown>[])[1]!.messages_count = 'two'
          })
        : answer
    const got = await rawRequest(run.url, 'GET', '/api/v1/support/tickets', auth)
    expect(got.status).toBe(200)
    expect(JSON.parse(got.body.toString()).data[0].priority).toBe('critical')
    await expect
      .poll(run.stderr, { timeout: 60_000 })
      .toMatch(/violation: GET \/api\/v1\/support\/tickets → 200: answer \/data\/0\/priority: /)
    expect(run.stderr()).toMatch(
      /violation: GET \/api\/v1\/support\/tickets → 200: answer \/data\/1\/messages_count: /,
    )
    // The proxy goes on: a conforming exchange after it has no violation.
    expect((await rawRequest(run.url, 'GET', '/api/v1/reseller/whm/usage', auth)).status).toBe(200)
    expect(await stop(run, 'SIGINT')).toEqual({ code: 0, signal: null })
    const [, , first, second] = await cassetteLines(out)
    expect(first.violations).toHaveLength(2)
    expect(second.violations).toEqual([])
  })

  it('stops cleanly on SIGTERM while it is still importing: exit 0, nothing written', async () => {
    let requests = 0
    const silent = createServer(() => requests++) // reads requests, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
    const out = join(dir, 'never.jsonl')
    const run = spawnCli(['record', '--upstream', url, '--key', KEY, '--out', out, '--port', '0'])
    children.push(run)
    await expect.poll(() => requests, { timeout: 60_000 }).toBeGreaterThan(0)
    expect(await stop(run, 'SIGTERM')).toEqual({ code: 0, signal: null })
    expect(run.stdout.join('\n')).toMatch(/stopped \(SIGTERM\) before recording: nothing written/)
    await expect(readFile(out)).rejects.toThrow(/ENOENT/)
    silent.closeAllConnections()
    await new Promise((resolve) => silent.close(resolve))
  })

  it('refuses bad flags and an upstream it cannot import from with exit 2, writing nothing', async () => {
    const out = join(dir, 'never.jsonl')
    const noUpstream = await runCli(['record', '--key', KEY, '--out', out], 60_000)
    expect(noUpstream.code).toBe(2)
    expect(noUpstream.stderr).toMatch(/--upstream URL is required/)
    const badKey = await runCli(['record', '--upstream', tap.url, '--key', 'secret123', '--out', out], 60_000)
    expect(badKey.code).toBe(2)
    expect(badKey.stderr).not.toContain('secret123')
    const unreachable = await runCli(
      ['record', '--upstream', 'http://127.0.0.1:1', '--key', KEY, '--out', out],
      60_000,
    )
    expect(unreachable.code).toBe(2)
    expect(unreachable.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1/)
    await expect(readFile(out)).rejects.toThrow(/ENOENT/)
    const help = await runCli(['record', '--help'], 60_000)
    expect(help.code).toBe(0)
    for (const flag of ['--upstream', '--key', '--out', '--port', '--webhook'])
      expect(help.stdout).toContain(flag)
  })
})

/** A session of an application: reads, writes whose ids the upstream makes, and secrets both ways. */
async function session(url: string) {
  const send = (method: string, path: string, body?: unknown) =>
    rawRequest(
      url,
      method,
      path,
      body === undefined ? auth : json,
      body === undefined ? undefined : JSON.stringify(body),
    )
  const bodyOf = (answer: TappedAnswer) => JSON.parse(answer.body.toString('utf8'))
  await send('GET', '/api/v1/support/tickets')
  const created = bodyOf(
    await send('POST', '/api/v1/support/tickets', {
      subject: 'Disk full',
      department: 'technical',
      message: 'Help',
    }),
  )
  const uuid = created.data.ticket_id as string
  await send('GET', `/api/v1/support/tickets/${uuid}`)
  await send('POST', `/api/v1/support/tickets/${uuid}/messages`, { message: 'More details' })
  await send('PATCH', `/api/v1/support/tickets/${uuid}/close`)
  await send('GET', '/api/v1/reseller/whm/packages')
  await send('GET', '/api/v1/reseller/whm/usage')
  await send('GET', '/api/v1/support/tickets/00000000-0000-4000-8000-000000000000')
  await rawRequest(url, 'GET', '/api/v1/services', {})
  await send('PUT', '/api/v1/reseller/webhook', {
    url: 'https://hooks.example.com/reseller',
    secret: 'reseller-signing-secret-1',
  })
  await send('GET', '/api/v1/reseller/webhook')
  const webhook = bodyOf(
    await send('POST', '/api/v1/webhooks', {
      url: 'https://hooks.example.com/general',
      events: ['payment.failed'],
    }),
  )
  return { uuid, webhookSecret: webhook.data.secret as string }
}

describe('reseller-mock replay', { timeout: 240_000 }, () => {
  it('replays a cassette of an unchanged upstream with no difference, twice, and no key or secret is in it', async () => {
    const out = join(dir, 'c.jsonl')
    const run = await startRecord(out)
    const { uuid, webhookSecret } = await session(run.url)
    expect(await stop(run, 'SIGTERM')).toEqual({ code: 0, signal: null })
    const text = await readFile(out, 'utf8')
    expect(text.split('\n')).toHaveLength(15)
    // Key-shaped strings: only the import's new keys, in the seed line.
    const [seedLine, ...rest] = text.split('\n')
    expect(rest.join('\n')).not.toMatch(/svc_(live|test)_/)
    const newKeys = JSON.parse(seedLine!).resellers[0].api_keys.map((k: { key: string }) => k.key)
    expect(seedLine!.match(/svc_(live|test)_[\w-]+/g)).toEqual(newKeys)
    expect(webhookSecret).toMatch(/^whsec_/)
    for (const secret of [KEY, webhookSecret, 'reseller-signing-secret-1', 'whsec_']) {
      expect(text, secret).not.toContain(secret)
    }
    expect(text).toContain(uuid)

    for (const round of [1, 2]) {
      const report = join(dir, `report-${round}.json`)
      const replay = await runCli(['replay', out, '--report', report], 60_000)
      expect(replay.stderr, `round ${round}`).toBe('')
      expect(replay.code, `round ${round}: ${replay.stdout}`).toBe(0)
      expect(replay.stdout).toMatch(/12 steps, 0 differences/)
      const json = JSON.parse(await readFile(report, 'utf8'))
      expect(json).toMatchObject({ upstream: tap.url, scenario: 'replay', differences: 0 })
      expect(json.steps.map((s: { status: number[] }) => s.status[0])).toEqual([
        200, 201, 200, 201, 200, 200, 200, 404, 401, 200, 200, 201,
      ])
    }
  })

  it('names the step and pointer of an answer the upstream changed, and exits 1 (0 once allowed)', async () => {
    const out = join(dir, 'c.jsonl')
    const run = await startRecord(out)
    // Changed after the import: the seed has the true quota, the recorded answer another one.
    tap.change = (_method, path, answer) =>
      path === '/api/v1/reseller/whm/packages'
        ? editJson(answer, (body) => {
            const first = (body.data as Record<string, number>[])[0]!
            first.quota = first.quota! + 1
          })
        : answer
    await rawRequest(run.url, 'GET', '/api/v1/reseller/whm/usage', auth)
    await rawRequest(run.url, 'GET', '/api/v1/reseller/whm/packages', auth)
    expect(await stop(run, 'SIGINT')).toEqual({ code: 0, signal: null })

    const report = join(dir, 'report.json')
    const junit = join(dir, 'junit.xml')
    const replay = await runCli(['replay', out, '--report', report, '--junit', junit], 60_000)
    expect(replay.code).toBe(1)
    expect(replay.stdout).toMatch(/#2 GET \/api\/v1\/reseller\/whm\/packages \/data\/0\/quota value: /)
    const json = JSON.parse(await readFile(report, 'utf8'))
    expect(json.differences).toBe(1)
    expect(json.steps[0]).toMatchObject({ name: '#1', differences: [] })
    expect(json.steps[1]).toMatchObject({
      name: '#2',
      method: 'GET',
      path: '/api/v1/reseller/whm/packages',
      differences: [{ pointer: '/data/0/quota', kind: 'value' }],
    })
    expect(json.steps[1].differences[0].upstream).toBe(json.steps[1].differences[0].mock + 1)
    expect(await readFile(junit, 'utf8')).toMatch(/<failure message="1 difference\(s\)"/)

    const allow = join(dir, 'allow.jsonl')
    await writeFile(allow, '{"step":"#2","pointer":"/data/0/quota","kind":"value"}\n')
    expect((await runCli(['replay', out, '--allow', allow], 60_000)).code).toBe(0)
  })

  it('exits 2 on a missing cassette, a line it cannot read, or a bad flag', async () => {
    const missing = await runCli(['replay', join(dir, 'nope.jsonl')], 60_000)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/the cassette \S*nope\.jsonl does not exist/)
    const bad = join(dir, 'bad.jsonl')
    await writeFile(bad, '{"format":"reseller-mock-cassette"}\n')
    const badRun = await runCli(['replay', bad], 60_000)
    expect(badRun.code).toBe(2)
    expect(badRun.stderr).toMatch(/bad\.jsonl line 1 is not a seed/)
    expect((await runCli(['replay'], 60_000)).code).toBe(2)
    expect((await runCli(['replay', bad, '--nope'], 60_000)).code).toBe(2)
    const help = await runCli(['replay', '--help'], 60_000)
    expect(help.code).toBe(0)
    for (const flag of ['--report', '--junit', '--allow']) expect(help.stdout).toContain(flag)
  })
})

/** The `sh` blocks of the section of `file` (in docs/) under `heading`. */
async function docBlocks(file: string, heading: string): Promise<string[]> {
  const markdown = await readFile(fileURLToPath(new URL(`../../../../docs/${file}`, import.meta.url)), 'utf8')
  const start = markdown.indexOf(`${heading}\n`)
  expect(start, heading).toBeGreaterThan(-1)
  const rest = markdown.slice(start + heading.length)
  const end = rest.search(/^## /m)
  const text = end === -1 ? rest : rest.slice(0, end)
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1]!)
}

describe('docs/keeping-the-mock-honest.md, "Record and replay"', { timeout: 240_000 }, () => {
  it('its recipes record in front of an application and replay offline, as written', async () => {
    const [recordBlock, replayBlock] = await docBlocks('keeping-the-mock-honest.md', '## Record and replay')
    expect(recordBlock).toContain('# … run your application')
    await mkdir(join(dir, 'node_modules/.bin'), { recursive: true })
    await symlink(CLI, join(dir, 'node_modules/.bin/reseller-mock'))
    const application = [
      'curl -sf -H "Authorization: Bearer $UPSTREAM_KEY" "$RESELLER_API_URL/api/v1/support/tickets" > /dev/null',
      'curl -sf -H "Authorization: Bearer $UPSTREAM_KEY" "$RESELLER_API_URL/api/v1/reseller/whm/usage" > /dev/null',
    ].join('\n')
    const script = `${recordBlock!.replace(/^# … run your application.*$/m, application)}\n${replayBlock}`
    // Not spawnSync: the upstream answers from this process, whose event loop must keep running.
    const child = spawn('bash', ['-c', script], {
      cwd: dir,
      env: {
        ...process.env,
        PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
        UPSTREAM_URL: upstream.url,
        UPSTREAM_KEY: KEY,
      },
    })
    const run = { stdout: '', stderr: '', status: null as number | null }
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (run.stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (run.stderr += chunk))
    run.status = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0)
    expect(run.stdout).toMatch(/2 steps, 0 differences/)
    expect(await readFile(join(dir, 'record.log'), 'utf8')).toMatch(
      /#2 GET \/api\/v1\/reseller\/whm\/usage → 200/,
    )
    const report = JSON.parse(await readFile(join(dir, 'replay.json'), 'utf8'))
    expect(report.differences).toBe(0)
    const cassette = await readFile(join(dir, 'checkout.jsonl'), 'utf8')
    expect(cassette).not.toContain(KEY)
    expect(cassette).not.toMatch(/whsec_/)
  })
})
