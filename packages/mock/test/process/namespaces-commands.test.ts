/**
 * The commands that take a mock's URL (`listen --mock`, `trigger --mock`, `resend --mock`) and those
 * that take a service's base URL (`import --from`, `compare --upstream`, `record --upstream`, then
 * `replay` of what was recorded) given a namespace's `url` as it is: each works as at a server's
 * root, and nothing it does reaches the root.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, type CliRun, runCli, spawnCli, startCli, waitForLine } from '../helpers/cli.js'
import { startVerifyingReceiver } from '../helpers/webhooks.js'

const KEY = 'svc_live_acme_full'
const SECRET = 'whsec_namespace_loop'
let dir: string
let server: CliRun & { url: string }
let ns: string
let receiver: Awaited<ReturnType<typeof startVerifyingReceiver>>

const cli = (args: string[]) => runCli(args, 90_000)

async function get(url: string, key?: string) {
  const response = await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {} })
  return (await response.json()) as { data: any }
}

beforeAll(async () => {
  assertBuilt()
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-ns-commands-'))
  receiver = await startVerifyingReceiver(SECRET)
  server = await startCli(['--port', '0', '--insecure-webhooks', '--quiet'])
  const made = await fetch(`${server.url}/__mock/namespaces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'commands' }),
  })
  ns = ((await made.json()) as { data: { url: string } }).data.url
  await fetch(`${server.url}/__mock/requests`, { method: 'DELETE' })
})

afterAll(async () => {
  server?.child.kill('SIGTERM')
  await server?.exited
  await receiver?.close()
  await rm(dir, { recursive: true, force: true })
})

describe("commands given a namespace's url", { timeout: 240_000 }, () => {
  it('listen --mock, trigger --mock and resend --mock drive the namespace and its deliveries', async () => {
    const listen = await cli([
      'listen',
      '--print-secret',
      '--secret',
      SECRET,
      '--forward-to',
      receiver.url,
      '--mock',
      ns,
      '--key',
      KEY,
    ])
    expect(listen.code, listen.stderr).toBe(0)
    expect(listen.stdout.trim()).toBe(SECRET)
    expect((await get(`${ns}/api/v1/reseller/webhook`, KEY)).data.url).toBe(receiver.url)
    expect((await get(`${server.url}/api/v1/reseller/webhook`, KEY)).data.url).not.toBe(receiver.url)

    const trigger = await cli(['trigger', 'vps.activated', '--mock', ns, '--key', KEY, '--json'])
    expect(trigger.code, trigger.stderr).toBe(0)
    const report = JSON.parse(trigger.stdout) as { deliveries: { delivery_id: string; status: string }[] }
    expect(report.deliveries).toHaveLength(1)
    expect(report.deliveries[0]!.status).toBe('success')
    await receiver.waitFor(1)
    expect((await get(`${server.url}/__mock/deliveries`)).data).toEqual([])

    const id = report.deliveries[0]!.delivery_id
    const resend = await cli(['resend', id, '--mock', ns])
    expect(resend.code, resend.stderr).toBe(0)
    await receiver.waitFor(2)
    // The root has no such delivery.
    expect((await cli(['resend', id, '--mock', server.url])).code).toBe(2)
    // The checks above read the root's API: the next tests start from an empty root journal.
    await fetch(`${server.url}/__mock/requests`, { method: 'DELETE' })
  })

  it('import --from and compare --upstream read the namespace as a deployment; nothing reaches the root', async () => {
    const out = join(dir, 'imported.json')
    const imported = await cli(['import', '--from', ns, '--key', KEY, '--out', out])
    expect(imported.code, imported.stderr).toBe(0)
    const seed = JSON.parse(await readFile(out, 'utf8')) as { resellers: { id: number }[] }
    expect(seed.resellers.map((r) => r.id)).toEqual([1])

    const compared = await cli(['compare', '--upstream', ns, '--key', KEY])
    expect(compared.code, compared.stdout).toBe(0)
    expect(compared.stdout).toMatch(/ 0 differences$/m)
    expect((await get(`${server.url}/__mock/requests`)).data).toEqual([])
  })

  it('record --upstream proxies to the namespace (its deprecated routes included) and replay finds no difference', async () => {
    const cassette = join(dir, 'namespace.jsonl')
    const run = spawnCli(['record', '--upstream', ns, '--key', KEY, '--out', cassette, '--port', '0'])
    try {
      const [, proxy] = await waitForLine(
        run,
        /^reseller-mock record listening on (http:\/\/127\.0\.0\.1:\d+)$/,
        60_000,
      )
      const legacy = await fetch(`${proxy}/api/v1/reseller/usage`, {
        headers: { authorization: `Bearer ${KEY}` },
      })
      expect(legacy.status).toBe(200)
      expect(legacy.headers.get('link')).toBe(
        '</ns/commands/api/v1/reseller/whm/usage>; rel="successor-version"',
      )
      expect(
        (await fetch(`${proxy}/api/v1/reseller/whm/usage`, { headers: { authorization: `Bearer ${KEY}` } }))
          .status,
      ).toBe(200)
    } finally {
      run.child.kill('SIGINT')
    }
    expect((await run.exited).code).toBe(0)
    const journal = (await get(`${ns}/__mock/requests?path=/api/v1/reseller/usage`)).data
    expect(journal.length).toBeGreaterThan(0)
    const replayed = await cli(['replay', cassette])
    expect(replayed.code, `${replayed.stdout}\n${replayed.stderr}`).toBe(0)
    expect((await get(`${server.url}/__mock/requests`)).data).toEqual([])
  })
})
