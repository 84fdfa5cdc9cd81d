// `reseller-mock trigger --all --forward-to`: the built CLI sends every event of both styles and one
// unknown event of each to real receivers: one built on the SDK's createNodeHandler (verifying,
// typed events, unknown events to onUnknownEvent), one that refuses the secret, one that fails once.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { GENERAL_EVENTS, RESELLER_EVENTS } from '@reseller-api/sdk/schemas'
import { createNodeHandler, type UnknownWebhookEvent, type WebhookEvent } from '@reseller-api/sdk/webhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt } from '../helpers/cli.js'
import { cli, DELIVERY_ID, LOOP_SECRET, literal, pool, TIME } from '../helpers/devloop.js'
import { startReceiver, startVerifyingReceiver } from '../helpers/webhooks.js'

const SECRET = LOOP_SECRET
const stops: Array<() => unknown> = []
afterAll(async () => {
  for (const stop of stops.reverse()) await stop()
})

/** A receiver made with the SDK's node adapter: what a TypeScript receiver of the service runs. */
async function startSdkReceiver() {
  const events: WebhookEvent[] = []
  const unknown: UnknownWebhookEvent[] = []
  const handler = createNodeHandler({
    secret: SECRET,
    dedupe: true,
    onEvent: (event) => void events.push(event),
    onUnknownEvent: (event) => void unknown.push(event),
  })
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  stops.push(() => new Promise((resolve) => server.close(resolve)))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, events, unknown }
}

/** Every delivery `--all` makes, in order: the reseller-style events, the general-style ones, two unknown. */
const SENT = [...RESELLER_EVENTS, ...GENERAL_EVENTS, 'test', 'vps.migrated', 'service.migrated']

/** Checks the two lines of each delivery and the count; returns the statuses in order. */
function readRun(stdout: string, url: string): string[] {
  const lines = stdout.trim().split('\n')
  expect(lines).toHaveLength(SENT.length * 2 + 1)
  const statuses = SENT.map((event, i) => {
    expect(lines[2 * i]).toMatch(new RegExp(`^${TIME}\\s+--> ${literal(event)} \\[${DELIVERY_ID}\\]$`))
    const answer = new RegExp(`^${TIME}\\s+<-- \\[(\\d{3}|ERROR)\\] POST ${literal(url)} \\(\\d+ ms\\)`).exec(
      lines[2 * i + 1]!,
    )
    expect(answer, lines[2 * i + 1]).not.toBeNull()
    return answer![1]!
  })
  const ok = statuses.filter((s) => s.startsWith('2')).length
  expect(lines.at(-1)).toBe(`${ok} delivered, ${SENT.length - ok} failed`)
  return statuses
}

beforeAll(() => {
  assertBuilt()
})

describe('trigger --all --forward-to (no mock)', { timeout: 120_000 }, () => {
  it('sends every event in its style and one unknown event of each style; exit 0 when all got a 2xx', async () => {
    const receiver = await startSdkReceiver()
    const run = await cli(['trigger', '--all', '--forward-to', receiver.url, '--secret', SECRET])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toBe('')
    expect(readRun(run.stdout, receiver.url)).toEqual(SENT.map(() => '200'))
    expect(run.stdout.trim().split('\n').at(-1)).toBe('20 delivered, 0 failed')
    // Every known event reached onEvent, verified and typed, in its style.
    const style = (e: WebhookEvent) => ('sandbox' in e ? 'reseller' : 'general')
    expect(receiver.events.map((e) => `${style(e)} ${e.event}`)).toEqual([
      ...RESELLER_EVENTS.map((e) => `reseller ${e}`),
      ...[...GENERAL_EVENTS, 'test'].map((e) => `general ${e}`),
    ])
    // The unknown ones reached onUnknownEvent, each in its style's envelope.
    expect(receiver.unknown).toEqual([
      { event: 'vps.migrated', sandbox: false, timestamp: expect.stringMatching(/Z$/), data: {} },
      { event: 'service.migrated', created_at: expect.stringMatching(/\+00:00$/), data: {} },
    ])
  })

  it('exits 1 when a receiver refuses or fails a delivery, and still sends every one', async () => {
    const wrongSecret = await startVerifyingReceiver('another-secret')
    const failsThird = await startReceiver((n) => (n === 3 ? 500 : 200))
    stops.push(wrongSecret.close, failsThird.close)
    const [refused, failed] = await pool([
      () => cli(['trigger', '--all', '--forward-to', wrongSecret.url, '--secret', SECRET]),
      () => cli(['trigger', '--all', '--forward-to', failsThird.url, '--secret', SECRET]),
    ])
    expect(refused.code).toBe(1)
    expect(readRun(refused.stdout, wrongSecret.url)).toEqual(SENT.map(() => '401'))
    expect(refused.stdout.trim().split('\n').at(-1)).toBe('0 delivered, 20 failed')
    expect(wrongSecret.seen).toHaveLength(SENT.length)
    expect(failed.code).toBe(1)
    const statuses = readRun(failed.stdout, failsThird.url)
    expect(statuses[2]).toBe('500')
    expect(failed.stdout.trim().split('\n').at(-1)).toBe('19 delivered, 1 failed')
    expect(failsThird.received).toHaveLength(SENT.length)
    for (const run of [refused, failed]) expect(run.stderr).toBe('')
  })

  it('refuses usage errors in one line with exit 2', async () => {
    const url = 'http://127.0.0.1:9/hooks'
    const runs = await pool(
      [
        [
          ['trigger', '--all', 'hosting.created', '--forward-to', url, '--secret', SECRET],
          /leave out the event name/,
        ],
        [['trigger', '--all', '--mock', 'http://127.0.0.1:1', '--key', 'k'], /--all applies to --forward-to/],
        [
          ['trigger', '--all', '--forward-to', url, '--secret', SECRET, '--style', 'general'],
          /--style does not apply to --all/,
        ],
        [['trigger', '--all', '--forward-to', url], /needs --secret/],
        [['trigger', '--all', '--secret', SECRET], /--all needs --forward-to/],
        [['trigger', '--all', '--forward-to', 'ftp://x', '--secret', SECRET], /--forward-to must be an http/],
      ].map(
        ([args, message]) =>
          () =>
            cli(args as string[]).then((r) => ({ message: message as RegExp, ...r })),
      ),
    )
    for (const { message, code, stdout, stderr } of runs) {
      expect(code, stderr).toBe(2)
      expect(stdout).toBe('')
      expect(stderr.trim().split('\n')).toHaveLength(1)
      expect(stderr).toMatch(message)
    }
  })
})
