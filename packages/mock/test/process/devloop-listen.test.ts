// `reseller-mock listen` and `reseller-mock resend`, the built CLI against a running standalone
// mock whose deliveries go to a real receiver that verifies signatures with its own HMAC code; and
// the delivery lines of the mock's own request log.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, type CliRun, spawnCli, startCli, waitForLine } from '../helpers/cli.js'
import {
  cli,
  DELIVERY_ID,
  LOOP_KEY,
  literal,
  mockRequest,
  pool,
  TIME,
  writeLoopSeed,
} from '../helpers/devloop.js'
import { startReceiver, startVerifyingReceiver } from '../helpers/webhooks.js'

const SECRET = 'whsec_listen_secret'
let dir: string
let seed: string
let receiver: Awaited<ReturnType<typeof startVerifyingReceiver>>
/** The insecure mock most tests use; its request log is on. */
let mock: Awaited<ReturnType<typeof startCli>>
const stops: Array<() => unknown> = []
const running: CliRun[] = []

beforeAll(async () => {
  assertBuilt()
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-listen-'))
  seed = await writeLoopSeed(dir)
  receiver = await startVerifyingReceiver(SECRET)
  stops.push(() => receiver.close())
  mock = await startCli(['--port', '0', '--insecure-webhooks', '--seed', seed])
  stops.push(() => mock.child.kill('SIGTERM'))
})
afterEach(async () => {
  for (const run of running.splice(0)) if (run.child.exitCode === null) run.child.kill('SIGKILL')
  receiver.setStatus(undefined)
  await mockRequest(mock.url, 'POST', '/__mock/reset')
})
afterAll(async () => {
  for (const stop of stops.reverse()) await stop()
  await rm(dir, { recursive: true, force: true })
})

/** Starts `listen` and resolves with its Ready line. */
async function listen(args: string[], base = mock.url) {
  const run = spawnCli(['listen', '--forward-to', receiver.url, '--mock', base, '--key', LOOP_KEY, ...args])
  running.push(run)
  const [ready] = await waitForLine(run, /^.*Ready!.*$/)
  // Scripts wait for the line with `grep '^Ready!'` (docs/developer-loop.md): nothing before it.
  expect(ready).toMatch(/^Ready! /)
  return { run, ready: ready! }
}

/** The line of an attempt as listen prints it. */
const attemptPattern = (status: string, event: string, rest = '') =>
  new RegExp(
    `^${TIME}\\s+<-- \\[${status}\\] ${literal(event)} \\[(${DELIVERY_ID})\\] \\((\\d+) ms\\)${rest}$`,
  )

const emit = (event: string, extra: Record<string, unknown> = {}) =>
  mockRequest(mock.url, 'POST', '/__mock/events', { reseller_id: 1, event, ...extra })

