// Event names and the envelope rules of both webhook styles, without zod: the webhooks entry
// (`@reseller-api/sdk/webhooks`) checks incoming events with these so that a receiver's bundle stays
// small (zod's object, union and format machinery alone would cost it ~8 kB gzip). The zod schemas
// in `events.ts` build on the same names and patterns, and additionally type each event's `data`.

// `common.ts` builds its timestamp schemas on the patterns below, so this module imports nothing
// from it: failing fields are a plain record (the shape of `FieldErrors`).
type FieldErrors = Record<string, string[]>

/** Reseller-style event names. */
export const RESELLER_EVENTS = [
  'hosting.created',
  'domain.registered',
  'vps.provisioning',
  'vps.activated',
  'email.provisioning',
  'email.activated',
  'wallet.debited',
  'wallet.credited',
] as const

/** General-style event names a webhook may subscribe to. */
export const GENERAL_EVENTS = [
  'service.activated',
  'service.suspended',
  'service.cancelled',
  'payment.completed',
  'payment.failed',
  'domain.registered',
  'domain.renewed',
  'ticket.created',
  'ticket.replied',
] as const

/** An ISO 8601 UTC timestamp, any precision: `2026-11-22T10:15:30Z`, `…:30.123456Z`. */
export const UTC_TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/

/** An ISO 8601 timestamp with a numeric offset: `2026-11-22T10:15:30+00:00`. */
export const OFFSET_TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?[+-]\d{2}:\d{2}$/

const RESELLER_NAMES: ReadonlySet<string> = new Set(RESELLER_EVENTS)
// `test` is what the general test endpoint sends.
const GENERAL_NAMES: ReadonlySet<string> = new Set([...GENERAL_EVENTS, 'test'])

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Whether `name` is an event name this version of the SDK knows, in either style. */
export function isKnownEventName(name: string): boolean {
  return RESELLER_NAMES.has(name) || GENERAL_NAMES.has(name)
}

/**
 * Checks the envelope of a webhook event: an `event` name and the fields of its style (reseller:
 * `sandbox`, `timestamp`, `data`; general: `created_at`, `data`). Returns the failing fields, or
 * `undefined` when the envelope is sound. A name both styles share (`domain.registered`) is judged
 * by the style its other fields claim.
 *
 * With `unknownNames: 'refuse'` (the default) a name this version does not know fails on `event`.
 * With `'allow'`, any non-empty name passes and its style is the one its fields claim (`sandbox` or
 * `timestamp` for reseller, else `created_at` for general): a service adds event types in compatible
 * releases, and such an event is well formed, only new (docs/webhooks.md, "A service that grows").
 *
 * The content of `data` is not checked here: parse with the `WebhookEvent` schema of
 * `@reseller-api/sdk` for that.
 */
export function checkEventEnvelope(
  value: unknown,
  unknownNames: 'refuse' | 'allow' = 'refuse',
): FieldErrors | undefined {
  if (!isObject(value)) return { body: ['must be a JSON object'] }
  const name = value.event
  if (name === undefined) return { event: ['is required'] }
  if (typeof name !== 'string') return { event: ['must be a string'] }
  if (name === '') return { event: ['must not be empty'] }
  let reseller = RESELLER_NAMES.has(name)
  let general = GENERAL_NAMES.has(name)
  const claimsReseller = 'sandbox' in value || 'timestamp' in value
  const looksGeneral = 'created_at' in value && !claimsReseller
  if (!reseller && !general) {
    if (unknownNames === 'refuse') {
      const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name
      return { event: [`unknown event ${JSON.stringify(shown)}`] }
    }
    if (!claimsReseller && !('created_at' in value)) {
      return {
        body: ['must carry the fields of a style: sandbox and timestamp (reseller), or created_at (general)'],
      }
    }
    reseller = claimsReseller
    general = !claimsReseller
  }
  const fields: FieldErrors = {}
  const fail = (field: string, message: string) => {
    fields[field] = [message]
  }
  const checkTime = (field: string, pattern: RegExp, rule: string) => {
    const time = value[field]
    if (time === undefined) fail(field, 'is required')
    else if (typeof time !== 'string' || !pattern.test(time)) fail(field, rule)
  }
  if (reseller && (!general || !looksGeneral)) {
    if (value.sandbox === undefined) fail('sandbox', 'is required')
    else if (typeof value.sandbox !== 'boolean') fail('sandbox', 'must be a boolean')
    checkTime('timestamp', UTC_TIMESTAMP_PATTERN, 'must be an ISO 8601 UTC timestamp ending in Z')
  } else {
    checkTime(
      'created_at',
      OFFSET_TIMESTAMP_PATTERN,
      'must be an ISO 8601 timestamp with a numeric offset (YYYY-MM-DDTHH:MM:SS+HH:MM)',
    )
  }
  if (value.data === undefined) fail('data', 'is required')
  else if (!isObject(value.data)) fail('data', 'must be an object')
  return Object.keys(fields).length > 0 ? fields : undefined
}
