/**
 * The webhook dispatcher: records deliveries, schedules their attempts on the mock's clock, and
 * retries failed ones on the schedule (`RETRY_DELAYS_MS`). Attempts run later, never inside the
 * request that caused the event. The vocabulary is in `types.ts`, one attempt's sending in `sender.ts`.
 */
import { type Clock, toTimestampMicros } from '../state/clock.js'
import {
  createRandom,
  DEFAULT_RANDOM_SEED,
  localCounter,
  type MockRandom,
  unusedId,
} from '../state/random.js'
import type { AttemptResult } from './attempt.js'
import { DeliverySender } from './sender.js'
import {
  type DeliverNowOptions,
  type DeliveryNotice,
  type DeliveryRecord,
  type DeliveryStore,
  type Dispatcher,
  type DispatcherOptions,
  MAX_ATTEMPTS,
  type OutboxEvent,
  RESELLER_WEBHOOK_ID,
  RETRY_DELAYS_MS,
} from './types.js'

export {
  type DeliverNowOptions,
  type DeliveryNotice,
  type DeliveryRecord,
  type DeliveryStore,
  type DeliveryStyle,
  type DeliveryTarget,
  type Dispatcher,
  type DispatcherOptions,
  MAX_ATTEMPTS,
  OPAQUE_FAILURE,
  type OutboxEvent,
  RESELLER_WEBHOOK_ID,
  RETRY_DELAYS_MS,
} from './types.js'

/** `dlv_` and 32 hex digits drawn from `random`. */
export function deliveryIdFrom(random: MockRandom): () => string {
  return () => `dlv_${random.hex128()}`
}

/** Creates a {@link Dispatcher}. */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  return new DeliveryDispatcher(options)
}

const isReseller = (record: DeliveryRecord) => record.webhook_id === RESELLER_WEBHOOK_ID

class DeliveryDispatcher implements Dispatcher {
  readonly #clock: Clock
  readonly #store: DeliveryStore
  readonly #sender: DeliverySender
  readonly #newId: () => string
  readonly #onChange: (() => void) | undefined
  readonly #notify: ((notice: DeliveryNotice) => void) | undefined
  /** Scheduled attempts by delivery id: cancels the clock task. */
  readonly #cancels = new Map<string, () => void>()
  /** The attempt running now, by delivery id: one attempt of a delivery at a time. */
  readonly #inFlight = new Map<string, Promise<void>>()
  /** Bumped by `resume` and `stop`: attempts of an older generation change nothing. */
  #generation = 0

  constructor(options: DispatcherOptions) {
    this.#clock = options.clock
    this.#store = options.store
    this.#sender = new DeliverySender(options)
    this.#newId =
      options.newId ?? deliveryIdFrom(createRandom(DEFAULT_RANDOM_SEED, 'delivery', localCounter()))
    this.#onChange = options.onChange
    this.#notify = options.notify
  }

  enqueue(event: OutboxEvent): DeliveryRecord[] {
    const body = JSON.stringify(event.payload)
    const targets =
      event.style === 'reseller'
        ? this.#store.resellerWebhook(event.reseller_id)
          ? [RESELLER_WEBHOOK_ID]
          : []
        : this.#store.subscribedWebhooks(event.reseller_id, event.event).map((w) => w.id)
    const at = this.#clock.nowMs()
    return targets.map((webhookId) => {
      const record = this.#newRecord(event.reseller_id, webhookId, event.id, event.event, body)
      this.#insert(record)
      this.#schedule(record.delivery_id, at)
      return record
    })
  }

  deliverNow(
    resellerId: number,
    webhookId: string,
    event: string,
    payload: unknown,
    options?: DeliverNowOptions,
  ): Promise<DeliveryRecord> {
    const record = this.#newRecord(resellerId, webhookId, null, event, JSON.stringify(payload))
    return this.#recordAndRun(record, options?.retry ?? true)
  }

  async redeliver(deliveryId: string): Promise<DeliveryRecord | undefined> {
    const original = this.#store.getDelivery(deliveryId)
    if (!original) return undefined
    const { reseller_id, webhook_id, event_id, event, payload } = original
    const record = this.#newRecord(reseller_id, webhook_id, event_id, event, payload)
    // The id the receiver saw: the first delivery's, however often it was redelivered since.
    record.redelivery_of = original.redelivery_of ?? original.delivery_id
    return this.#recordAndRun(record, true)
  }

