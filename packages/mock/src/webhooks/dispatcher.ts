import { signPayload } from '@reseller-api/sdk/webhooks'
import { targetProblem, urlProblem } from '../domain/target-policy.js'
import { type Clock, toTimestampMicros } from '../state/clock.js'
import { createRandom, DEFAULT_RANDOM_SEED, localCounter, type MockRandom } from '../state/random.js'
import type { DeliveryRow, EventStyle } from '../state/schemas.js'
import { type AttemptResult, attemptDelivery, DELIVERY_TIMEOUT_MS } from './attempt.js'

/**
 * Retry delays after the 1st, 2nd and 3rd failed attempt (contract §5, spec §6.3.4): at most 4 attempts.
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
  /** Real-time limit of one attempt; default 5 000 ms (spec §8). Tests shorten it. */
  timeoutMs?: number
  /** Delivery ids; default `dlv_` + 32 hex digits of a generator seeded with the default seed. */
  newId?: () => string
  /** Called after each attempt changed a record outside any request: the state file's write-through. */
  onChange?: () => void
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
   * Records a delivery of `payload` to a general webhook and makes its first attempt at once,
   * resolving the record after it (the test endpoint). A failed attempt is retried on the schedule.
   */
  deliverNow(resellerId: number, webhookId: string, event: string, payload: unknown): Promise<DeliveryRecord>
  /**
   * Delivers a recorded delivery again (the inspector's "redeliver now"): a new record with a new
   * id, the same event and the very same payload bytes, to the same webhook, its first attempt made
   * at once; resolves the new record after that attempt. A failed attempt is retried on the
   * schedule. The original record is left as it is. `undefined` for an unknown delivery id.
   */
  redeliver(deliveryId: string): Promise<DeliveryRecord | undefined>
  /**
   * Sends `payload` once to the reseller webhook `target` and reports how it went; no record, no
   * retry (the reseller test endpoint). The target is checked as for any reseller delivery.
   */
  sendOnce(target: DeliveryTarget, event: string, payload: unknown): Promise<AttemptResult>
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

/** `dlv_` and 32 hex digits drawn from `random`. */
export function deliveryIdFrom(random: MockRandom): () => string {
  return () => `dlv_${random.hex128()}`
}

