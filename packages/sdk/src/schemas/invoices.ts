import * as z from 'zod/mini'
import { Id, TimestampMicros } from './common.js'

/** States of an invoice. */
export const INVOICE_STATUSES = ['unpaid', 'paid', 'cancelled', 'refunded'] as const

/** An invoice of the caller (fields decided in docs/spec-decisions.md, "Wire shapes"). */
export const Invoice = z.object({
  id: Id,
  number: z.string(),
  status: z.enum(INVOICE_STATUSES),
  total: z.number().check(z.nonnegative('must not be negative')),
  currency: z.string().check(z.regex(/^[A-Z]{3}$/, 'must be a three-letter currency code')),
  created_at: TimestampMicros,
  due_at: z.nullable(TimestampMicros),
})
/** An invoice of the caller. */
export type Invoice = z.infer<typeof Invoice>