  resume(): void {
    this.stop()
    for (const record of this.#store.pendingDeliveries()) {
      if (record.next_attempt_at === null) continue
      this.#schedule(record.delivery_id, Date.parse(record.next_attempt_at))
    }
  }

  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight.values())
  }

  stop(): void {
    this.#generation++
    for (const cancel of this.#cancels.values()) cancel()
    this.#cancels.clear()
  }

  /** Stores a new delivery and makes its first attempt at once; resolves the record after it. */
  async #recordAndRun(record: DeliveryRecord, retry: boolean): Promise<DeliveryRecord> {
    this.#insert(record)
    await this.#run(record.delivery_id, this.#generation, retry)
    return this.#store.getDelivery(record.delivery_id) ?? record
  }

  #insert(record: DeliveryRecord): void {
    this.#store.insertDelivery(record)
    if (this.#notify)
      this.#notify({ type: 'queued', delivery: record, url: this.#target(record)?.url ?? null })
  }

  /** Where `record` goes now: the webhook as configured at this moment, if it still exists. */
  #target(record: DeliveryRecord) {
    return isReseller(record)
      ? this.#store.resellerWebhook(record.reseller_id)
      : this.#store.generalWebhook(record.webhook_id)
  }

  #schedule(deliveryId: string, at: number): void {
    this.#cancels.get(deliveryId)?.()
    const generation = this.#generation
    this.#cancels.set(
      deliveryId,
      this.#clock.schedule(at, () => this.#run(deliveryId, generation)),
    )
  }

  async #run(deliveryId: string, generation: number, retry = true): Promise<void> {
    if (generation !== this.#generation) return
    this.#cancels.delete(deliveryId)
    // One attempt of a delivery at a time: after a resume, wait for the attempt of the old generation.
    const previous = this.#inFlight.get(deliveryId)
    if (previous) await previous
    if (generation !== this.#generation || this.#inFlight.has(deliveryId)) return
    const running = this.#attempt(deliveryId, generation, retry).finally(() =>
      this.#inFlight.delete(deliveryId),
    )
    this.#inFlight.set(deliveryId, running)
    return running
  }

  async #attempt(deliveryId: string, generation: number, retry: boolean): Promise<void> {
    const store = this.#store
    const record = store.getDelivery(deliveryId)
    // Nothing left to try, or rescheduled for later meanwhile.
    if (
      !record ||
      record.next_attempt_at === null ||
      Date.parse(record.next_attempt_at) > this.#clock.nowMs()
    )
      return
    // The schedule counts from the attempt's start: a slow receiver must not push its retry later.
    const startedAt = this.#clock.nowMs()
    const target = this.#target(record)
    const result: AttemptResult = target
      ? await this.#sender.send(
          target,
          isReseller(record) ? 'reseller' : 'general',
          record.redelivery_of ?? record.delivery_id,
          record.event,
          record.payload,
        )
      : { ok: false, httpStatus: null, error: 'webhook no longer configured', durationMs: 0 }
    if (generation !== this.#generation || !store.getDelivery(deliveryId)) return
    const attempts = record.attempts + 1
    const retryIn =
      result.ok || !retry || attempts >= MAX_ATTEMPTS ? undefined : RETRY_DELAYS_MS[attempts - 1]
    const nextAt = retryIn === undefined ? undefined : startedAt + retryIn
    const patch: Partial<DeliveryRecord> = {
      status: result.ok ? 'success' : 'failed',
      http_status: result.httpStatus,
      error: result.error ?? undefined,
      duration_ms: result.ok ? result.durationMs : undefined,
      attempts,
      retries: attempts - 1,
      attempted_at: toTimestampMicros(new Date(startedAt)),
      next_attempt_at: nextAt === undefined ? null : toTimestampMicros(new Date(nextAt)),
    }
    store.updateDelivery(deliveryId, patch)
    if (nextAt !== undefined) this.#schedule(deliveryId, nextAt)
    this.#onChange?.()
    if (this.#notify) {
      // The record as updated (the history may have pruned it already: then as it would read).
      const delivery = store.getDelivery(deliveryId) ?? { ...record, ...patch }
      this.#notify({ type: 'attempt', delivery, url: target?.url ?? null, result })
    }
  }

  #newRecord(
    resellerId: number,
    webhookId: string,
    eventId: number | null,
    event: string,
    payload: string,
  ): DeliveryRecord {
    const now = toTimestampMicros(this.#clock.now())
    return {
      delivery_id: unusedId(this.#newId, (id) => this.#store.getDelivery(id) !== undefined),
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
      redelivery_of: null,
    }
  }
}
