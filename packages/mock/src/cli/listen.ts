/**
 * `reseller-mock listen`: points the key's reseller's webhooks at a local receiver on a running
 * mock, then prints one line per delivery attempt to it, as the attempts happen (the mock's
 * delivery stream), until SIGINT or SIGTERM (docs/developer-loop.md).
 *
 *   reseller-mock listen --forward-to URL --mock MOCK_URL --key KEY [--style reseller|general|both]
 *                        [--events LIST] [--secret SECRET] [--print-secret]
 *
 * Exit codes: 0 on SIGINT/SIGTERM (and after --print-secret); 1 when the mock refuses a webhook or
 * the key, or stops; 2 on a usage error or an unreachable mock.
 */
import { randomBytes } from 'node:crypto'
import type { ResellerApi } from '@reseller-api/sdk'
import { GENERAL_EVENTS } from '@reseller-api/sdk/schemas'
import type { AttemptMessage } from '../server/inspector/delivery-stream.js'
import { httpUrlProblem, readCommandLine } from './command-line.js'
import { commandFailure } from './errors.js'
import { parseStyle } from './event-names.js'
import { describeApiFailure, type KeyOwner, MockSession, MockUnreachableError } from './mock-session.js'
import { paint, printTimed, statusTag } from './output.js'

const USAGE = `Usage: reseller-mock listen --forward-to URL --mock MOCK_URL --key KEY [options]

Points the webhooks of the key's reseller at URL on the running mock, prints "Ready!" with their
signing secrets, then one line per delivery attempt to URL as it happens (status, event, delivery
id, duration, and when a failed attempt's retry is due in mock time), until Ctrl+C.

  --forward-to URL     your receiver (http:// or https://)
  --mock MOCK_URL      the mock's URL, as it printed it (http://127.0.0.1:4010)
  --key KEY            an API key of the mock with the reseller:webhooks scope
  --style STYLE        reseller (default): the reseller webhook, signed with --secret;
                       general: a general webhook subscribed to --events, whose secret the mock
                       generates (one already pointing at URL with those events is reused);
                       both: the two, to the one URL (a receiver then verifies with either secret)
  --events LIST        general events, comma-separated (default: all of them)
  --secret SECRET      the reseller webhook's secret (default: a new random one)
  --print-secret       set the webhooks, print only their secrets (one per line, reseller first), exit
  --help               show this help

General webhooks to a local URL need the mock to run with --insecure-webhooks. The webhooks stay
set when listen stops: the mock keeps delivering to URL.

Exit codes: 0 stopped by SIGINT/SIGTERM, or secrets printed; 1 the mock refused a webhook or the
key, or went away; 2 usage error or the mock cannot be reached.
`

const OPTIONS = {
  'forward-to': { type: 'string' },
  mock: { type: 'string' },
  key: { type: 'string' },
  style: { type: 'string' },
  events: { type: 'string' },
  secret: { type: 'string' },
  'print-secret': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** What listen sets up on the mock. */
interface Plan {
  url: string
  reseller: boolean
  /** The general events to subscribe to, when a general webhook is wanted. */
  general: string[] | undefined
  secret: string | undefined
}

const usage = (message: string): number => commandFailure('listen', message, true)

/** The flags as a plan, or the exit code of a usage error. */
function planOf(values: Partial<Record<keyof typeof OPTIONS, string | boolean>>): Plan | number {
  const str = (name: keyof typeof OPTIONS) => values[name] as string | undefined
  for (const flag of ['forward-to', 'mock', 'key'] as const) {
    if (!str(flag)) return usage(`--${flag} is required`)
  }
  for (const flag of ['forward-to', 'mock'] as const) {
    const problem = httpUrlProblem(`--${flag}`, str(flag)!)
    if (problem) return usage(problem)
  }
  const parsed = parseStyle(str('style') ?? 'reseller', true)
  if ('problem' in parsed) return usage(parsed.problem)
  const reseller = parsed.style !== 'general'
  const general = parsed.style !== 'reseller'
  const secret = str('secret')
  if (secret !== undefined && !reseller)
    return usage("--secret sets the reseller webhook's secret: the mock generates a general webhook's")
  if (secret !== undefined && (secret === '' || secret.length > 255))
    return usage('--secret must be 1 to 255 characters')
  let events: string[] | undefined
  if (str('events') !== undefined) {
    if (!general) return usage('--events applies to a general webhook (--style general or both)')
    events = str('events')!
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)
    const unknown = events.filter((e) => !(GENERAL_EVENTS as readonly string[]).includes(e))
    if (events.length === 0 || unknown.length > 0)
      return usage(`--events must list general events (${GENERAL_EVENTS.join(', ')}), got "${str('events')}"`)
  }
  return {
    url: str('forward-to')!,
    reseller,
    general: general ? (events ?? [...GENERAL_EVENTS]) : undefined,
    secret,
  }
}

/** The webhooks set, with their secrets; or the refusal's text. */
interface Configured {
  reseller?: string
  general?: { id: string; secret: string; reused: boolean }
}

const sameEvents = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((event) => b.includes(event))

