/**
 * `reseller-mock trigger`: one event, now (docs/developer-loop.md). Two ways:
 *
 *   reseller-mock trigger EVENT --forward-to URL --secret SECRET [--data JSON] [--style reseller|general] [--sandbox] [--unknown]
 *   reseller-mock trigger --all --forward-to URL --secret SECRET
 *   reseller-mock trigger EVENT --mock URL --key KEY [--style reseller|general] [--json]
 *
 * With `--forward-to`, no mock: one delivery signed and sent as the mock's dispatcher sends it
 * (`forward.ts`), with the SDK's sample data; `--all` sends every event (`trigger-all.ts`). With `--mock`, the running
 * mock emits it through the operation that causes it (`trigger-mock.ts`).
 *
 * Exit codes: 0 the receiver answered 2xx (every first attempt did); 1 it did not, or the operation
 * failed; 2 a usage error or an unreachable mock.
 */
import { httpUrlProblem, readCommandLine } from './command-line.js'
import { commandFailure } from './errors.js'
import { knownNames, parseStyle, type Style, styleFor } from './event-names.js'
import { buildEvent, forward } from './forward.js'
import { forwardAll, UNKNOWN_EVENTS } from './trigger-all.js'

const USAGE = `Usage: reseller-mock trigger EVENT --forward-to URL --secret SECRET [options]
       reseller-mock trigger --all --forward-to URL --secret SECRET
       reseller-mock trigger EVENT --mock URL --key KEY [--style reseller|general] [--json]

Sends one webhook event now.

With --forward-to, no mock is needed: one delivery of EVENT, signed with SECRET exactly as the
service signs it (X-Service-Signature, X-Service-Delivery, X-Service-Event), with sample data.
Prints the event sent and the receiver's answer; exit 0 on a 2xx within 5 s.

  --forward-to URL   the receiver (http:// or https://)
  --secret SECRET    the webhook secret the receiver verifies with
  --data JSON        the event's data (default: sample data of EVENT); checked against its schema
  --style STYLE      reseller or general: the style of domain.registered (default reseller)
  --sandbox          sandbox: true on a reseller-style event
  --unknown          EVENT is a name this version does not know (a.b_c form; --style required,
                     --data defaults to {}): try what your receiver does with a future event type

With --all instead of EVENT: every event of both styles (domain.registered in each, and the
general test event), then one event of each style that this version does not know
(${UNKNOWN_EVENTS.reseller}, ${UNKNOWN_EVENTS.general}), one after the other, each printed as above, then
"N delivered, M failed"; exit 0 when every one got a 2xx within 5 s, 1 otherwise. Only
--forward-to and --secret apply.

With --mock, the running mock emits EVENT for the key's reseller through the operation that
causes it (hosting.created: provisioning; domain.registered and wallet.debited: provisioning with
register_domain; ticket.created: a new ticket; ticket.replied: a staff reply to a new ticket;
test: each general webhook's test), else through POST /__mock/events; it delivers it to the
webhooks configured. Prints each request and the first attempt of each delivery of EVENT (waits
up to 10 s); exit 0 when the operation succeeded and every first attempt got a 2xx.

  --mock URL         the mock's URL, as it printed it (http://127.0.0.1:4010)
  --key KEY          an API key of the mock: its reseller gets the event
  --style STYLE      as above
  --json             print one JSON object: { event, requests, deliveries }

Events: ${knownNames()}

Exit codes: 0 delivered (2xx; with --all, every one); 1 not delivered, or the operation failed;
2 usage error or the mock cannot be reached.
`

const OPTIONS = {
  'forward-to': { type: 'string' },
  secret: { type: 'string' },
  data: { type: 'string' },
  style: { type: 'string' },
  sandbox: { type: 'boolean' },
  unknown: { type: 'boolean' },
  all: { type: 'boolean' },
  mock: { type: 'string' },
  key: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** A line on stderr (with the pointer to --help) and exit code 2. */
const usage = (message: string): number => commandFailure('trigger', message, true)

/** Runs the command; resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  const parsed = readCommandLine('trigger', USAGE, argv, OPTIONS, true)
  if (typeof parsed === 'number') return parsed
  const { values, positionals } = parsed
  if (values.all) return runAll(values, positionals)
  if (positionals.length === 0) return usage(`needs an event name (or --all); known events: ${knownNames()}`)
  if (positionals.length > 1)
    return usage(`takes one event name, got ${positionals.length}: ${positionals.join(' ')}`)
  const event = positionals[0]!
  const target = values['forward-to']
  if ((target === undefined) === (values.mock === undefined)) {
    return usage(
      'needs either --forward-to URL (a receiver, no mock) or --mock URL --key KEY (a running mock)',
    )
  }
  let style: Style | undefined
  if (values.style !== undefined) {
    const parsedStyle = parseStyle(values.style, false)
    if ('problem' in parsedStyle) return usage(parsedStyle.problem)
    style = parsedStyle.style
  }
  if (values.mock !== undefined) {
    for (const flag of ['secret', 'data', 'sandbox', 'unknown'] as const) {
      if (values[flag] !== undefined)
        return usage(`--${flag} applies to --forward-to; with --mock the mock makes the event`)
    }
    const problem = httpUrlProblem('--mock', values.mock)
    if (problem) return usage(problem)
    if (values.key === undefined || values.key === '') return usage('--mock needs --key KEY')
    const known = styleFor(event, style)
    if ('problem' in known) return usage(known.problem)
    // Loaded only here: the forward mode needs none of the client side.
    const { triggerOnMock } = await import('./trigger-mock.js')
    return triggerOnMock({
      event,
      style: known.style,
      mock: values.mock,
      key: values.key,
      json: values.json === true,
    })
  }
  for (const flag of ['key', 'json'] as const) {
    if (values[flag] !== undefined) return usage(`--${flag} applies to --mock`)
  }
  const problem = httpUrlProblem('--forward-to', target!)
  if (problem) return usage(problem)
  if (values.secret === undefined || values.secret === '') return usage('--forward-to needs --secret SECRET')
  const built = buildEvent(event, { ...values, style })
  if ('problem' in built) return usage(built.problem)
  return forward(target!, values.secret, built.payload)
}

/** `trigger --all`: only `--forward-to` and `--secret` apply; every event is sent with its sample data. */
function runAll(
  values: Partial<Record<keyof typeof OPTIONS, string | boolean>>,
  positionals: string[],
): number | Promise<number> {
  if (positionals.length > 0)
    return usage(`--all sends every event: leave out the event name (got ${positionals.join(' ')})`)
  if (values.mock !== undefined) return usage('--all applies to --forward-to (a receiver), not to --mock')
  for (const flag of ['data', 'style', 'sandbox', 'unknown', 'key', 'json'] as const) {
    if (values[flag] !== undefined)
      return usage(`--${flag} does not apply to --all, which sends every event with its sample data`)
  }
  const target = values['forward-to']
  if (typeof target !== 'string') return usage('--all needs --forward-to URL --secret SECRET')
  const problem = httpUrlProblem('--forward-to', target)
  if (problem) return usage(problem)
  const secret = values.secret
  if (typeof secret !== 'string' || secret === '') return usage('--forward-to needs --secret SECRET')
  return forwardAll(target, secret)
}
