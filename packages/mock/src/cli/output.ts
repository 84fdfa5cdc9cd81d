/**
 * What the developer-loop commands (`trigger`, `listen`, `resend`) print: lines prefixed with the
 * local time, as the Stripe CLI's, in the same arrows (`-->` an event sent, `<--` the receiver's
 * answer). Colour only on a terminal: a CI log or a pipe gets plain text (and `NO_COLOR` is honoured).
 */
import { styleText } from 'node:util'

type Colour = 'green' | 'red' | 'yellow' | 'dim' | 'bold'

/** `text` in `colour` when stdout is a terminal that wants colour, else as it is. */
export function paint(colour: Colour, text: string): string {
  const wanted = process.stdout.isTTY === true && !process.env.NO_COLOR
  return wanted ? styleText(colour, text, { validateStream: false }) : text
}

const two = (n: number) => String(n).padStart(2, '0')

/** `2026-01-15 12:00:01`, local time. */
export function localTime(date = new Date()): string {
  const day = `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`
  return `${day} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`
}

/** Writes `text` to stdout as one line prefixed with the local time. */
export function printTimed(text: string): void {
  process.stdout.write(`${paint('dim', localTime())}   ${text}\n`)
}

/** `[200]` (green for a 2xx, red otherwise), or `[ERROR]` when no HTTP answer came. */
export function statusTag(status: number | null): string {
  if (status === null) return paint('red', '[ERROR]')
  return paint(status >= 200 && status < 300 ? 'green' : 'red', `[${status}]`)
}

/** `--> EVENT [dlv_…]`: an event sent. */
export function sentLine(event: string, deliveryId: string, note = ''): string {
  return `--> ${paint('bold', event)} [${deliveryId}]${note}`
}

/** What one delivery attempt came to, as the commands print it. */
export interface AttemptOutcome {
  /** The receiver's status; `null` when no HTTP answer came. */
  status: number | null
  /** Real milliseconds, when known. */
  durationMs?: number
  /** Why it failed. */
  error?: string | null
}

/** ` (12 ms)`, or nothing when the duration is unknown. */
function took(outcome: AttemptOutcome): string {
  return outcome.durationMs === undefined ? '' : ` (${outcome.durationMs} ms)`
}

/** `<-- [200] POST URL (12 ms)`, or `<-- [ERROR] POST URL (5003 ms) no answer within 5 s`. */
export function answerLine(url: string | null, outcome: AttemptOutcome): string {
  const reason = outcome.status === null && outcome.error ? ` ${outcome.error}` : ''
  return `<-- ${statusTag(outcome.status)} POST ${url ?? '(webhook gone)'}${took(outcome)}${reason}`
}

/** Whether an attempt succeeded: a 2xx answer. */
export function isSuccess(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300
}