/**
 * Sets the webhooks of the plan: the general one first (the one a local URL may be refused), so
 * that a refusal leaves the reseller webhook as it was.
 */
async function configure(
  plan: Plan,
  api: ResellerApi,
  owner: KeyOwner,
  base: string,
): Promise<Configured | string> {
  const configured: Configured = {}
  try {
    if (plan.general) {
      const same = owner.webhooks.find((w) => w.url === plan.url && sameEvents(w.events, plan.general!))
      if (same) configured.general = { id: same.id, secret: same.secret, reused: true }
      else {
        const created = await api.webhooks.create({ url: plan.url, events: plan.general as never })
        configured.general = { id: created.id, secret: created.secret, reused: false }
      }
    }
    if (plan.reseller) {
      const secret = plan.secret ?? `whsec_${randomBytes(16).toString('hex')}`
      await api.resellerWebhook.update({ url: plan.url, secret })
      configured.reseller = secret
    }
  } catch (error) {
    const which = plan.general && !configured.general ? 'a general webhook' : 'the reseller webhook'
    return `the mock refused ${which} to ${plan.url}: ${describeApiFailure(error, base)}`
  }
  return configured
}

/** `Ready! …` naming each webhook's signing secret. */
function readyLine(url: string, configured: Configured): string {
  const parts: string[] = []
  if (configured.reseller !== undefined)
    parts.push(`reseller webhook signing secret is ${configured.reseller}`)
  if (configured.general) {
    const { id, secret, reused } = configured.general
    parts.push(`general webhook ${id}${reused ? ' (reused)' : ''} signing secret is ${secret}`)
  }
  const secrets = parts.join(' and ')
  return `${paint('green', 'Ready!')} The mock delivers to ${url}: ${secrets} (^C to quit)`
}

/** One line per attempt: `<-- [500] ticket.created [dlv_…] (3 ms) …, next retry at … (mock time)`. */
export function attemptLine(message: AttemptMessage): string {
  const head = `<-- ${statusTag(message.http_status)} ${paint('bold', message.event)} [${message.delivery_id}] (${message.duration_ms} ms)`
  const notes: string[] = []
  if (message.http_status === null && message.error) notes.push(message.error)
  if (message.redelivery_of) notes.push(`redelivery of ${message.redelivery_of}`)
  if (message.status === 'failed')
    notes.push(
      message.next_attempt_at ? `next retry at ${message.next_attempt_at} (mock time)` : 'no retry left',
    )
  return notes.length === 0 ? head : `${head} ${notes.join(', ')}`
}

/** Runs the command; resolves to the exit code (after a signal, when it listens). */
export async function run(argv: string[]): Promise<number> {
  const parsed = readCommandLine('listen', USAGE, argv, OPTIONS)
  if (typeof parsed === 'number') return parsed
  const plan = planOf(parsed.values)
  if (typeof plan === 'number') return plan
  const base = parsed.values.mock!
  const key = parsed.values.key!
  const session = new MockSession(base)
  let api: ResellerApi
  try {
    api = session.api(key)
  } catch (error) {
    return usage(`--key: ${(error as Error).message}`)
  }
  const fail = (message: string, code = 1) => {
    process.stderr.write(`reseller-mock listen: ${message}\n`)
    return code
  }
  const printSecret = parsed.values['print-secret'] === true
  // Attempts seen before the Ready line are printed after it.
  let ready = false
  const early: AttemptMessage[] = []
  try {
    const owner = await session.keyOwner(key)
    if (!owner) return fail(`the mock at ${base} has no API key ${key} (it prints its keys when it starts)`)
    const follower = printSecret
      ? undefined
      : await session.follow({
          url: plan.url,
          onAttempt: (message) => (ready ? printTimed(attemptLine(message)) : early.push(message)),
        })
    const configured = await configure(plan, api, owner, base)
    if (typeof configured === 'string') {
      follower?.close()
      return fail(configured)
    }
    if (printSecret) {
      for (const secret of [configured.reseller, configured.general?.secret]) {
        if (secret !== undefined) process.stdout.write(`${secret}\n`)
      }
      return 0
    }
    // The handlers go in before the Ready line is written: a signal sent as soon as a script reads
    // that line must find them (the kernel delivers it at once, not at the next turn of the loop).
    const stopped = new Promise<number>((resolve) => {
      let stopping = false
      const stop = () => {
        stopping = true
        follower!.close()
        resolve(0)
      }
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
      // A signal first: the stream's end that follows (the mock stopping too) is no failure.
      const lost = (message: string) => {
        if (!stopping) resolve(fail(message))
      }
      follower!.ended.then(
        () => lost(`the mock at ${base} ended the delivery stream (it stopped)`),
        (error: Error) => lost(`lost the delivery stream of the mock at ${base}: ${error.message}`),
      )
    })
    // The Ready line starts the line (scripts wait for `^Ready!`); only attempt lines carry the time.
    process.stdout.write(`${readyLine(plan.url, configured)}\n`)
    ready = true
    for (const message of early.splice(0)) printTimed(attemptLine(message))
    return await stopped
  } catch (error) {
    if (error instanceof MockUnreachableError) return fail(error.message, 2)
    throw error
  }
}
