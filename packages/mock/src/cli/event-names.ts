/**
 * The event names `trigger` and `listen` take, and the style each is sent in: the SDK's lists of
 * reseller-style and general-style events, and `test` (what the general test endpoint sends).
 */
import { GENERAL_EVENTS, RESELLER_EVENTS } from '@reseller-api/sdk/schemas'

/** A webhook style: the reseller webhook's events, or the general webhooks'. */
export type Style = 'reseller' | 'general'

/** The names of each style. */
export const NAMES_OF: Record<Style, readonly string[]> = {
  reseller: RESELLER_EVENTS,
  general: [...GENERAL_EVENTS, 'test'],
}

/** A name this version may not know (`--unknown`): the shape of every event name of the service. */
export const EVENT_NAME_SHAPE = /^[a-z]+(\.[a-z_]+)+$/

/** The styles that have `name` (`domain.registered` has both). */
export function stylesOf(name: string): Style[] {
  return (['reseller', 'general'] as const).filter((style) => NAMES_OF[style].includes(name))
}

/** The known names, for a message: `reseller style: a, b; general style: c, d`. */
export function knownNames(): string {
  return `reseller style: ${NAMES_OF.reseller.join(', ')}; general style: ${NAMES_OF.general.join(', ')}`
}

/**
 * The style to send a known `name` in: `style` when given (and the name has it), else the name's
 * own, reseller for a name both styles have. A message saying why not otherwise.
 */
export function styleFor(name: string, style: Style | undefined): { style: Style } | { problem: string } {
  const styles = stylesOf(name)
  if (styles.length === 0) {
    return {
      problem: `unknown event "${name}"; known events: ${knownNames()} (--unknown sends a name this version does not know)`,
    }
  }
  if (style === undefined) return { style: styles[0]! }
  if (!styles.includes(style)) {
    return { problem: `${name} is a ${styles[0]}-style event, not a ${style}-style one` }
  }
  return { style }
}

/** `value` of `--style` as a style, or a message. `both` is accepted where `allowBoth`. */
export function parseStyle<B extends boolean>(
  value: string,
  allowBoth: B,
): { style: B extends true ? Style | 'both' : Style } | { problem: string } {
  const allowed = allowBoth ? ['reseller', 'general', 'both'] : ['reseller', 'general']
  if (!allowed.includes(value)) {
    return { problem: `--style must be ${allowed.join(', ').replace(/, (\w+)$/, ' or $1')}, got "${value}"` }
  }
  return { style: value as Style }
}
