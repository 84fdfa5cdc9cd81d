/**
 * The `--forward-to` side of `reseller-mock trigger`, no mock needed: an event built as the service
 * would send it (the SDK's sample data, or `--data` checked against the event's schema), signed
 * and sent as the mock's dispatcher sends it (`webhooks/attempt.ts`, the same headers), with the
 * two lines the command prints per delivery. `trigger EVENT` sends one, `trigger --all` every one
 * (`trigger-all.ts`).
 */
import { randomBytes } from 'node:crypto'
import { describeFieldErrors, fieldErrors, GeneralEvent, ResellerEvent } from '@reseller-api/sdk/schemas'
import { sampleEventData, signPayload } from '@reseller-api/sdk/webhooks'
import { toTimestampMicros, withUtcOffset } from '../state/clock.js'
import { attemptDelivery, DELIVERY_TIMEOUT_MS } from '../webhooks/attempt.js'
import { EVENT_NAME_SHAPE, type Style, styleFor, stylesOf } from './event-names.js'
import { answerLine, printTimed, sentLine } from './output.js'

/** The event as the service would send it, or why it cannot be built from these flags. */
export function buildEvent(
  event: string,
  flags: { style?: Style; data?: string; sandbox?: boolean; unknown?: boolean },
): { payload: Record<string, unknown> & { event: string } } | { problem: string } {
  let style: Style
  if (flags.unknown) {
    if (!EVENT_NAME_SHAPE.test(event))
      return {
        problem: `--unknown needs an event name of the form a.b or a.b_c (lower case), got "${event}"`,
      }
    if (stylesOf(event).length > 0)
      return { problem: `${event} is an event this version knows: leave out --unknown` }
    if (flags.style === undefined) return { problem: '--unknown needs --style reseller or --style general' }
    style = flags.style
  } else {
    const known = styleFor(event, flags.style)
    if ('problem' in known) return known
    style = known.style
  }
  if (flags.sandbox && style === 'general')
    return {
      problem: '--sandbox applies to reseller-style events (general-style events have no sandbox field)',
    }
  let data: unknown = flags.unknown ? {} : sampleEventData(style, event)
  if (flags.data !== undefined) {
    try {
      data = JSON.parse(flags.data)
    } catch (error) {
      return { problem: `--data is not JSON: ${(error as Error).message}` }
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      return { problem: '--data must be a JSON object' }
  }
  const now = toTimestampMicros(new Date())
  const payload =
    style === 'reseller'
      ? { event, sandbox: flags.sandbox === true, timestamp: now, data }
      : { event, created_at: withUtcOffset(now), data }
  if (!flags.unknown) {
    // Only what the service could send: a known event's data checked against its SDK schema.
    const check = (style === 'reseller' ? ResellerEvent : GeneralEvent).safeParse(payload, {
      reportInput: true,
    })
    if (!check.success)
      return {
        problem: `--data does not fit ${event}: ${describeFieldErrors(fieldErrors(check.error.issues))}`,
      }
  }
  return { payload }
}

/** Signs and sends one delivery to `url`, printing it and the answer; 0 on a 2xx, else 1. */
export async function forward(url: string, secret: string, payload: { event: string }): Promise<number> {
  const body = JSON.stringify(payload)
  const deliveryId = `dlv_${randomBytes(16).toString('hex')}`
  printTimed(sentLine(payload.event, deliveryId))
  const result = await attemptDelivery(
    { url, body, signature: await signPayload(body, secret), deliveryId, event: payload.event },
    // No MSW in this process: no bypass mark, exactly the headers the standalone server sends.
    { fetch: globalThis.fetch, timeoutMs: DELIVERY_TIMEOUT_MS },
  )
  printTimed(
    answerLine(url, { status: result.httpStatus, durationMs: result.durationMs, error: result.error }),
  )
  return result.ok ? 0 : 1
}
