/**
 * Through the CLI: the state file records its seed (reset goes back to it after a restart without
 * --seed; another --seed is refused in one line unless --adopt-seed), a second process on the same
 * file is refused in one line naming the first, and SIGKILL amid concurrent writes loses nothing.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, runCli, startCli, waitForLine } from '../helpers/cli.js'

let dir: string
const cleanups: Array<() => unknown> = []
beforeAll(async () => {
  assertBuilt()
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-seed-'))
})
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function seedFile(name: string, key: string) {
  const path = join(dir, `${name}.json`)
  await writeFile(
    path,
    JSON.stringify({
      resellers: [{ id: 1, name, api_keys: [{ key, scopes: ['support:read', 'support:write'] }] }],
    }),
  )
  return path
}

async function launch(args: string[]) {
  const run = await startCli(['--port', '0', '--quiet', ...args])
  cleanups.push(() => {
    if (run.child.exitCode === null) run.child.kill('SIGKILL')
  })
  const call = async (method: string, path: string, key?: string, body?: unknown) => {
    const res = await fetch(`${run.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: await res.json() }
  }
  const kill = async () => {
    run.child.kill('SIGKILL')
    await run.exited
  }
  return { run, call, kill }
}

const ticket = { subject: 'Seeded?', message: 'Which seed?', department: 'technical' }

describe('state file and seed, through the CLI', { timeout: 60_000 }, () => {
  it('records the seed: a restart without --seed resets to it; another --seed is refused, or adopted', async () => {
    const first = await seedFile('first', 'svc_live_first')
    const second = await seedFile('second', 'svc_live_second')
    const state = join(dir, 'seeded.db')

    const a = await launch(['--seed', first, '--state', state])
    expect((await a.call('POST', '/api/v1/support/tickets', 'svc_live_first', ticket)).status).toBe(201)
    await a.kill()

    // No --seed: the recorded one, also for reset.
    const b = await launch(['--state', state])
    await waitForLine(b.run, new RegExp(`seed +the one recorded in ${state}`))
    expect((await b.call('POST', '/__mock/reset')).status).toBe(200)
    expect((await b.call('GET', '/api/v1/support/tickets', 'svc_live_first')).status).toBe(200)
    expect((await b.call('GET', '/api/v1/support/tickets', 'svc_live_second')).status).toBe(401)
    expect((await b.call('POST', '/api/v1/support/tickets', 'svc_live_first', ticket)).status).toBe(201)
    await b.kill()

    // Another seed: refused in one line, naming the way out; the file untouched.
    const refused = await runCli(['--port', '0', '--seed', second, '--state', state])
    expect(refused.code).toBe(1)
    const [line, ...rest] = refused.stderr.trim().split('\n')
    expect(line).toMatch(
      /state file .*seeded\.db: was created from another seed, not the one given; .*--adopt-seed/,
    )
    expect(rest).toEqual([])

    // Adopted: the state is kept, reset goes to the new seed from now on, and a restart remembers it.
    const c = await launch(['--seed', second, '--state', state, '--adopt-seed'])
    await waitForLine(c.run, new RegExp(`seed +${second}`))
    const kept = await c.call('GET', '/__mock/state')
    expect(kept.body.data.tables.tickets).toHaveLength(1)
    expect((await c.call('GET', '/api/v1/support/tickets', 'svc_live_first')).status).toBe(200)
    await c.kill()
    const d = await launch(['--state', state])
    expect((await d.call('POST', '/__mock/reset')).status).toBe(200)
    expect((await d.call('GET', '/api/v1/support/tickets', 'svc_live_second')).status).toBe(200)
    expect((await d.call('GET', '/api/v1/support/tickets', 'svc_live_first')).status).toBe(401)
  })

  it('a file created on the demo seed refuses a --seed too; --adopt-seed needs --seed and --state', async () => {
    const state = join(dir, 'demo.db')
    const a = await launch(['--state', state])
    await a.kill()
    const refused = await runCli([
      '--port',
      '0',
      '--seed',
      await seedFile('other', 'svc_live_other'),
      '--state',
      state,
    ])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/was created from the built-in demo seed/)
    // A flag without the ones it needs is a usage error.
    const lonely = await runCli(['--port', '0', '--adopt-seed'])
    expect(lonely.code).toBe(2)
    expect(lonely.stderr).toMatch(/--adopt-seed needs both --seed and --state/)
  })

  it('a second process on the same file is refused in one line naming the first; the file is untouched', async () => {
    const state = join(dir, 'held.db')
    const key = 'svc_live_held'
    const seed = await seedFile('held', key)
    const holder = await launch(['--seed', seed, '--state', state])
    expect((await holder.call('POST', '/api/v1/support/tickets', key, ticket)).status).toBe(201)
    const before = await readFile(state)
    const second = await runCli(['--port', '0', '--seed', seed, '--state', state])
    expect(second.code).toBe(1)
    expect(second.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `state file .*held\\.db: is in use by process ${holder.run.child.pid} \\(since .*\\); stop it first`,
        ),
      ),
    ])
    expect((await readFile(state)).equals(before)).toBe(true)
    // The first one goes on serving and writing.
    expect((await holder.call('POST', '/api/v1/support/tickets', key, ticket)).status).toBe(201)
    await holder.kill()
    // Killed: the lock goes with the process, and the next start takes it.
    const next = await launch(['--seed', seed, '--state', state])
    expect((await next.call('GET', '/api/v1/support/tickets', key)).body.meta.total).toBe(2)
  })

  it('a JSON state file of earlier releases is refused in one line saying what it is', async () => {
    const state = join(dir, 'old.json')
    const content = `${JSON.stringify({ format: 'reseller-mock-state', version: 2, saved_at: 'x', seed: null, state: {} })}\n`
    await writeFile(state, content)
    const refused = await runCli(['--port', '0', '--state', state])
    expect(refused.code).toBe(1)
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /old\.json: is a state file in the JSON-lines format of earlier releases.*move it away/,
      ),
    ])
    expect(await readFile(state, 'utf8')).toBe(content)
  })

  it('SIGKILL in the middle of concurrent writes, three times over: every acknowledged ticket is there', async () => {
    const state = join(dir, 'kill-loop.db')
    const key = 'svc_live_kill'
    const seed = await seedFile('kill', key)
    const acknowledged: string[] = []
    for (let round = 0; round < 3; round++) {
      const run = await launch(['--seed', seed, '--state', state])
      const stored = (await run.call('GET', '/__mock/state')).body.data.tables.tickets as { uuid: string }[]
      const present = new Set(stored.map((t) => t.uuid))
      for (const uuid of acknowledged) expect(present).toContain(uuid)
      // Five writers until the kill; answers that made it back count as acknowledged.
      // The kill comes once a few more writes were acknowledged, with the others in flight.
      let killed = false
      const target = acknowledged.length + 4 + round * 3
      let reached: () => void = () => {}
      const enough = new Promise<void>((resolve) => {
        reached = resolve
      })
      const writer = async () => {
        while (!killed) {
          try {
            const made = await run.call('POST', '/api/v1/support/tickets', key, ticket)
            if (made.status === 201) acknowledged.push(made.body.data.ticket_id)
            if (acknowledged.length >= target) reached()
          } catch {
            return
          }
        }
      }
      const writers = Array.from({ length: 5 }, writer)
      await enough
      killed = true
      await run.kill()
      await Promise.all(writers)
    }
    expect(acknowledged.length).toBeGreaterThan(10)
    const last = await launch(['--seed', seed, '--state', state])
    const total = (await last.call('GET', '/api/v1/support/tickets', key)).body.meta.total
    expect(total).toBeGreaterThanOrEqual(acknowledged.length)
  })
})
