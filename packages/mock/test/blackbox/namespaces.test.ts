/**
 * Namespaces in each target (npm CLI, single executable, image): made, isolated from the root,
 * served with their inspector's assets, refused beyond --max-namespaces (and its variable), and kept
 * in the --state file through a SIGKILL.
 */
import { describe, expect, test } from 'vitest'
import { selectedTargets, startServer, stop, TARGETS } from './targets.js'

const KEY = 'svc_live_acme_full'
const auth = { authorization: `Bearer ${KEY}` }
const json = { ...auth, 'content-type': 'application/json' }

async function make(url: string, body: unknown) {
  const response = await fetch(`${url}/__mock/namespaces`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(body),
  })
  return {
    status: response.status,
    body: (await response.json()) as { data?: { url: string }; error?: { code: string; message: string } },
  }
}

const tickets = async (base: string) =>
  (
    (await (await fetch(`${base}/api/v1/support/tickets`, { headers: auth })).json()) as {
      meta: { total: number }
    }
  ).meta.total

describe.each(selectedTargets())('%s', (name) => {
  const target = TARGETS[name]

  test('serves a namespace apart from the root, with its inspector, within --max-namespaces', async () => {
    const server = await startServer(target, ['--port', '0', '--max-namespaces', '1'])
    const made = await make(server.url, { id: 'bb' })
    expect(made.status).toBe(201)
    const ns = made.body.data!.url
    expect(ns).toBe(`${server.url}/ns/bb`)
    const created = await fetch(`${ns}/api/v1/support/tickets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ subject: 'In bb', message: 'Only here', department: 'technical' }),
    })
    expect(created.status).toBe(201)
    expect(await tickets(ns)).toBe((await tickets(server.url)) + 1)
    expect((await fetch(`${ns}/__mock/inspector/app.js`)).status).toBe(200)
    expect(await (await fetch(`${ns}/__mock/`)).text()).toContain('src="inspector/app.js"')
    const refused = await make(server.url, {})
    expect(refused.status).toBe(429)
    expect(refused.body.error!.message).toContain('--max-namespaces 1')
    expect((await stop(server)).code).toBe(0)
  })

  test('keeps namespaces in the --state file through a SIGKILL; RESELLER_MOCK_MAX_NAMESPACES=0 turns them off', async () => {
    const dataDir = target.dataDir()
    const args = ['--port', '0', '--state', target.pathIn(dataDir, 'state.db')]
    const first = await startServer(target, args, { dataDir })
    const ns = (await make(first.url, { id: 'kept', label: 'kept' })).body.data!.url
    await fetch(`${ns}/__mock/clock/advance`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ seconds: 90 }),
    })
    await stop(first, 'SIGKILL')
    const second = await startServer(target, args, { dataDir, env: { RESELLER_MOCK_MAX_NAMESPACES: '0' } })
    const clock = (await (await fetch(`${second.url}/ns/kept/__mock/clock`)).json()) as {
      data: { offset_ms: number }
    }
    expect(clock.data.offset_ms).toBe(90_000)
    expect((await make(second.url, {})).status).toBe(429)
    expect((await stop(second)).code).toBe(0)
  })
})
