/**
 * A clean recording replays clean: `reseller-mock record` in front of a second standalone mock (the
 * "upstream", with a history of its own: deliveries, tickets of other resellers), a session that
 * makes every kind of id the API hands out, then `reseller-mock replay` with nothing changed
 * upstream: 0 differences, exit 0 and nothing on stderr, every time
 * (docs/keeping-the-mock-honest.md, "Record and replay").
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, type CliRun, runCli, spawnCli, waitForLine } from '../helpers/cli.js'
import { startReceiver } from '../helpers/webhooks.js'

/** A demo key with every scope (docs/running-the-mock.md, the demo seed). */
const KEY = 'svc_live_acme_full'

let dir: string
let receiver: Awaited<ReturnType<typeof startReceiver>>
const children: CliRun[] = []

beforeAll(async () => {
  assertBuilt()
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-replay-clean-'))
  receiver = await startReceiver()
})
afterAll(async () => {
  for (const run of children.splice(0)) if (run.child.exitCode === null) run.child.kill('SIGKILL')
  await receiver.close()
  await rm(dir, { recursive: true, force: true })
})

/** Starts the CLI with `args`; resolves with the URL it prints once it listens. */
async function serve(args: string[], ready: RegExp): Promise<CliRun & { url: string }> {
  const run = spawnCli(args)
  children.push(run)
  const [, url] = await waitForLine(run, ready, 30_000)
  return { ...run, url: url! }
}

/** JSON requests with the demo key against `base` (a mock or the recorder). */
function client(base: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${KEY}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
    return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as any }
  }
}

describe('record, then replay with nothing changed upstream', { timeout: 240_000 }, () => {
  it('replays with 0 differences and exit 0, twice, with nothing on stderr', async () => {
    const upstream = await serve(
      ['--port', '0', '--insecure-webhooks'],
      /^reseller-mock listening on (http:\/\/127\.0\.0\.1:\d+)$/,
    )
    // The upstream's own history before the recording: a webhook with deliveries (imported with
    // --webhook) and a ticket. Its ids come from the same seeded generator the replay's mock has.
    const direct = client(upstream.url)
    const hook = await direct('POST', '/webhooks', { url: receiver.url, events: ['ticket.created'] })
    expect(hook.status).toBe(201)
    const webhook = hook.body.data.id as string
    expect((await direct('POST', `/webhooks/${webhook}/test`, { event: 'test' })).status).toBe(200)
    expect((await direct('POST', '/support/tickets', ticketBody('Before the recording'))).status).toBe(201)

    const out = join(dir, 'session.jsonl')
    const recorder = await serve(
      ['record', '--upstream', upstream.url, '--key', KEY, '--webhook', webhook, '--out', out, '--port', '0'],
      /^reseller-mock record listening on (http:\/\/127\.0\.0\.1:\d+)$/,
    )
    const send = client(recorder.url)
    // A ticket made, read back, answered, closed and read again: a uuid, a ticket id and message ids.
    const created = await send('POST', '/support/tickets', ticketBody('Disk full'))
    expect(created.status).toBe(201)
    const uuid = created.body.data.ticket_id as string
    expect((await send('GET', `/support/tickets/${uuid}`)).status).toBe(200)
    expect((await send('POST', `/support/tickets/${uuid}/messages`, { message: 'More' })).status).toBe(201)
    expect((await send('PATCH', `/support/tickets/${uuid}/close`)).status).toBe(200)
    expect((await send('GET', `/support/tickets/${uuid}`)).status).toBe(200)
    expect((await send('GET', '/support/tickets')).status).toBe(200)
    // Deliveries: the ticket's event, a test; a new webhook and its own deliveries.
    expect((await send('GET', `/webhooks/${webhook}/deliveries`)).status).toBe(200)
    expect((await send('POST', `/webhooks/${webhook}/test`, { event: 'test' })).status).toBe(200)
    const second = await send('POST', '/webhooks', { url: receiver.url, events: ['ticket.created'] })
    expect(second.status).toBe(201)
    const other = second.body.data.id as string
    expect((await send('POST', '/support/tickets', ticketBody('Another one'))).status).toBe(201)
    expect((await send('GET', `/webhooks/${other}/deliveries`)).status).toBe(200)
    // An account (a username), its suspension, the usage it takes; the reseller webhook and its test.
    const account = await send('POST', '/reseller/clients/501/hosting', {
      domain: 'replay-clean.example',
      whm_package: 'starter',
    })
    expect(account.status).toBe(201)
    const username = account.body.data.username as string
    expect((await send('GET', `/reseller/whm/accounts/${username}`)).status).toBe(200)
    expect((await send('POST', `/reseller/whm/accounts/${username}/suspend`)).status).toBe(200)
    expect((await send('GET', '/reseller/whm/usage')).status).toBe(200)
    expect(
      (await send('PUT', '/reseller/webhook', { url: receiver.url, secret: 'replay-secret-1' })).status,
    ).toBe(200)
    expect((await send('POST', '/reseller/webhook/test')).status).toBe(200)
    expect((await send('GET', `/webhooks/${webhook}/deliveries`)).status).toBe(200)
    recorder.child.kill('SIGTERM')
    expect(await recorder.exited).toEqual({ code: 0, signal: null })
    upstream.child.kill('SIGTERM')
    await upstream.exited
    // Every exchange was answered as documented while recording.
    expect(recorder.stderr()).not.toMatch(/violation|does not match/i)

    for (const round of [1, 2]) {
      const report = join(dir, `report-${round}.json`)
      const replay = await runCli(['replay', out, '--report', report], 60_000)
      expect(replay.stderr, `round ${round}`).toBe('')
      expect(replay.stdout, `round ${round}`).toMatch(/\n18 steps, 0 differences\n?$/)
      expect(replay.code, `round ${round}`).toBe(0)
      const json = JSON.parse(await readFile(report, 'utf8'))
      expect(json.differences).toBe(0)
    }
  })
})

function ticketBody(subject: string) {
  return { subject, department: 'technical', message: `${subject}: please help` }
}
