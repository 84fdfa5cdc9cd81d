/**
 * The webhook side of a mock: one dispatcher per mock context (`context.dispatcher`), fed by the
 * event outbox, reset with the state, reading and writing delivery rows in the store.
 */
import type { Clock } from '../state/clock.js'
import type { EventListener } from '../state/events.js'
import type { MockRandom } from '../state/random.js'
import { pruneDeliveries } from '../state/retention.js'
import type { Store } from '../state/store.js'
import {
  createDispatcher,
  type DeliveryNotice,
  type DeliveryStore,
  type Dispatcher,
  type DispatcherOptions,
  deliveryIdFrom,
} from './dispatcher.js'

/** Options a mock's owner may change after creation (the standalone server does). */
export type DispatcherSettings = Pick<DispatcherOptions, 'bypassMsw' | 'fetch' | 'onChange' | 'timeoutMs'>

/** A dispatcher bound to a mock's context. */
export interface MockDispatcher extends Dispatcher {
  /** Changes delivery settings for the attempts that start from now on. */
  configure(settings: DispatcherSettings): void
  /**
   * Calls `listener` with every delivery queued and every attempt made, synchronously, as they
   * happen (the delivery stream, the request log); returns the function that unsubscribes it.
   */
  onDelivery(listener: (notice: DeliveryNotice) => void): () => void
  /**
   * Runs `fn` and pushes onto `queued` the id of every delivery queued while it runs synchronously:
   * the deliveries a request caused (the core's `X-Mock-Deliveries`). An event's deliveries are
   * queued when its transaction commits, and a test or a redelivery records its delivery before
   * its first `await`, so the synchronous part of a route is where they all happen.
   */
  collectQueued<R>(queued: string[], fn: () => R): R
}

/** What a dispatcher is attached to: the parts of a mock's context it reads and listens to. */
export interface DispatcherHost {
  readonly clock: Clock
  readonly store: Store
  readonly random: MockRandom
  readonly insecureWebhooks: boolean
  /** Whether the mock is served on a non-loopback address now (see `DomainContext`). */
  servedOnNetwork(): boolean
  onEvent(listener: EventListener): () => void
  onReset(listener: () => void): () => void
}

/** The {@link DeliveryStore} view of a mock's store. */
export function deliveryStoreOf(store: Store): DeliveryStore {
  return {
    // Each write may finish a delivery or add one: the webhook's history is pruned to its limit.
    insertDelivery(record) {
      store.deliveries.insert(record)
      pruneDeliveries(store, record)
    },
    updateDelivery(id, patch) {
      const row = store.deliveries.get(id)
      if (!row) return
      store.deliveries.update(row, patch)
      if (row.next_attempt_at === null) pruneDeliveries(store, row)
    },
    getDelivery: (id) => store.deliveries.get(id),
    pendingDeliveries: () => Array.from(store.deliveries.all()).filter((d) => d.next_attempt_at !== null),
    resellerWebhook(resellerId) {
      const row = store.resellerWebhooks.get(resellerId)
      return row ? { url: row.url, secret: row.secret } : undefined
    },
    generalWebhook(id) {
      const row = store.webhooks.get(id)
      return row ? { url: row.url, secret: row.secret } : undefined
    },
    subscribedWebhooks: (resellerId, event) =>
      store.webhooks
        .group('reseller', resellerId)
        .filter((w) => (w.events as string[]).includes(event))
        .map((w) => ({ id: w.id, url: w.url, secret: w.secret })),
  }
}

/**
 * Creates the dispatcher of a mock: every committed event is queued for delivery, and a reset
 * re-schedules from the (reset) delivery rows. The context calls it once, when it is created.
 */
export function attachDispatcher(context: DispatcherHost): MockDispatcher {
  const settings: DispatcherSettings = {}
  const listeners = new Set<(notice: DeliveryNotice) => void>()
  let collecting: string[] | undefined
  const notify = (notice: DeliveryNotice) => {
    if (notice.type === 'queued') collecting?.push(notice.delivery.delivery_id)
    for (const listener of listeners) {
      try {
        listener(notice)
      } catch (error) {
        console.error('[reseller-mock] delivery listener failed:', error)
      }
    }
  }
  let dispatcher = build()
  function build() {
    return createDispatcher({
      ...settings,
      clock: context.clock,
      store: deliveryStoreOf(context.store),
      insecureWebhooks: context.insecureWebhooks,
      servedOnNetwork: context.servedOnNetwork,
      newId: deliveryIdFrom(context.random),
      // Through `settings`, so that `configure` also reaches attempts already scheduled.
      onChange: () => settings.onChange?.(),
      // Through the bound dispatcher, whose listeners outlive a rebuild.
      notify,
    })
  }
  // An event row is an `OutboxEvent` (id, reseller_id, style, event, payload).
  context.onEvent((event) => dispatcher.enqueue(event))
  context.onReset(() => dispatcher.resume())
  const bound: MockDispatcher = {
    enqueue: (event) => dispatcher.enqueue(event),
    deliverNow: (...args) => dispatcher.deliverNow(...args),
    redeliver: (id) => dispatcher.redeliver(id),
    resume: () => dispatcher.resume(),
    idle: () => dispatcher.idle(),
    stop: () => dispatcher.stop(),
    onDelivery(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    collectQueued(queued, fn) {
      const outer = collecting
      collecting = queued
      try {
        return fn()
      } finally {
        collecting = outer
      }
    },
    configure(next) {
      const rebuild = next.bypassMsw !== undefined || next.timeoutMs !== undefined || next.fetch !== undefined
      Object.assign(settings, next)
      if (rebuild) {
        // Fetch settings are fixed per dispatcher: swap in a new one over the same rows.
        dispatcher.stop()
        dispatcher = build()
        dispatcher.resume()
      }
    },
  }
  return bound
}