describe('listen', { timeout: 60_000 }, () => {
  it('sets the reseller webhook, prints Ready with its secret, then one line per attempt within 1 s', async () => {
    const { run, ready } = await listen(['--secret', SECRET])
    expect(ready).toMatch(
      new RegExp(`^Ready! .*reseller webhook signing secret is ${SECRET} \\(\\^C to quit\\)$`),
    )
    expect(run.stdout[0]).toBe(ready)
    const config = await mockRequest(mock.url, 'GET', '/api/v1/reseller/webhook', undefined, LOOP_KEY)
    expect(config.body.data).toEqual({ url: receiver.url, has_secret: true })

    const before = receiver.seen.length
    await emit('vps.activated')
    await receiver.waitFor(before + 1)
    const answered = receiver.seen[before]!
    expect(answered.valid).toBe(true)
    const [line, id] = await waitForLine(run, attemptPattern('200', 'vps.activated'))
    expect(Date.now() - answered.at).toBeLessThan(1000)
    expect(id).toBe(answered.delivery)
    expect(line).not.toContain('\x1b[')

    run.child.kill('SIGINT')
    expect((await run.exited).code).toBe(0)
  })

  it('general style: a failed attempt shows when its retry is due (mock time), and the retry its own line', async () => {
    const { run, ready } = await listen(['--style', 'general', '--events', 'ticket.created,ticket.replied'])
    const [, id, secret] =
      /general webhook (wh_\w+) signing secret is (whsec_[0-9a-f]{32}) \(\^C to quit\)$/.exec(ready)!
    receiver.setSecret(secret!)
    receiver.setStatus(500)
    const ticket = await mockRequest(
      mock.url,
      'POST',
      '/api/v1/support/tickets',
      { subject: 'Listen', message: 'Hello', department: 'technical' },
      LOOP_KEY,
    )
    expect(ticket.status).toBe(201)
    const [, delivery, , retryAt] = await waitForLine(
      run,
      attemptPattern('500', 'ticket.created', ' next retry at (\\S+) \\(mock time\\)'),
    )
    const history = await mockRequest(
      mock.url,
      'GET',
      `/api/v1/webhooks/${id}/deliveries`,
      undefined,
      LOOP_KEY,
    )
    const record = history.body.data.find((d: { delivery_id: string }) => d.delivery_id === delivery)
    expect(record.next_attempt_at).toBe(retryAt)
    expect(Date.parse(retryAt!) - Date.parse(record.attempted_at)).toBe(60_000)

    receiver.setStatus(undefined)
    await mockRequest(mock.url, 'POST', '/__mock/clock/advance', { seconds: 60 })
    const [, retried] = await waitForLine(run, attemptPattern('200', 'ticket.created'))
    expect(retried).toBe(delivery)
    run.child.kill('SIGTERM')
    expect((await run.exited).code).toBe(0)
    receiver.setSecret(SECRET)
  })

  it('both styles to one URL: Ready names both secrets, and deliveries signed with either verify', async () => {
    const { run, ready } = await listen(['--style', 'both', '--secret', SECRET])
    const [, general] =
      /reseller webhook signing secret is \S+ and general webhook wh_\w+ signing secret is (whsec_[0-9a-f]{32}) /.exec(
        ready,
      )!
    receiver.setSecret([SECRET, general!])
    await emit('wallet.credited')
    await emit('payment.completed')
    await waitForLine(run, attemptPattern('200', 'wallet.credited'))
    await waitForLine(run, attemptPattern('200', 'payment.completed'))
    run.child.kill('SIGINT')
    expect((await run.exited).code).toBe(0)
    receiver.setSecret(SECRET)
  })

  it('--print-secret sets the webhooks and prints only their secrets; a session to the same URL reuses the general one', async () => {
    const printed = await cli([
      'listen',
      '--print-secret',
      '--style',
      'both',
      '--secret',
      SECRET,
      '--forward-to',
      receiver.url,
      '--mock',
      mock.url,
      '--key',
      LOOP_KEY,
    ])
    expect(printed.code).toBe(0)
    const lines = printed.stdout.trim().split('\n')
    expect(lines).toEqual([SECRET, expect.stringMatching(/^whsec_[0-9a-f]{32}$/)])
    const { run, ready } = await listen(['--style', 'general'])
    expect(ready).toContain(`(reused) signing secret is ${lines[1]} `)
    run.child.kill('SIGINT')
    expect((await run.exited).code).toBe(0)
  })

  it('exits 1 in one line when the mock refuses a general webhook to a local URL, leaving the reseller webhook as it was', async () => {
    const strict = await startCli(['--port', '0', '--quiet', '--seed', seed])
    stops.push(() => strict.child.kill('SIGTERM'))
    const refused = await cli([
      'listen',
      '--style',
      'both',
      '--forward-to',
      receiver.url,
      '--mock',
      strict.url,
      '--key',
      LOOP_KEY,
    ])
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe('')
    expect(refused.stderr.trim().split('\n')).toHaveLength(1)
    expect(refused.stderr).toMatch(
      /^reseller-mock listen: the mock refused a general webhook to .*--insecure-webhooks/,
    )
    const config = await mockRequest(strict.url, 'GET', '/api/v1/reseller/webhook', undefined, LOOP_KEY)
    expect(config.body.data.url).toBeNull()
    // The reseller webhook alone is allowed anywhere: listen works there, and the log stays quiet.
    const { run } = await listen(['--secret', SECRET], strict.url)
    await mockRequest(strict.url, 'POST', '/__mock/events', { reseller_id: 1, event: 'email.activated' })
    await waitForLine(run, attemptPattern('200', 'email.activated'))
    expect(strict.stdout.join('\n')).not.toMatch(/^webhook /m)
  })

  it('exits 1 when the mock stops under it', async () => {
    const doomed = await startCli(['--port', '0', '--quiet', '--seed', seed])
    const { run } = await listen([], doomed.url)
    doomed.child.kill('SIGTERM')
    const { code } = await run.exited
    expect(code).toBe(1)
    expect(run.stderr()).toMatch(/^reseller-mock listen: the mock at \S+ ended the delivery stream/)
  })

  it('refuses usage errors with exit 2 in one line; an unreachable mock is 2 too', async () => {
    const closed = await startReceiver()
    const closedBase = closed.url.replace('/hook', '')
    await closed.close()
    const base = ['--forward-to', receiver.url, '--mock', mock.url, '--key', LOOP_KEY]
    const runs = await pool(
      [
        ['listen', '--mock', mock.url, '--key', LOOP_KEY],
        ['listen', ...base, '--events', 'ticket.created'],
        ['listen', ...base, '--style', 'general', '--events', 'ticket.created,vps.activated'],
        ['listen', ...base, '--style', 'everything'],
        ['listen', ...base, '--style', 'general', '--secret', 'x'],
        ['listen', ...base, '--nope'],
        ['listen', ...base, 'extra'],
        ['listen', '--forward-to', receiver.url, '--mock', closedBase, '--key', LOOP_KEY],
      ].map((args) => () => cli(args).then((r) => ({ args, ...r }))),
    )
    for (const { args, code, stdout, stderr } of runs) {
      expect(code, args.join(' ')).toBe(2)
      expect(stdout).toBe('')
      expect(stderr.trim().split('\n'), stderr).toHaveLength(1)
      expect(stderr).toMatch(/^reseller-mock listen: /)
    }
    expect(runs.at(-1)!.stderr).toMatch(/cannot reach the mock at .*ECONNREFUSED/)
    const help = await cli(['listen', '--help'])
    expect(help.code).toBe(0)
    for (const flag of [
      '--forward-to',
      '--mock',
      '--key',
      '--style',
      '--events',
      '--secret',
      '--print-secret',
    ])
      expect(help.stdout).toContain(flag)
  })
})

