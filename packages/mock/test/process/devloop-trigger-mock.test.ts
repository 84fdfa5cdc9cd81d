// `reseller-mock trigger --mock`: the built CLI against a running standalone mock, whose deliveries
// go to a real receiver that verifies signatures with its own HMAC code.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GENERAL_EVENTS, RESELLER_EVENTS } from '@reseller-api/sdk/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, startCli } from '../helpers/cli.js'
import {
  cli,
  DELIVERY_ID,
  EVENT_NAMES,
  LOOP_KEY,
  LOOP_SANDBOX_KEY,
  LOOP_SECRET,
  literal,
  mockRequest,
  pool,
  QUIET_KEY,
  TIME,
  writeLoopSeed,
} from '../helpers/devloop.js'
import { startReceiver, startVerifyingReceiver } from '../helpers/webhooks.js'

const SECRET = LOOP_SECRET
let dir: string
let receiver: Awaited<ReturnType<typeof startVerifyingReceiver>>
const stops: Array<() => unknown> = []

beforeAll(async () => {
  assertBuilt()
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-trigger-mock-'))
  receiver = await startVerifyingReceiver(SECRET)
  stops.push(() => receiver.close())
})
afterAll(async () => {
  for (const stop of stops.reverse()) await stop()
  await rm(dir, { recursive: true, force: true })
})

const NAMES = EVENT_NAMES

