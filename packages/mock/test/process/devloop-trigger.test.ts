// `reseller-mock trigger --forward-to`: the built CLI against real receivers that verify signatures
// with their own HMAC code, no mock running (the --mock side: devloop-trigger-mock.test.ts).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RESELLER_EVENTS } from '@reseller-api/sdk/schemas'
import { sampleEventData } from '@reseller-api/sdk/webhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt } from '../helpers/cli.js'
import {
  cli,
  DELIVERY_ID,
  EVENT_NAMES,
  LOOP_KEY,
  LOOP_SECRET,
  literal,
  pool,
  TIME,
} from '../helpers/devloop.js'
import { startReceiver, startVerifyingReceiver } from '../helpers/webhooks.js'

const SECRET = LOOP_SECRET
let dir: string
let receiver: Awaited<ReturnType<typeof startVerifyingReceiver>>
const stops: Array<() => unknown> = []

beforeAll(async () => {
  assertBuilt()
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-trigger-'))
  receiver = await startVerifyingReceiver(SECRET)
  stops.push(() => receiver.close())
})
afterAll(async () => {
  for (const stop of stops.reverse()) await stop()
  await rm(dir, { recursive: true, force: true })
})

const NAMES = EVENT_NAMES

/** `reseller-mock trigger ARGS --forward-to <the receiver> --secret <the loop's secret>`. */
const forward = (...args: string[]) =>
  cli(['trigger', ...args, '--forward-to', receiver.url, '--secret', SECRET])

/** The two lines of a forwarded delivery; the delivery id. */
function forwardedLines(stdout: string, event: string, url: string, status: string): string {
  const lines = stdout.trim().split('\n')
  expect(lines).toHaveLength(2)
  const sent = new RegExp(`^${TIME}\\s+--> ${literal(event)} \\[(${DELIVERY_ID})\\]$`).exec(lines[0]!)
  expect(sent, lines[0]).not.toBeNull()
  expect(lines[1]).toMatch(new RegExp(`^${TIME}\\s+<-- \\[${status}\\] POST ${literal(url)} \\(\\d+ ms\\)`))
  return sent![1]!
}

