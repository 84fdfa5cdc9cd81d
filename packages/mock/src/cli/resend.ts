/**
 * `reseller-mock resend DELIVERY_ID --mock URL`: `POST /__mock/deliveries/{id}/redeliver` from the
 * command line. The mock delivers the same bytes again as a new delivery whose attempts carry the
 * original's id in `X-Service-Delivery` (docs/webhooks.md, "Replays, retries and deduplication");
 * this prints its first attempt.
 *
 * Exit codes: 0 the receiver answered 2xx; 1 it did not; 2 an unknown delivery id, a usage error
 * or an unreachable mock.
 */
import { ControlError } from '../control/client.js'
import type { DeliveryView } from '../control/schemas.js'
import { httpUrlProblem, readCommandLine } from './command-line.js'
import { commandFailure } from './errors.js'
import { MockSession, MockUnreachableError } from './mock-session.js'
import { answerLine, printTimed, sentLine } from './output.js'

const USAGE = `Usage: reseller-mock resend DELIVERY_ID --mock URL

Delivers a recorded delivery again, now: the same event and bytes to the same webhook, as a new
delivery (its attempts carry DELIVERY_ID's id in X-Service-Delivery, so a receiver that
deduplicates handles the event once). Prints the new delivery's first attempt; a failed one is
retried on the usual schedule. Delivery ids are in GET /__mock/deliveries, in the lines of
"reseller-mock listen" and "reseller-mock trigger", and in the mock's request log.

  --mock URL     the mock's URL, as it printed it (http://127.0.0.1:4010)
  --help         show this help

Exit codes: 0 the receiver answered 2xx; 1 it did not; 2 usage error, unknown delivery id, or the
mock cannot be reached.
`

const OPTIONS = {
  mock: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

const usage = (message: string): number => commandFailure('resend', message, true)

/** Runs the command; resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  const parsed = readCommandLine('resend', USAGE, argv, OPTIONS, true)
  if (typeof parsed === 'number') return parsed
  const { values, positionals } = parsed
  if (positionals.length !== 1) return usage('needs one delivery id (dlv_…)')
  if (values.mock === undefined) return usage('--mock URL is required')
  const problem = httpUrlProblem('--mock', values.mock)
  if (problem) return usage(problem)
  const id = positionals[0]!
  let delivery: DeliveryView
  try {
    delivery = await new MockSession(values.mock).redeliver(id)
  } catch (error) {
    if (error instanceof MockUnreachableError) return commandFailure('resend', error.message)
    if (!(error instanceof ControlError)) throw error
    if (error.code === 'not_found')
      return commandFailure('resend', `the mock at ${values.mock} has no delivery ${id}`)
    return commandFailure(
      'resend',
      `${values.mock} does not answer as a reseller-mock (POST /__mock/deliveries/…/redeliver: ${error.status})`,
    )
  }
  const original = delivery.redelivery_of ? ` (redelivery of ${delivery.redelivery_of})` : ''
  printTimed(sentLine(delivery.event, delivery.delivery_id, original))
  printTimed(
    answerLine(delivery.url, {
      status: delivery.http_status,
      durationMs: delivery.duration_ms,
      error: delivery.error ?? null,
    }),
  )
  if (delivery.status !== 'success' && delivery.next_attempt_at)
    printTimed(`next retry at ${delivery.next_attempt_at} (mock time)`)
  return delivery.status === 'success' ? 0 : 1
}
