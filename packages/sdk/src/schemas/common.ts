import * as z from 'zod/mini'
import { OFFSET_TIMESTAMP_PATTERN, UTC_TIMESTAMP_PATTERN } from './event-envelope.js'

/** ISO 8601 UTC timestamp with microseconds, e.g. `2026-11-22T10:15:30.123456Z`. */
export const TimestampMicros = z.iso.datetime({
  precision: 6,
  error: 'must be an ISO 8601 UTC timestamp with microseconds (YYYY-MM-DDTHH:MM:SS.ffffffZ)',
})

/** ISO 8601 UTC timestamp of any precision, e.g. `2026-11-22T10:15:30Z`. */
export const TimestampUtc = z
  .string()
  .check(z.regex(UTC_TIMESTAMP_PATTERN, 'must be an ISO 8601 UTC timestamp ending in Z'))

/** ISO 8601 timestamp with a numeric offset, e.g. `2026-11-22T10:15:30+00:00` (general events). */
export const TimestampWithOffset = z
  .string()
  .check(
    z.regex(
      OFFSET_TIMESTAMP_PATTERN,
      'must be an ISO 8601 timestamp with a numeric offset (YYYY-MM-DDTHH:MM:SS+HH:MM)',
    ),
  )

/** A positive integer identifier. */
export const Id = z.int().check(z.positive('must be a positive integer'))

/** A non-negative integer count or size. */
export const Count = z.int().check(z.nonnegative('must be a non-negative integer'))

/** A UUID string. */
export const Uuid = z.uuid('must be a UUID')

/** The four scopes an API key may hold. */
export const SCOPES = ['reseller:hosting', 'reseller:webhooks', 'support:read', 'support:write'] as const
/** One API key scope. */
export const Scope = z.enum(SCOPES, { error: (issue) => `unknown scope ${JSON.stringify(issue.input)}` })
/** One API key scope. */
export type Scope = z.infer<typeof Scope>

/** Key prefixes by mode: live keys act for real, sandbox keys simulate. */
export const KEY_PREFIXES = { live: 'svc_live_', sandbox: 'svc_test_' } as const
/** The mode an API key selects: `'live'` or `'sandbox'`. */
export type KeyMode = keyof typeof KEY_PREFIXES

/** An API key: `svc_live_…` or `svc_test_…` followed by letters, digits, `_` or `-`. */
export const ApiKey = z
  .string()
  .check(
    z.regex(/^svc_(live|test)_[A-Za-z0-9_-]+$/, 'must start with svc_live_ or svc_test_ followed by a key'),
  )

/**
 * The mode of an API key from its prefix, or `undefined` for a key of neither kind.
 * The key itself is never included in any message.
 */
export function keyMode(apiKey: string): KeyMode | undefined {
  if (!ApiKey.safeParse(apiKey).success) return undefined
  return apiKey.startsWith(KEY_PREFIXES.live) ? 'live' : 'sandbox'
}

/**
 * Every `error.code` the service answers: the API's and the mock's (docs/spec-decisions.md), the
 * codes of faults a test makes the mock answer (docs/faults-and-journal.md, "Faults in detail": 429, 503, other 5xx, 408) and the
 * standalone mock's refusals (docs/running-the-mock.md, "Safety": a foreign `Host` or `Origin`, HTTP parser errors), and
 * a body that is not JSON (415).
 */
export const ERROR_CODES = [
  'unauthenticated',
  'insufficient_scope',
  'sandbox_read_only',
  'not_found',
  'validation_error',
  'invalid_state',
  'no_reseller_service',
  'whm_unavailable',
  'quota_exceeded',
  'domain_taken',
  'insufficient_funds',
  'rate_limited',
  'service_unavailable',
  'request_timeout',
  'internal_error',
  'forbidden_host',
  'cross_origin',
  'bad_request',
  'headers_too_large',
  'unsupported_media_type',
] as const
/** A known error code. */
export const ErrorCode = z.enum(ERROR_CODES)
/** A known error code. */
export type ErrorCode = z.infer<typeof ErrorCode>

/** Map of field path (dot-separated) to the messages that field failed with. */
export const FieldErrors = z.record(z.string(), z.array(z.string()))
/** Map of field path (dot-separated) to the messages that field failed with. */
export type FieldErrors = z.infer<typeof FieldErrors>

/** The body of every error answer. `code` stays a string so that new codes still parse. */
export const ErrorBody = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.optional(FieldErrors),
  }),
})
/** The body of every error answer. */
export type ErrorBody = z.infer<typeof ErrorBody>

/** Pagination details of a list answer. */
export const PageMeta = z.object({
  total: Count,
  per_page: Id,
  current_page: Id,
})
/** Pagination details of a list answer. */
export type PageMeta = z.infer<typeof PageMeta>

/** Items per page of every paginated list. */
export const PAGE_SIZE = 20

/**
 * Highest page number: a signed 32-bit integer, what page parameters commonly take. Far beyond any
 * list's end (a page past the end is empty), and its offset stays an exact number.
 */
export const MAX_PAGE = 2_147_483_647

/** A page number, from 1 to {@link MAX_PAGE}. */
export const PageNumber = z
  .int('page must be an integer')
  .check(z.minimum(1, 'must be 1 or more'), z.maximum(MAX_PAGE, `must be ${MAX_PAGE} or less`))

/** Options of a paginated list call. */
export const PageParams = z.strictObject({ page: z.optional(PageNumber) })
/** Options of a paginated list call. */
export type PageParams = z.infer<typeof PageParams>

/**
 * The `page` query parameter as it arrives on the wire: a string of digits, read as a page number.
 * Digits only (no sign, exponent or fraction); the number's range is checked after.
 */
export const PageQuery = z.object({
  page: z.optional(
    z.pipe(
      z.string().check(z.regex(/^\d+$/, 'must be a whole number')),
      z.pipe(
        // Past 10 digits the number is over MAX_PAGE anyway; this keeps it an exact integer.
        z.transform((value: string) =>
          value.replace(/^0+(?=\d)/, '').length > 10 ? MAX_PAGE + 1 : Number(value),
        ),
        PageNumber,
      ),
    ),
  ),
})

/** The success envelope around one resource. */
export function envelope<T extends z.ZodMiniType>(data: T) {
  return z.object({ success: z.literal(true), data })
}

/** The success envelope of a paginated list. */
export function pageEnvelope<T extends z.ZodMiniType>(item: T) {
  return z.object({ success: z.literal(true), data: z.array(item), meta: PageMeta })
}
