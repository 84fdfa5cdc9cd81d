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
