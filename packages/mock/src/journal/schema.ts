/**
 * Wire shapes of the request journal: the entry answered by `GET /__mock/requests`
 * and returned by `mock.requests.list()`, and the filter both accept.
 */
import { Id } from '@reseller-api/sdk/schemas'
import * as z from 'zod/mini'

/** HTTP methods the mock's routes answer; a journal or fault filter names one of them. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/** An HTTP method; lower case is accepted and read as upper case (`post` → `POST`). */
export const HttpMethodName = z.pipe(
  z.string(),
  z.pipe(
    z.transform((value: string) => value.toUpperCase()),
    z.enum(HTTP_METHODS, `must be one of ${HTTP_METHODS.join(', ')}`),
  ),
)

/** A path below the base URL with no query: `path` filters compare it exactly. */
export const QuerylessPath = z.string().check(
  z.regex(/^\//, 'must start with /'),
  z.refine(
    (value) => !value.includes('?'),
    'must not carry a query: it is compared with the path without its query',
  ),
)

/** The answer of a journaled request. */
export const JournalResponse = z.object({
  status: z.int(),
  /** Headers of the answer, lower-case names. */
  headers: z.record(z.string(), z.string()),
  /**
   * The parsed JSON answer (`secret` fields shown as `"[redacted]"`), null for an empty or non-JSON
   * one; `{ "truncated": true, "bytes": N }` for one over 64 KiB.
   */
  body: z.unknown(),
})
/** The answer of a journaled request. */
export type JournalResponse = z.infer<typeof JournalResponse>

/**
 * One journaled API request. The key itself is never stored, and secrets never show: `secret`
 * fields of the bodies and credential-named query parameters read `"[redacted]"`.
 */
export const JournalEntry = z.object({
  /** `req_…`: also the `X-Request-Id` of the answer. */
  id: z.string(),
  /** Mock time of the request's arrival, ISO 8601 UTC. */
  at: z.string(),
  method: z.string(),
  /** Path below the base URL, with its query (credential-named parameters' values redacted). */
  path: z.string(),
  /** The matched route template (`/api/v1/support/tickets/:ticket_uuid`), or null for no route. */
  route: z.nullable(z.string()),
  /** Mode of the authenticated key; null when there was none or it was refused. */
  key_mode: z.nullable(z.enum(['live', 'sandbox'])),
  reseller_id: z.nullable(Id),
  /** HTTP status answered; null when the answer was dropped by a fault. */
  status: z.nullable(z.int()),
  /** `error.code` of an error answer, null otherwise. */
  error_code: z.nullable(z.string()),
  /** The parsed JSON request body (`secret` fields redacted); null for none or for a body that is not JSON. */
  body: z.unknown(),
  /** Id of the fault applied to the request, or null. */
  fault: z.nullable(z.string()),
  /** The answer; null while the request is unanswered and for a dropped one. */
  response: z.nullable(JournalResponse),
})
/** One journaled API request. */
export type JournalEntry = z.infer<typeof JournalEntry>

/** Which entries to list; every given field must match. */
export const JournalFilter = z.strictObject({
  method: z.optional(HttpMethodName),
  /** A route template, compared exactly. */
  route: z.optional(z.string()),
  /** The path without its query, compared exactly. */
  path: z.optional(QuerylessPath),
  /** An HTTP status; `null`: the requests left without an answer (dropped, or still delayed). */
  status: z.optional(
    z.nullable(z.int().check(z.gte(100, 'must be 100 or more'), z.lte(599, 'must be 599 or less'))),
  ),
  /**
   * A request id (`req_42`): only the requests that arrived after it. What happened since a
   * checkpoint, without listing the whole journal again (the inspector reads new entries this way).
   */
  after: z.optional(z.string().check(z.regex(/^req_\d{1,15}$/, 'must be a request id such as req_42'))),
})
/** Which entries to list; every given field must match. */
export type JournalFilter = z.input<typeof JournalFilter>

/** The same filter read from query parameters (`?method=POST&status=429`). */
export const JournalQuery = z.strictObject({
  ...JournalFilter.shape,
  status: z.optional(
    z.pipe(
      z.string().check(z.regex(/^(\d{3}|null)$/, 'must be a 3-digit HTTP status, or null for no answer')),
      z.transform((value: string) => (value === 'null' ? null : Number(value))),
    ),
  ),
})