/** Creates a {@link Dispatcher}. */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { clock, store } = options
  // Captured now, so a test that later replaces `globalThis.fetch` does not receive the mock's deliveries.
  const fetchImpl: typeof fetch = options.fetch ?? globalThis.fetch.bind(globalThis)
  // Reseller webhooks (see `reach`): the platform's fetch, never a public-only one.
  const localFetch: typeof fetch = globalThis.fetch.bind(globalThis)
  // In-process, MSW may be intercepting even the platform's own fetch (a delivery sent while MSW
  // answers the API request that caused it), so every delivery carries MSW's bypass mark. Only the
  // standalone server, where no interceptor runs, turns it off.
  const markBypass = options.bypassMsw ?? true
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS
  const newId = options.newId ?? deliveryIdFrom(createRandom(DEFAULT_RANDOM_SEED, 'delivery', localCounter()))
  const cancels = new Map<string, () => void>()
  const inFlight = new Map<string, Promise<void>>()
  let generation = 0

  const send = async (
    via: typeof fetch,
    target: DeliveryTarget,
    deliveryId: string,
    event: string,
    body: string,
  ) =>
    attemptDelivery(
      { url: target.url, body, signature: await signPayload(body, target.secret), deliveryId, event },
      { fetch: via, timeoutMs, bypass: markBypass },
    )

  /**
   * How a target may be reached now: refused (never connected to), or the fetch to send with.
   * General webhooks: the creation rule again (a URL stored by a seed, a state file or an insecure
   * run is judged too); the addresses a name resolves to are the `fetch` option's to judge (the
   * standalone server's `server/public-fetch.ts`). A reseller webhook may use `http://` and, as
   * contract §4 binds the public-host rule to general webhooks only, any host: it is reached with the
   * platform's fetch, and without `insecureWebhooks` its failures are `opaque` (no network detail),
   * so that its `error` cannot tell a closed port of the mock's machine from an open one.
   */
  const reach = (
    url: string,
    style: DeliveryStyle,
  ): { refused: string } | { via: typeof fetch; opaque: boolean } => {
    if (options.insecureWebhooks) return { via: fetchImpl, opaque: false }
    if (style === 'reseller') {
      const problem = urlProblem(url)
      return problem ? { refused: `target refused: url ${problem}` } : { via: localFetch, opaque: true }
    }
    const problem = targetProblem(url)
    return problem ? { refused: `target refused: url ${problem}` } : { via: fetchImpl, opaque: false }
  }

  /** Sends unless the target is refused; a refusal is a failed attempt that made no connection. */
  const sendChecked = async (
    target: DeliveryTarget,
    style: DeliveryStyle,
    deliveryId: string,
    event: string,
    body: string,
  ): Promise<AttemptResult> => {
    const route = reach(target.url, style)
    if ('refused' in route) return { ok: false, httpStatus: null, error: route.refused, durationMs: 0 }
    const result = await send(route.via, target, deliveryId, event, body)
    if (!route.opaque || result.ok || result.httpStatus !== null) return result
    return { ...result, error: OPAQUE_FAILURE }
  }

  const isReseller = (record: DeliveryRecord) => record.webhook_id === RESELLER_WEBHOOK_ID
  const targetOf = (record: DeliveryRecord): DeliveryTarget | undefined =>
    isReseller(record) ? store.resellerWebhook(record.reseller_id) : store.generalWebhook(record.webhook_id)

  const attempt = async (deliveryId: string, gen: number): Promise<void> => {
    const record = store.getDelivery(deliveryId)
    // Nothing left to try, or rescheduled for later meanwhile.
    if (!record || record.next_attempt_at === null || Date.parse(record.next_attempt_at) > clock.nowMs())
      return
    // The schedule counts from the attempt's start: a slow receiver must not push its retry later.
    const startedAt = clock.nowMs()
    const attemptedAt = toTimestampMicros(new Date(startedAt))
    const target = targetOf(record)
    let result: AttemptResult
    if (!target) {
      result = { ok: false, httpStatus: null, error: 'webhook no longer configured', durationMs: 0 }
    } else {
      const style = isReseller(record) ? 'reseller' : 'general'
      result = await sendChecked(target, style, record.delivery_id, record.event, record.payload)
    }
    if (gen !== generation || !store.getDelivery(deliveryId)) return
    const attempts = record.attempts + 1
    const retryIn = result.ok || attempts >= MAX_ATTEMPTS ? undefined : RETRY_DELAYS_MS[attempts - 1]
    const nextAt = retryIn === undefined ? undefined : startedAt + retryIn
    store.updateDelivery(deliveryId, {
      status: result.ok ? 'success' : 'failed',
      http_status: result.httpStatus,
      error: result.error ?? undefined,
      duration_ms: result.ok ? result.durationMs : undefined,
      attempts,
      retries: attempts - 1,
      attempted_at: attemptedAt,
      next_attempt_at: nextAt === undefined ? null : toTimestampMicros(new Date(nextAt)),
    })
    if (nextAt !== undefined) schedule(deliveryId, nextAt)
    options.onChange?.()
  }

  const run = async (deliveryId: string, gen: number): Promise<void> => {
    if (gen !== generation) return
    cancels.delete(deliveryId)
    // One attempt of a delivery at a time: after a resume, wait for the attempt of the old generation.
    const previous = inFlight.get(deliveryId)
    if (previous) await previous
    if (gen !== generation || inFlight.has(deliveryId)) return
    const running = attempt(deliveryId, gen).finally(() => inFlight.delete(deliveryId))
    inFlight.set(deliveryId, running)
    return running
  }

  function schedule(deliveryId: string, at: number) {
    cancels.get(deliveryId)?.()
    const gen = generation
    cancels.set(
      deliveryId,
      clock.schedule(at, () => run(deliveryId, gen)),
    )
  }

  const newRecord = (
    resellerId: number,
    webhookId: string,
    eventId: number | null,
    event: string,
    payload: string,
  ): DeliveryRecord => {
    const now = toTimestampMicros(clock.now())
    return {
      delivery_id: newId(),
      reseller_id: resellerId,
      webhook_id: webhookId,
      event_id: eventId,
      event,
      payload,
      status: 'pending',
      http_status: null,
      attempts: 0,
      retries: 0,
      created_at: now,
      attempted_at: null,
      next_attempt_at: now,
    }
  }

  return {
    enqueue(event) {
      const body = JSON.stringify(event.payload)
      const targets =
        event.style === 'reseller'
          ? store.resellerWebhook(event.reseller_id)
            ? [RESELLER_WEBHOOK_ID]
            : []
          : store.subscribedWebhooks(event.reseller_id, event.event).map((w) => w.id)
      const at = clock.nowMs()
      return targets.map((webhookId) => {
        const record = newRecord(event.reseller_id, webhookId, event.id, event.event, body)
        store.insertDelivery(record)
        schedule(record.delivery_id, at)
        return record
      })
    },

    async deliverNow(resellerId, webhookId, event, payload) {
      const record = newRecord(resellerId, webhookId, null, event, JSON.stringify(payload))
      store.insertDelivery(record)
      await run(record.delivery_id, generation)
      return store.getDelivery(record.delivery_id) ?? record
    },

    async redeliver(deliveryId) {
      const original = store.getDelivery(deliveryId)
      if (!original) return undefined
      const record = newRecord(
        original.reseller_id,
        original.webhook_id,
        original.event_id,
        original.event,
        original.payload,
      )
      store.insertDelivery(record)
      await run(record.delivery_id, generation)
      return store.getDelivery(record.delivery_id) ?? record
    },

    sendOnce(target, event, payload) {
      return sendChecked(target, 'reseller', newId(), event, JSON.stringify(payload))
    },

    resume() {
      generation++
      for (const cancel of cancels.values()) cancel()
      cancels.clear()
      for (const record of store.pendingDeliveries()) {
        if (record.next_attempt_at === null) continue
        schedule(record.delivery_id, Date.parse(record.next_attempt_at))
      }
    },

    async idle() {
      while (inFlight.size > 0) await Promise.all(inFlight.values())
    },

    stop() {
      generation++
      for (const cancel of cancels.values()) cancel()
      cancels.clear()
    },
  }
}
