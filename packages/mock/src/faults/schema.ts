/**
 * The fault spec: the body of `POST /__mock/faults` and the argument of
 * `mock.faults.add()`. Rules that need the route table (does `match.route` name a route of the
 * mock?) are checked by the registry after this schema.
 */
import * as z from 'zod/mini'
import { HttpMethodName, QuerylessPath } from '../journal/schema.js'

/** Longest `delayMs` accepted: ten minutes, far beyond any client timeout worth testing. */
export const MAX_DELAY_MS = 600_000

/** Which API requests a fault applies to; every given field must match, none given: every one. */
export const FaultMatch = z.strictObject({
  method: z.optional(HttpMethodName),
  /** A route template of the mock, e.g. `/api/v1/reseller/clients/:client_id/hosting`. */
  route: z.optional(z.string().check(z.regex(/^\//, 'must start with /'))),
  /** A path, compared exactly with the request's path without its query. */
  path: z.optional(QuerylessPath),
})

/** The error answer of a fault. */
export const FaultRespond = z.strictObject({
  status: z
    .int()
    .check(
      z.gte(400, 'must be a 4xx or 5xx status: a fault answers an error'),
      z.lte(599, 'must be a 4xx or 5xx status: a fault answers an error'),
    ),
  code: z.optional(
    z
      .string()
      .check(z.regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be a snake_case error code such as rate_limited')),
  ),
  message: z.optional(
    z
      .string()
      .check(z.minLength(1, 'must not be empty'), z.maxLength(1000, 'must be at most 1000 characters')),
  ),
  /** Seconds, sent as `Retry-After`. */
  retryAfter: z.optional(
    z.int().check(z.gte(0, 'must be 0 or more (seconds)'), z.lte(86_400, 'must be at most 86400 (one day)')),
  ),
})

/** A fault as given. */
export const FaultSpec = z.strictObject({
  match: z.optional(FaultMatch),
  times: z.optional(
    z.int().check(z.gte(1, 'must be 1 or more; leave it out to apply the fault until it is removed')),
  ),
  delayMs: z.optional(
    z.int().check(z.gte(0, 'must be 0 or more'), z.lte(MAX_DELAY_MS, `must be at most ${MAX_DELAY_MS}`)),
  ),
  respond: z.optional(FaultRespond),
  drop: z.optional(z.enum(['before', 'after'], 'must be "before" or "after"')),
})

/** A fault as given to `mock.faults.add()` and `POST /__mock/faults`. */
export type FaultSpec = z.input<typeof FaultSpec>
/** Which API requests a fault applies to. */
export type FaultMatch = z.input<typeof FaultMatch>

/** A fault as listed: the spec with defaults filled in, its id, and how often it may still apply. */
export const FaultJson = z.object({
  id: z.string(),
  match: z.object({
    method: z.optional(z.string()),
    route: z.optional(z.string()),
    path: z.optional(z.string()),
  }),
  times: z.optional(z.int()),
  delayMs: z.optional(z.int()),
  respond: z.optional(
    z.object({
      status: z.int(),
      code: z.string(),
      message: z.string(),
      retryAfter: z.optional(z.int()),
    }),
  ),
  drop: z.optional(z.enum(['before', 'after'])),
  /** Requests it has applied to so far. */
  applied: z.int(),
  /** Requests it will still apply to; null: until removed. */
  remaining: z.nullable(z.int()),
})
/** A fault as listed. */
export type FaultJson = z.infer<typeof FaultJson>
