import * as z from 'zod/mini'
import { TimestampMicros, Uuid } from './common.js'

/** Kinds of service a reseller holds. */
export const SERVICE_TYPES = ['reseller', 'hosting', 'domain', 'vps', 'email'] as const
/** States of a service. */
export const SERVICE_STATUSES = ['active', 'suspended', 'cancelled'] as const

/** A service of the caller (fields decided in docs/spec-decisions.md, "Wire shapes"). */
export const Service = z.object({
  id: Uuid,
  type: z.enum(SERVICE_TYPES),
  name: z.string(),
  status: z.enum(SERVICE_STATUSES),
  created_at: TimestampMicros,
})
/** A service of the caller. */
export type Service = z.infer<typeof Service>
