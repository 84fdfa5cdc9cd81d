/**
 * `reseller-mock trigger --all --forward-to URL --secret SECRET`: one delivery of every event the
 * service sends, in its style (`domain.registered` in both, and the general test event), and one
 * event of each style that this version does not know (how a receiver meets the event types a
 * service adds later), each printed with trigger's two lines, then `N delivered, M failed`
 * (docs/developer-loop.md, "Every event at once").
 */

import { NAMES_OF, type Style } from './event-names.js'
import { buildEvent, forward } from './forward.js'

/** The names `--all` sends as unknown events, one per style: none is a name this version knows. */
export const UNKNOWN_EVENTS: Record<Style, string> = {
  reseller: 'vps.migrated',
  general: 'service.migrated',
}

/** One delivery of `--all`: an event name, its style, and whether this version knows it. */
export interface AllEntry {
  event: string
  style: Style
  unknown: boolean
}

/** What `--all` sends, in order: the reseller-style events, the general-style ones, the unknown ones. */
export function allEntries(): AllEntry[] {
  return [
    ...NAMES_OF.reseller.map((event) => ({ event, style: 'reseller' as const, unknown: false })),
    ...NAMES_OF.general.map((event) => ({ event, style: 'general' as const, unknown: false })),
    ...(['reseller', 'general'] as const).map((style) => ({
      event: UNKNOWN_EVENTS[style],
      style,
      unknown: true,
    })),
  ]
}

/**
 * Sends every delivery of {@link allEntries} to `url`, one after the other (in order, as a receiver
 * reads its log), printing each; then the count. Resolves 0 when every one got a 2xx within 5 s,
 * else 1: a failed delivery does not stop the others.
 */
export async function forwardAll(url: string, secret: string): Promise<number> {
  let delivered = 0
  let failed = 0
  for (const { event, style, unknown } of allEntries()) {
    const built = buildEvent(event, { style, unknown })
    // The list is this version's own: a problem here is a bug, not the user's input.
    if ('problem' in built) throw new Error(`trigger --all: ${built.problem}`)
    if ((await forward(url, secret, built.payload)) === 0) delivered++
    else failed++
  }
  process.stdout.write(`${delivered} delivered, ${failed} failed\n`)
  return failed === 0 ? 0 : 1
}
