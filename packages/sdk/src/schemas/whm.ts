import * as z from 'zod/mini'
import { Count, Id, TimestampMicros } from './common.js'

/** WHM usage of the reseller plan. */
export const WhmUsage = z.object({
  accounts_used: Count,
  accounts_limit: Count,
  disk_used_mb: Count,
  disk_limit_mb: Count,
  bandwidth_used_mb: Count,
  bandwidth_limit_mb: Count,
})
/** WHM usage of the reseller plan. */
export type WhmUsage = z.infer<typeof WhmUsage>

/** States of a cPanel account. */
export const ACCOUNT_STATUSES = ['active', 'suspended'] as const
/** State of a cPanel account. */
export const AccountStatus = z.enum(ACCOUNT_STATUSES)
/** State of a cPanel account. */
export type AccountStatus = z.infer<typeof AccountStatus>

/** A cPanel account on the reseller's WHM (fields decided in docs/spec-decisions.md, "Wire shapes"). */
export const WhmAccount = z.object({
  username: z.string(),
  domain: z.string(),
  client_id: z.nullable(Id),
  whm_package: z.string(),
  status: AccountStatus,
  disk_used_mb: Count,
  bandwidth_used_mb: Count,
  created_at: TimestampMicros,
  suspended_at: z.nullable(TimestampMicros),
})
/** A cPanel account on the reseller's WHM. */
export type WhmAccount = z.infer<typeof WhmAccount>

/** Answer of deleting a cPanel account. */
export const WhmAccountDeleted = z.object({ username: z.string(), deleted: z.literal(true) })
/** Answer of deleting a cPanel account. */
export type WhmAccountDeleted = z.infer<typeof WhmAccountDeleted>

/** A WHM package name: 1 to 64 letters, digits, `_` or `-`. */
export const PackageName = z
  .string()
  .check(
    z.minLength(1, 'must not be empty'),
    z.maxLength(64, 'must be at most 64 characters'),
    z.regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, _ and -'),
  )

/** A WHM package. `quota` and `bandwidth` are in megabytes; 0 means unlimited. */
export const WhmPackage = z.object({
  name: z.string(),
  quota: Count,
  bandwidth: Count,
  maxsql: Count,
  maxpop: Count,
  maxftp: Count,
  maxsub: Count,
})
/** A WHM package. */
export type WhmPackage = z.infer<typeof WhmPackage>

/** Body of `POST /reseller/whm/packages`: every field required. */
export const WhmPackageCreateBody = z.strictObject({ ...WhmPackage.shape, name: PackageName })
/** Body of `POST /reseller/whm/packages`. */
export type WhmPackageCreateBody = z.infer<typeof WhmPackageCreateBody>

/** Answer of deleting a WHM package. */
export const WhmPackageDeleted = z.object({ name: z.string(), deleted: z.literal(true) })
/** Answer of deleting a WHM package. */
export type WhmPackageDeleted = z.infer<typeof WhmPackageDeleted>
