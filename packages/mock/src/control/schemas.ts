/**
 * The control endpoints' own bodies and answers (the others are the SDK's wire schemas, the fault
 * spec of `faults/schema.ts`, the journal's of `journal/schema.ts` and the emit body of
 * `domain/events.ts`). Exported by name: the OpenAPI document names its components after them.
 */
import { MessageText, TicketMessage, TicketStatus } from '@reseller-api/sdk/schemas'
import * as z from 'zod/mini'
import { DeliveryRow } from '../state/schemas.js'

/** Answer of `POST /__mock/reset`. */
export const ResetDone = z.object({ reset: z.literal(true) })

/** Body of `POST /__mock/tickets/{uuid}/replies`. */
export const StaffReplyBody = z.strictObject({
  message: MessageText,
  internal: z._default(z.boolean(), false),
})

/** Body of `PATCH /__mock/tickets/{uuid}`. */
export const TicketStatusBody = z.strictObject({ status: TicketStatus })

/** Answer of a staff reply: the message, and whether it is an internal note. */
export const StaffReply = z.extend(TicketMessage, { internal: z.boolean() })

/** Answer of a `DELETE` that empties a list: how many items it removed. */
export const Cleared = z.object({ cleared: z.int() })

/** Longest single clock move through the control endpoint: 10 years, in seconds. */
export const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600

/** Body of `POST /__mock/clock/advance`. */
export const ClockAdvanceBody = z.strictObject({
  seconds: z
    .number('must be a number of seconds')
    .check(
      z.gte(0, 'must be 0 or more'),
      z.lte(MAX_ADVANCE_SECONDS, `must be at most ${MAX_ADVANCE_SECONDS} (10 years)`),
    ),
})

/** `data` of `GET /__mock/clock` and `POST /__mock/clock/advance`: the mock time and its lead over real time. */
export const ClockState = z.object({ now: z.string(), offset_ms: z.number() })

/**
 * A delivery as the operator sees it (`GET /__mock/deliveries`): the stored record, the URL it goes
 * to now and the `x-service-signature` header its attempts carry (`null` once its webhook is gone).
 */
export const DeliveryView = z.extend(DeliveryRow, {
  url: z.nullable(z.string()),
  signature: z.nullable(z.string()),
  redelivery_of: z.nullable(z.string()),
})
/** A delivery as the operator sees it. */
export type DeliveryView = z.infer<typeof DeliveryView>

/** A namespace's id: what `/ns/{id}` names (docs/running-the-mock.md, "Namespaces"). */
export const NamespaceId = z
  .string('must be a string')
  .check(
    z.regex(
      /^[a-z0-9][a-z0-9-]{0,62}$/,
      'must be 1 to 63 lower-case letters, digits or "-", starting with a letter or digit',
    ),
  )

/** Shortest and longest `ttl_seconds` of a namespace: a minute, 30 days. */
export const NAMESPACE_TTL = { min: 60, max: 2_592_000, default: 3600 } as const

/**
 * Body of `POST /__mock/namespaces`, every field optional (`null` counts as left out: clients that
 * write absent values as `null`, Python's `None`, are served alike). `seed` is a seed object of
 * docs/running-the-mock.md, "Seed format" (checked as a seed file is: its problems are named under `seed`).
 */
export const NamespaceCreateBody = z.strictObject({
  id: z.optional(z.nullable(NamespaceId)),
  seed: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  random_seed: z.optional(
    z.nullable(
      z.union([z.string().check(z.maxLength(200, 'must be at most 200 characters')), z.int()], {
        error: 'must be a string or an integer',
      }),
    ),
  ),
  ttl_seconds: z.optional(
    z.nullable(
      z
        .int('must be a whole number of seconds')
        .check(
          z.gte(NAMESPACE_TTL.min, `must be at least ${NAMESPACE_TTL.min}`),
          z.lte(NAMESPACE_TTL.max, `must be at most ${NAMESPACE_TTL.max} (30 days)`),
        ),
    ),
  ),
  label: z.optional(
    z.nullable(z.string('must be a string').check(z.maxLength(200, 'must be at most 200 characters'))),
  ),
})

/** An API key of a namespace's seed, as the CLI prints the server's. */
export const NamespaceKey = z.object({
  key: z.string(),
  mode: z.enum(['live', 'sandbox']),
  scopes: z.array(z.string()),
  reseller_id: z.int(),
  reseller: z.string(),
})

/** Answer of `POST /__mock/namespaces`: where the new mock lives and its keys. */
export const NamespaceCreated = z.object({
  id: z.string(),
  /** `http://HOST:PORT/ns/{id}`: the namespace's base URL. */
  url: z.string(),
  keys: z.array(NamespaceKey),
  label: z.nullable(z.string()),
  created_at: z.string(),
  expires_at: z.string(),
})

/** A namespace as `GET /__mock/namespaces` lists it. */
export const NamespaceView = z.object({
  id: z.string(),
  url: z.string(),
  label: z.nullable(z.string()),
  created_at: z.string(),
  expires_at: z.string(),
  /** API requests answered under its `url` (control requests are not counted). */
  requests: z.int(),
})

/** Answer of `DELETE /__mock/namespaces/{id}`. */
export const NamespaceDeleted = z.object({ id: z.string(), deleted: z.literal(true) })

/** Answer of `DELETE /__mock/namespaces`: how many went. */
export const NamespacesDeleted = z.object({ deleted: z.int() })