describe('trigger --mock (a running standalone mock)', { timeout: 120_000 }, () => {
  let mock: Awaited<ReturnType<typeof startCli>>
  let generalSecret: string

  beforeAll(async () => {
    mock = await startCli([
      '--port',
      '0',
      '--insecure-webhooks',
      '--quiet',
      '--seed',
      await writeLoopSeed(dir),
    ])
    stops.push(() => mock.child.kill('SIGTERM'))
    const reseller = await mockRequest(
      mock.url,
      'PUT',
      '/api/v1/reseller/webhook',
      { url: receiver.url, secret: SECRET },
      LOOP_KEY,
    )
    expect(reseller.status).toBe(200)
    const general = await mockRequest(
      mock.url,
      'POST',
      '/api/v1/webhooks',
      { url: receiver.url, events: [...GENERAL_EVENTS] },
      LOOP_KEY,
    )
    expect(general.status).toBe(201)
    generalSecret = general.body.data.secret
    receiver.setSecret([SECRET, generalSecret])
  })

  /** The first request each event's trigger makes: the operation that causes it. */
  const OPERATION: Record<string, string> = {
    'hosting.created': 'POST /api/v1/reseller/clients/501/hosting',
    'domain.registered': 'POST /api/v1/reseller/clients/501/hosting',
    'wallet.debited': 'POST /api/v1/reseller/clients/501/hosting',
    'ticket.created': 'POST /api/v1/support/tickets',
    'ticket.replied': 'POST /api/v1/support/tickets',
    test: 'POST /api/v1/webhooks/wh_1/test',
  }

  it('emits every event name through the operation that causes it, and reports each first attempt', async () => {
    const runs = await pool(
      NAMES.map(
        (name) => () =>
          cli(['trigger', name, '--mock', mock.url, '--key', LOOP_KEY, '--json']).then((r) => ({
            name,
            ...r,
          })),
      ),
      3,
    )
    for (const { name, code, stdout, stderr } of runs) {
      expect(code, `${name}: ${stderr}`).toBe(0)
      const report = JSON.parse(stdout)
      expect(report.event).toBe(name)
      const first = report.requests[0]
      expect(`${first.method} ${first.path}`).toBe(OPERATION[name] ?? 'POST /__mock/events')
      for (const request of report.requests) expect(request.status).toBeLessThan(300)
      expect(report.deliveries).toHaveLength(1)
      const [delivery] = report.deliveries
      expect(delivery).toMatchObject({ url: receiver.url, status: 'success', http_status: 200 })
      expect(delivery.webhook_id).toBe(
        (RESELLER_EVENTS as readonly string[]).includes(name) ? 'reseller' : 'wh_1',
      )
      const seen = receiver.seen.find((s) => s.delivery === delivery.delivery_id)
      expect(seen?.valid, name).toBe(true)
      expect(JSON.parse(seen!.body).event).toBe(name)
      // The requests are named by the answers' X-Mock-Deliveries: the delivery is among them.
      expect(report.requests.flatMap((r: { deliveries: string[] }) => r.deliveries)).toContain(
        delivery.delivery_id,
      )
    }
    // ticket.replied came from a staff reply to the ticket its trigger opened.
    const replied = JSON.parse(runs.find((r) => r.name === 'ticket.replied')!.stdout)
    expect(replied.requests[1].path).toMatch(/^\/__mock\/tickets\/[0-9a-f-]{36}\/replies$/)
  })

  it('prints each request and each delivery, and exits 1 when a first attempt fails', async () => {
    const ok = await cli(['trigger', 'domain.registered', '--mock', mock.url, '--key', LOOP_KEY])
    expect(ok.code).toBe(0)
    expect(ok.stdout).not.toContain('\x1b[')
    const lines = ok.stdout.trim().split('\n')
    expect(lines[0]).toMatch(
      new RegExp(`^${TIME}\\s+POST /api/v1/reseller/clients/501/hosting 201 req_\\w+$`),
    )
    // domain.registered only: the hosting.created and wallet.debited of the same provisioning are not its.
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(
        new RegExp(`^${TIME}\\s+--> domain.registered \\[${DELIVERY_ID}\\] to the reseller webhook$`),
      ),
      expect.stringMatching(
        new RegExp(`^${TIME}\\s+<-- \\[200\\] POST ${literal(receiver.url)} \\(\\d+ ms\\)$`),
      ),
    ])
    receiver.setStatus(503)
    try {
      const failed = await cli(['trigger', 'payment.failed', '--mock', mock.url, '--key', LOOP_KEY])
      expect(failed.code).toBe(1)
      expect(failed.stdout).toMatch(
        new RegExp(`<-- \\[503\\] POST ${literal(receiver.url)} \\(\\d+ ms\\)$`, 'm'),
      )
    } finally {
      receiver.setStatus(undefined)
    }
  })

  it('with a sandbox key: simulated provisioning, and POST /__mock/events for the events it does not cause', async () => {
    const [created, registered] = await pool([
      () => cli(['trigger', 'hosting.created', '--mock', mock.url, '--key', LOOP_SANDBOX_KEY, '--json']),
      () => cli(['trigger', 'domain.registered', '--mock', mock.url, '--key', LOOP_SANDBOX_KEY, '--json']),
    ])
    for (const run of [created, registered]) expect(run.code, run.stderr).toBe(0)
    const body = (run: typeof created) => {
      const [delivery] = JSON.parse(run.stdout).deliveries
      return JSON.parse(receiver.seen.find((s) => s.delivery === delivery.delivery_id)!.body)
    }
    expect(JSON.parse(created.stdout).requests[0].path).toBe('/api/v1/reseller/clients/501/hosting')
    expect(body(created)).toMatchObject({ event: 'hosting.created', sandbox: true })
    expect(JSON.parse(registered.stdout).requests[0].path).toBe('/__mock/events')
    expect(body(registered)).toMatchObject({ event: 'domain.registered', sandbox: true })
  })

  it('counts no webhook as success and says so; a refused operation, an unknown key exit 1', async () => {
    const [quiet, noScope, unknownKey] = await pool([
      () => cli(['trigger', 'vps.activated', '--mock', mock.url, '--key', QUIET_KEY]),
      () => cli(['trigger', 'hosting.created', '--mock', mock.url, '--key', 'svc_live_loop_support']),
      () => cli(['trigger', 'hosting.created', '--mock', mock.url, '--key', 'svc_live_nobody']),
    ])
    expect(quiet.code).toBe(0)
    expect(quiet.stdout).toMatch(/No webhook of reseller 2 receives vps\.activated: nothing was delivered/)
    expect(noScope.code).toBe(1)
    expect(noScope.stdout).toMatch(
      /POST \/api\/v1\/reseller\/clients\/501\/hosting 403 req_\w+ insufficient_scope: /,
    )
    expect(noScope.stderr.trim().split('\n')).toHaveLength(1)
    expect(noScope.stderr).toMatch(/^reseller-mock trigger: the operation failed: .*insufficient_scope/)
    expect(unknownKey.code).toBe(1)
    expect(unknownKey.stderr).toMatch(/has no API key svc_live_nobody/)
  })

  it('exits 2 when the mock cannot be reached, or the key is no API key, in one line', async () => {
    const closed = await startReceiver()
    const closedBase = closed.url.replace('/hook', '')
    await closed.close()
    const [unreachable, badKey, notAMock] = await pool([
      () => cli(['trigger', 'hosting.created', '--mock', closedBase, '--key', LOOP_KEY]),
      () => cli(['trigger', 'hosting.created', '--mock', mock.url, '--key', 'sk_test_123']),
      () =>
        cli(['trigger', 'hosting.created', '--mock', receiver.url.replace('/hook', ''), '--key', LOOP_KEY]),
    ])
    for (const run of [unreachable, badKey, notAMock]) {
      expect(run.code, run.stderr).toBe(2)
      expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1)
      expect(run.stderr).not.toMatch(/\n\s+at /)
    }
    expect(unreachable.stderr).toMatch(
      new RegExp(`cannot reach the mock at ${literal(closedBase)}: ECONNREFUSED`),
    )
    expect(badKey.stderr).toMatch(/--key: /)
    expect(badKey.stderr).not.toContain('sk_test_123')
    expect(notAMock.stderr).toMatch(/does not answer as a reseller-mock/)
  })
})
