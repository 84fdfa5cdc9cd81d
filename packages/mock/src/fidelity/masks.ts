/**
 * What the comparison engine masks: values that cannot agree between two deployments, so an
 * unchanged upstream gives zero differences run after run (docs/keeping-the-mock-honest.md, "What
 * is masked"). Each is masked by name, never by a broad ignore; the document's rules still hold for
 * a masked value (`openapi-rules.ts`).
 */
import { ID_FIELDS, type IdMap } from './ids.js'

type Json = Record<string, unknown>

/** Fields holding a time: their value is compared only when it came from the import. */
export const TIME_FIELDS = new Set([
  'created_at',
  'updated_at',
  'attempted_at',
  'next_attempt_at',
  'suspended_at',
  'due_at',
])

/**
 * Values masked whatever they hold (compared by type only): prose the service words its own way,
 * and values generated per request. Pointers as regular expressions on the JSON pointer.
 */
export const MASKED: { pointer: RegExp; why: string }[] = [
  { pointer: /^\/error\/message$/, why: 'error prose is the service’s wording' },
  { pointer: /^\/error\/fields\/.+$/, why: 'field messages are prose; the field names are compared' },
  { pointer: /^\/data\/password$/, why: 'a simulated account’s password is generated' },
  { pointer: /^\/data\/secret$/, why: 'a webhook secret is generated' },
  { pointer: /^\/data\/message$/, why: 'the sandbox notice is prose' },
]

/**
 * What a webhook receiver did, as a delivery (marked by `delivery_id`) or a reseller webhook test
 * (marked by `delivered`) reports it. It depends on a receiver outside both sides (unreachable from
 * an offline replay, answering as it pleases), so for an attempt made during the run these fields
 * are masked, presence included; the document's rules still hold for each side. A delivery the
 * import brought was attempted again during the run when either side shows an attempt time the
 * import did not bring; a test's result is always of the run.
 */
const RECEIVER_OUTCOMES: {
  marker: string
  fields: ReadonlySet<string>
  ofTheRun: (up: Json, mock: Json, ids: IdMap) => boolean
}[] = [
  {
    marker: 'delivery_id',
    fields: new Set([
      'status',
      'http_status',
      'duration_ms',
      'error',
      'retries',
      'attempted_at',
      'next_attempt_at',
    ]),
    ofTheRun: (up, mock, ids) =>
      ids.madeDuringRun(up) ||
      [up.attempted_at, mock.attempted_at].some((at) => typeof at === 'string' && !ids.isKnown(at)),
  },
  { marker: 'delivered', fields: new Set(['delivered', 'status_code', 'error']), ofTheRun: () => true },
]

const NOTHING_MASKED: ReadonlySet<string> = new Set()

/**
 * The fields of an object pair that cannot agree: the integer ids of a record made during the run
 * (each side numbers records its own way; a number does not say what it numbers, so it cannot be
 * mapped) and what a webhook receiver did in an attempt of the run.
 */
export function maskedFields(up: Json, mock: Json, ids: IdMap): ReadonlySet<string> {
  let masked: Set<string> | undefined
  const mask = (field: string) => {
    masked ??= new Set()
    masked.add(field)
  }
  if (ids.madeDuringRun(up)) {
    for (const [key, value] of Object.entries(up))
      if (ID_FIELDS.has(key) && typeof value === 'number' && typeof mock[key] === 'number') mask(key)
  }
  for (const { marker, fields, ofTheRun } of RECEIVER_OUTCOMES) {
    if (marker in up && marker in mock && ofTheRun(up, mock, ids)) for (const field of fields) mask(field)
  }
  return masked ?? NOTHING_MASKED
}
