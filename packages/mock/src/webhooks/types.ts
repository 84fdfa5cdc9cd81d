/**
 * The delivery side's vocabulary: what a delivery is, where it goes, what the dispatcher needs from
 * the store and what it offers (`webhooks/dispatcher.ts` implements it).
 */
import type { Clock } from '../state/clock.js'
import type { DeliveryRow, EventStyle } from '../state/schemas.js'
import type { AttemptResult } from './attempt.js'

/**
 * Retry delays after the 1st, 2nd and 3rd failed attempt: at most 4 attempts.
 * A retry is due exactly this long after the failed attempt STARTED, in mock time, so the
 * receiver's latency never shifts the schedule (and one clock advance of their sum runs all three).
 */
export const RETRY_DELAYS_MS = [60_000, 600_000, 3_600_000] as const
/** The first attempt plus one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1

/** Which configuration a delivery goes to: the reseller webhook, or one general webhook. */
export type DeliveryStyle = EventStyle

/**
 * `webhook_id` of a delivery to the reseller webhook (`PUT /reseller/webhook`). General webhook ids
 * look like `wh_1`, so this never names one of them.
 */
export const RESELLER_WEBHOOK_ID = 'reseller'

/**
 * A delivery as the mock stores it (the store's `DeliveryRow`): one event to one webhook, across all
 * its attempts. The wire record (`Delivery`) is a view of it. `payload` holds the exact bytes that
 * are signed and sent on every attempt; `webhook_id` is a general webhook's id or
 * {@link RESELLER_WEBHOOK_ID}; `event_id` is `null` for a test delivery.
 */
export type DeliveryRecord = DeliveryRow

/** Where and with what secret a delivery is sent, as configured at the time of the attempt. */
export interface DeliveryTarget {
  url: string
  secret: string
}

/** What the dispatcher needs from the store. */
export interface DeliveryStore {
  insertDelivery(record: DeliveryRecord): void
  updateDelivery(deliveryId: string, patch: Partial<DeliveryRecord>): void
  getDelivery(deliveryId: string): DeliveryRecord | undefined
  /** Every delivery with an attempt still to make (`next_attempt_at` not null). */
  pendingDeliveries(): DeliveryRecord[]
  /** The reseller webhook of a reseller, when one is set. */
  resellerWebhook(resellerId: number): DeliveryTarget | undefined
  /** A general webhook by id. */
  generalWebhook(webhookId: string): DeliveryTarget | undefined
  /** The general webhooks of a reseller subscribed to `event`. */
  subscribedWebhooks(resellerId: number, event: string): Array<{ id: string } & DeliveryTarget>
}

/**
 * What the dispatcher tells as it works: a delivery `queued` (its record just stored, first attempt
 * due), or an `attempt` made (`delivery` as recorded after it: `attempts` is the attempt's number,
 * `next_attempt_at` the retry to come or `null`). `url` is where the delivery goes (`queued`) or
 * went (`attempt`), `null` when its webhook is gone. The standalone server's delivery stream and
 * request log, and the core's `X-Mock-Deliveries` header, are built on these.
 */
export type DeliveryNotice =
  | { type: 'queued'; delivery: DeliveryRecord; url: string | null }
  | { type: 'attempt'; delivery: DeliveryRecord; url: string | null; result: AttemptResult }

/** An event recorded by the mock, ready for delivery. */
export interface OutboxEvent {
  /** Id of the event in the outbox. */
  id: number
  reseller_id: number
  style: DeliveryStyle
  /** Event name, e.g. `ticket.created`. */
  event: string
  /** The whole event object as the receiver gets it (`{ event, created_at, data }` or `{ event, sandbox, timestamp, data }`). */
  payload: unknown
}