describe('resend', { timeout: 60_000 }, () => {
  it('delivers a failed delivery again with its id; the listener sees it; exit 0, or 1 while the receiver fails', async () => {
    const { run } = await listen(['--secret', SECRET])
    receiver.setStatus(503)
    await emit('vps.provisioning')
    const [, original] = await waitForLine(
      run,
      attemptPattern('503', 'vps.provisioning', ' next retry at \\S+ \\(mock time\\)'),
    )

    const failing = await cli(['resend', original!, '--mock', mock.url])
    expect(failing.code).toBe(1)
    expect(failing.stdout).toMatch(/<-- \[503\] POST /)
    expect(failing.stdout).toMatch(/next retry at \S+ \(mock time\)$/m)

    receiver.setStatus(undefined)
    const before = receiver.seen.length
    const ok = await cli(['resend', original!, '--mock', mock.url])
    expect(ok.code, ok.stderr).toBe(0)
    const lines = ok.stdout.trim().split('\n')
    const sent = new RegExp(
      `^${TIME}\\s+--> vps\\.provisioning \\[(${DELIVERY_ID})\\] \\(redelivery of ${original}\\)$`,
    ).exec(lines[0]!)
    expect(sent, lines[0]).not.toBeNull()
    expect(lines[1]).toMatch(
      new RegExp(`^${TIME}\\s+<-- \\[200\\] POST ${literal(receiver.url)} \\(\\d+ ms\\)$`),
    )
    // The receiver sees the original's id: it can deduplicate a redelivery.
    expect(receiver.seen[before]).toMatchObject({
      valid: true,
      delivery: original,
      event: 'vps.provisioning',
    })
    // The listener sees the redelivery's attempt, as every attempt to its URL.
    await waitForLine(run, attemptPattern('200', 'vps.provisioning', ` redelivery of ${original}`))
    // The mock's request log shows each attempt.
    await waitForLine(
      mock,
      new RegExp(
        `^webhook vps\\.provisioning ${sent![1]} attempt 1: POST ${literal(receiver.url)} 200 \\d+ms$`,
      ),
    )
    expect(mock.stdout.join('\n')).toMatch(
      new RegExp(
        `^webhook vps\\.provisioning ${original} attempt 1: POST ${literal(receiver.url)} 503 \\d+ms, retry due \\S+$`,
        'm',
      ),
    )
  })

  it('exits 2 in one line for an unknown delivery id, no id, or an unreachable mock', async () => {
    const closed = await startReceiver()
    const closedBase = closed.url.replace('/hook', '')
    await closed.close()
    const runs = await pool([
      () => cli(['resend', 'dlv_nothing', '--mock', mock.url]),
      () => cli(['resend', '--mock', mock.url]),
      () => cli(['resend', 'dlv_nothing']),
      () => cli(['resend', 'dlv_nothing', '--mock', closedBase]),
    ])
    for (const { code, stdout, stderr } of runs) {
      expect(code, stderr).toBe(2)
      expect(stdout).toBe('')
      expect(stderr.trim().split('\n')).toHaveLength(1)
      expect(stderr).toMatch(/^reseller-mock resend: /)
    }
    expect(runs[0]!.stderr).toMatch(/has no delivery dlv_nothing/)
    expect(runs[3]!.stderr).toMatch(/cannot reach the mock/)
  })
})

describe('the server started through `pnpm start -- …`', () => {
  it('takes its flags after a leading `--`', async () => {
    const run = await startCli(['--', '--port', '0', '--quiet', '--seed', seed])
    stops.push(() => run.child.kill('SIGTERM'))
    expect(run.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })
})