describe('trigger --forward-to (no mock)', { timeout: 120_000 }, () => {
  it('sends every event name of both styles, signed as the service signs it, with the sample data', async () => {
    const runs = await pool(
      [...NAMES.map((name) => [name]), ['domain.registered', '--style', 'general']].map(
        (args) => () =>
          forward(...args).then((r) => ({
            args,
            ...r,
          })),
      ),
    )
    for (const { args, code, stdout, stderr } of runs) {
      const [name] = args as [string]
      expect(code, `${args.join(' ')}: ${stderr}`).toBe(0)
      expect(stderr).toBe('')
      expect(stdout).not.toContain('\x1b[')
      const id = forwardedLines(stdout, name, receiver.url, '200')
      const seen = receiver.seen.find((s) => s.delivery === id)
      expect(seen, `${name} reached the receiver`).toBeDefined()
      expect(seen!.valid).toBe(true)
      expect(seen!.event).toBe(name)
      expect(seen!.headers['content-type']).toBe('application/json')
      expect(seen!.headers['user-agent']).toBe('reseller-mock-webhooks/1')
      const body = JSON.parse(seen!.body)
      const style =
        args.includes('general') || !(RESELLER_EVENTS as readonly string[]).includes(name)
          ? 'general'
          : 'reseller'
      expect(body.event).toBe(name)
      expect(body.data).toEqual(sampleEventData(style, name))
      if (style === 'reseller') {
        expect(body).toEqual({
          event: name,
          sandbox: false,
          timestamp: expect.stringMatching(/\.\d{6}Z$/),
          data: body.data,
        })
      } else {
        expect(body).toEqual({
          event: name,
          created_at: expect.stringMatching(/\.\d{6}\+00:00$/),
          data: body.data,
        })
      }
    }
  })

  it('sends what --data, --sandbox and --unknown say, and refuses data the event cannot carry', async () => {
    const data = { client_id: 7, order_uuid: 'o-1', server_id: 9, ipv4: '198.51.100.7', status: 'active' }
    const [withData, sandbox, unknown, badData, unknownNoStyle, knownAsUnknown, badShape, generalSandbox] =
      await pool([
        () => forward('vps.activated', '--data', JSON.stringify(data)),
        () => forward('hosting.created', '--sandbox'),
        () => forward('vps.rebooted', '--unknown', '--style', 'reseller'),
        () => forward('vps.activated', '--data', '{"ipv4":1}'),
        () => forward('vps.rebooted', '--unknown'),
        () => forward('vps.activated', '--unknown', '--style', 'reseller'),
        () => forward('Not-An.Event', '--unknown', '--style', 'general'),
        () => forward('ticket.created', '--sandbox'),
      ])
    const body = (stdout: string) => {
      const id = forwardedLines(stdout, /--> (\S+)/.exec(stdout)![1]!, receiver.url, '200')
      return JSON.parse(receiver.seen.find((s) => s.delivery === id)!.body)
    }
    expect(withData.code).toBe(0)
    expect(body(withData.stdout).data).toEqual(data)
    expect(sandbox.code).toBe(0)
    expect(body(sandbox.stdout).sandbox).toBe(true)
    expect(unknown.code).toBe(0)
    expect(body(unknown.stdout)).toEqual({
      event: 'vps.rebooted',
      sandbox: false,
      timestamp: expect.any(String),
      data: {},
    })
    for (const [run, message] of [
      [badData, /--data does not fit vps\.activated: .*ipv4/],
      [unknownNoStyle, /--unknown needs --style/],
      [knownAsUnknown, /vps\.activated is an event this version knows/],
      [badShape, /--unknown needs an event name of the form/],
      [generalSandbox, /--sandbox applies to reseller-style events/],
    ] as const) {
      expect(run.code).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1)
      expect(run.stderr).toMatch(message)
    }
  })

  it('exits 1 when the receiver refuses the signature, fails, cannot be reached, or takes over 5 s', async () => {
    const failing = await startReceiver(() => 500)
    const hanging = await startReceiver(() => 'hang')
    stops.push(
      () => failing.close(),
      () => hanging.close(),
    )
    const closed = await startReceiver()
    const closedUrl = closed.url
    await closed.close()
    const [wrongSecret, serverError, refused, slow] = await pool([
      () => cli(['trigger', 'hosting.created', '--forward-to', receiver.url, '--secret', 'not-the-secret']),
      () => cli(['trigger', 'payment.failed', '--forward-to', failing.url, '--secret', SECRET]),
      () => cli(['trigger', 'hosting.created', '--forward-to', closedUrl, '--secret', SECRET]),
      () => cli(['trigger', 'hosting.created', '--forward-to', hanging.url, '--secret', SECRET]),
    ])
    expect(wrongSecret.code).toBe(1)
    forwardedLines(wrongSecret.stdout, 'hosting.created', receiver.url, '401')
    expect(serverError.code).toBe(1)
    forwardedLines(serverError.stdout, 'payment.failed', failing.url, '500')
    expect(refused.code).toBe(1)
    expect(refused.stdout).toMatch(
      new RegExp(
        `<-- \\[ERROR\\] POST ${literal(closedUrl)} \\(\\d+ ms\\) connection failed: ECONNREFUSED$`,
        'm',
      ),
    )
    expect(slow.code).toBe(1)
    expect(slow.stdout).toMatch(/<-- \[ERROR\] POST \S+ \(\d+ ms\) no answer within 5 s$/m)
    for (const run of [wrongSecret, serverError, refused, slow]) expect(run.stderr).toBe('')
  })

  it('refuses usage errors in one line with exit 2: an unknown name lists the known ones', async () => {
    const runs = await pool(
      [
        ['trigger', 'vps.exploded', '--forward-to', receiver.url, '--secret', SECRET],
        ['trigger', '--forward-to', receiver.url, '--secret', SECRET],
        ['trigger', 'hosting.created', '--secret', SECRET],
        ['trigger', 'hosting.created', '--forward-to', receiver.url],
        ['trigger', 'hosting.created', '--forward-to', 'ftp://x', '--secret', SECRET],
        ['trigger', 'hosting.created', '--forward-to', receiver.url, '--secret', SECRET, '--bogus'],
        [
          'trigger',
          'hosting.created',
          '--forward-to',
          receiver.url,
          '--mock',
          'http://127.0.0.1:1',
          '--secret',
          SECRET,
        ],
        ['trigger', 'vps.activated', '--style', 'general', '--forward-to', receiver.url, '--secret', SECRET],
        ['trigger', 'hosting.created', '--mock', 'http://127.0.0.1:1', '--key', LOOP_KEY, '--secret', SECRET],
      ].map((args) => () => cli(args).then((r) => ({ args, ...r }))),
    )
    for (const { args, code, stdout, stderr } of runs) {
      expect(code, args.join(' ')).toBe(2)
      expect(stdout).toBe('')
      expect(stderr.trim().split('\n'), stderr).toHaveLength(1)
      expect(stderr).toMatch(/^reseller-mock trigger: /)
      expect(stderr).not.toMatch(/\n\s+at /)
    }
    const unknown = runs[0]!.stderr
    for (const name of NAMES) expect(unknown).toContain(name)
    const help = await cli(['trigger', '--help'])
    expect(help.code).toBe(0)
    for (const flag of [
      '--forward-to',
      '--secret',
      '--data',
      '--style',
      '--sandbox',
      '--unknown',
      '--mock',
      '--key',
      '--json',
    ])
      expect(help.stdout).toContain(flag)
  })
})