/** Options of {@link createDispatcher}. */
export interface DispatcherOptions {
  clock: Clock
  store: DeliveryStore
  /** Allow webhooks on loopback or private hosts, and general webhooks on `http://`. */
  insecureWebhooks?: boolean
  /**
   * Read before each attempt: `true` while the mock is served on a non-loopback address, where the
   * reseller webhook follows the general target policy (HTTPS, public hosts, the `fetch` option).
   * Default: never.
   */
  servedOnNetwork?: () => boolean
  /**
   * The fetch that reaches receivers; default: the global `fetch` as it was when the dispatcher was
   * created (a test that replaces `globalThis.fetch` later does not receive the mock's deliveries).
   * Without `insecureWebhooks`, reseller webhooks do not use it: they may point to local hosts, so
   * they always go through that global `fetch` (see `reach`).
   */
  fetch?: typeof fetch
  /**
   * Send deliveries through MSW's `bypass()`, so that an MSW interceptor lets them through to the
   * network. Default `true`: in-process, MSW may intercept even the platform's own fetch. The mark is
   * an `Accept` value (`msw/passthrough`) that MSW removes but a receiver sees where no interceptor
   * runs, so the standalone server turns it off.
   */
  bypassMsw?: boolean
  /** Real-time limit of one attempt; default 5 000 ms. Tests shorten it. */
  timeoutMs?: number
  /** Delivery ids; default `dlv_` + 32 hex digits of a generator seeded with the default seed. */
  newId?: () => string
  /** Called after each attempt changed a record outside any request: the state file's write-through. */
  onChange?: () => void
  /** Told of every delivery queued and every attempt made, synchronously, as they happen. */
  notify?: (notice: DeliveryNotice) => void
}

/** Options of {@link Dispatcher.deliverNow}. */
export interface DeliverNowOptions {
  /**
   * Retry a failed attempt on the schedule (default `true`). The reseller webhook's test makes one
   * attempt only: its answer already tells the caller how it went.
   */
  retry?: boolean
}

/** Queues, signs, sends and retries webhook deliveries on the mock's clock. */
export interface Dispatcher {
  /**
   * Records one delivery per target of the event (pending, first attempt due now) and schedules
   * them. Synchronous: the records exist before the request that caused the event answers; the
   * attempts run later on the clock, never inside that request.
   */
  enqueue(event: OutboxEvent): DeliveryRecord[]
  /**
   * Records a delivery of `payload` to a webhook (a general webhook's id, or
   * {@link RESELLER_WEBHOOK_ID}) and makes its first attempt at once, resolving the record after it
   * (the test endpoints). A failed attempt is retried on the schedule unless `options.retry` is false.
   */
  deliverNow(
    resellerId: number,
    webhookId: string,
    event: string,
    payload: unknown,
    options?: DeliverNowOptions,
  ): Promise<DeliveryRecord>
  /**
   * Delivers a recorded delivery again (the inspector's "redeliver now", `reseller-mock resend`): a
   * new record with a new id, the same event and the very same payload bytes, to the same webhook,
   * its first attempt made at once; resolves the new record after that attempt. Its attempts carry
   * the original's id in `X-Service-Delivery` (`redelivery_of`), as GitHub's redeliveries keep their
   * delivery's GUID: a receiver that deduplicates on it handles a redelivered event once. A failed
   * attempt is retried on the schedule. The original record is left as it is. `undefined` for an
   * unknown delivery id.
   */
  redeliver(deliveryId: string): Promise<DeliveryRecord | undefined>
  /** Forgets every scheduled attempt and schedules them again from the records (after a reset or a restore). */
  resume(): void
  /** Resolves once no attempt is in flight. */
  idle(): Promise<void>
  /** Cancels every scheduled attempt; attempts in flight finish but change nothing. */
  stop(): void
}

/**
 * The `error` of a reseller delivery that got no HTTP answer, without `insecureWebhooks`: one text
 * for a refused connection, a reset, a timeout or a TLS failure alike (see `reach` in the dispatcher).
 */
export const OPAQUE_FAILURE =
  'no HTTP answer from the receiver (details hidden: start the mock with --insecure-webhooks to see them)'
