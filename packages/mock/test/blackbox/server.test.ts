/**
 * What a user of any of the three targets sees first: the API with the demo keys, the inspector,
 * the OpenAPI document, --version and --help, and the fidelity subcommands (a session recorded
 * through `record`, then replayed offline by `replay`).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runToEnd, selectedTargets, startServer, stop, TARGETS } from './targets.js'

const KEY = 'svc_live_acme_full'
const auth = { authorization: `Bearer ${KEY}` }
const json = { ...auth, 'content-type': 'application/json' }
const packageDir = join(import.meta.dirname, '../..')
const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }

describe.each(selectedTargets())('%s', (name) => {
  const target = TARGETS[name]

  test('serves the API with the demo keys: a page of tickets, a new ticket, a 422 and a 401', async () => {
    const server = await startServer(target, ['--port', '0'])
    const page = await fetch(`${server.url}/api/v1/support/tickets?page=2`, { headers: auth })
    expect(page.status).toBe(200)
    const listed = (await page.json()) as { data: unknown[]; meta: Record<string, number> }
    expect(listed.meta).toMatchObject({ total: 25, per_page: 20, current_page: 2 })
    expect(listed.data).toHaveLength(5)

    const created = await fetch(`${server.url}/api/v1/support/tickets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ subject: 'Disk full', message: 'Please help', department: 'technical' }),
    })
    expect(created.status).toBe(201)
    const { data } = (await created.json()) as { data: { ticket_id: string; status: string } }
    expect(data.status).toBe('open')
    const detail = await fetch(`${server.url}/api/v1/support/tickets/${data.ticket_id}`, { headers: auth })
    expect(((await detail.json()) as { data: { subject: string } }).data.subject).toBe('Disk full')

    const invalid = await fetch(`${server.url}/api/v1/support/tickets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ subject: 'No department', message: 'x' }),
    })
    expect(invalid.status).toBe(422)
    expect(((await invalid.json()) as { error: { code: string } }).error.code).toBe('validation_error')

    const unknownKey = await fetch(`${server.url}/api/v1/support/tickets`, {
      headers: { authorization: 'Bearer svc_live_nobody' },
    })
    expect(unknownKey.status).toBe(401)
    expect((await stop(server)).code).toBe(0)
  })

  test('serves the inspector with the assets of the package build, and the OpenAPI document', async () => {
    const server = await startServer(target, ['--port', '0'])
    const page = await fetch(`${server.url}/__mock/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await page.text()).toContain('<script type="module" src="inspector/app.js">')
    for (const [asset, type] of [
      ['app.js', /^text\/javascript/],
      ['app.css', /^text\/css/],
    ] as const) {
      const answer = await fetch(`${server.url}/__mock/inspector/${asset}`)
      expect(answer.status, asset).toBe(200)
      expect(answer.headers.get('content-type')).toMatch(type)
      // Byte for byte what `pnpm build` wrote: the binary's SEA assets are that build.
      expect(
        Buffer.from(await answer.arrayBuffer()).equals(
          readFileSync(join(packageDir, 'dist/inspector', asset)),
        ),
      ).toBe(true)
    }
    const state = await fetch(`${server.url}/__mock/state`)
    expect(state.status).toBe(200)
    const openapi = await fetch(`${server.url}/__mock/openapi.json`)
    expect(openapi.status).toBe(200)
    expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\.1\./)
    expect((await stop(server)).code).toBe(0)
  })

  test('--version prints the package version; --help lists the flags and their variables', async () => {
    const commands = ['import', 'compare', 'record', 'replay']
    const [printed, help, ...usages] = await Promise.all([
      runToEnd(target, ['--version']),
      runToEnd(target, ['--help']),
      ...commands.map((command) => runToEnd(target, [command, '--help'])),
    ])
    expect(printed).toMatchObject({ code: 0, stdout: version })
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('--allowed-host NAME')
    expect(help.stdout).toContain('RESELLER_MOCK_<OPTION>')
    commands.forEach((command, i) => {
      expect(usages[i]!.code, command).toBe(0)
      expect(usages[i]!.stdout, command).toMatch(new RegExp(`^Usage: reseller-mock ${command} `))
    })
  })

  test('records a session through `record` and replays it offline with `replay`', async () => {
    const upstream = await startServer(target, ['--port', '0'])
    const dataDir = target.dataDir()
    const cassette = target.pathIn(dataDir, 'session.jsonl')
    const recorder = await startServer(
      target,
      ['record', '--upstream', upstream.url, '--key', KEY, '--out', cassette, '--port', '0', '--quiet'],
      { dataDir },
    )
    const listed = await fetch(`${recorder.url}/api/v1/support/tickets`, { headers: auth })
    expect(listed.status).toBe(200)
    const created = await fetch(`${recorder.url}/api/v1/support/tickets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ subject: 'Recorded', message: 'Through the proxy', department: 'billing' }),
    })
    expect(created.status).toBe(201)
    expect((await stop(recorder)).code).toBe(0)
    expect(recorder.stdout.join('\n')).toContain('2 exchanges')
    await stop(upstream)

    const replayed = await runToEnd(target, ['replay', cassette], { dataDir })
    expect(replayed.stderr).toBe('')
    expect(replayed.code).toBe(0)
    expect(replayed.stdout).toMatch(/GET\s+\/api\/v1\/support\/tickets/)
  })
})
