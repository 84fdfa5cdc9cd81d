/**
 * Retention: what a long-running mock keeps, so that its memory stops growing once the limits are
 * reached (docs/spec-decisions.md, "Hostile webhook targets and bounded memory"). Every limit is per owner, so one busy reseller or webhook never pushes out
 * another's history:
 *
 * - the event outbox keeps the newest {@link RETENTION_LIMITS.eventsPerReseller} events of each
 *   reseller;
 * - the delivery history keeps at most {@link RETENTION_LIMITS.deliveriesPerWebhook} deliveries of
 *   each webhook (each general webhook, and each reseller's reseller webhook), the oldest finished
 *   ones going first; a delivery with an attempt still to make is never dropped, so no scheduled
 *   retry is lost and the history exceeds the limit only while more than that are waiting;
 * - a reseller has at most {@link RETENTION_LIMITS.webhooksPerReseller} general webhooks (a create
 *   beyond it answers 422 `quota_exceeded`).
 *
 * Pruning runs on each write and drops the oldest rows of one group: the groups are oldest first,
 * so that is the front of the group, and lists and pages (counted from the group) stay consistent.
 */
import type { DeliveryRow } from './schemas.js'
import type { Store } from './store.js'
import { deliveryOwnerKey } from './tables.js'

/** The documented limits (docs/webhooks.md, docs/running-the-mock.md). */
export const RETENTION_LIMITS = {
  /** Events kept in the outbox per reseller. */
  eventsPerReseller: 1000,
  /** Deliveries kept per webhook (more only while more than this wait for an attempt). */
  deliveriesPerWebhook: 500,
  /** General webhooks a reseller may have. */
  webhooksPerReseller: 100,
} as const

/** Drops the oldest events of a reseller beyond the limit (inside the caller's transaction). */
export function pruneEvents(
  store: Store,
  resellerId: number,
  limit: number = RETENTION_LIMITS.eventsPerReseller,
) {
  for (;;) {
    const events = store.events.group('reseller', resellerId)
    if (events.length <= limit) return
    store.events.delete(events[0]!)
  }
}

/**
 * Drops the oldest finished deliveries of one webhook while it has more than `limit`. Deliveries
 * still waiting for an attempt are skipped (kept). The skipped ones sit at the front only while
 * their retries run, so the scan is short.
 */
export function pruneDeliveries(
  store: Store,
  owner: Pick<DeliveryRow, 'reseller_id' | 'webhook_id'>,
  limit: number = RETENTION_LIMITS.deliveriesPerWebhook,
) {
  const key = deliveryOwnerKey(owner)
  let skipped = 0
  for (;;) {
    const deliveries = store.deliveries.group('owner', key)
    if (deliveries.length <= limit || skipped >= deliveries.length) return
    const oldest = deliveries[skipped]!
    if (oldest.next_attempt_at === null) store.deliveries.delete(oldest)
    else skipped++
  }
}
