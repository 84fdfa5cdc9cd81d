/**
 * The internal context of one mock: what routes, domain code and the webhook dispatcher share.
 * Two mocks never share a context, so they never share state.
 */
import type { DomainContext } from './domain/context.js'
import { createFaultRegistry, type FaultRegistry, type RouteTemplate } from './faults/registry.js'
import { createJournal, type Journal } from './journal/journal.js'
import { loadSeed, type PreparedSeed, prepareSeed } from './seed/prepared.js'
import type { Seed } from './seed/schema.js'
import type { Clock } from './state/clock.js'
import { createOutbox, type EventListener } from './state/events.js'
import { createRandom, DEFAULT_RANDOM_SEED } from './state/random.js'
import { createStore } from './state/store.js'
import { attachDispatcher, type MockDispatcher } from './webhooks/index.js'

export interface MockContext extends DomainContext {
  /** Normalized base URL (no trailing slash). */
  readonly baseUrl: string
  readonly clock: Clock
  /** The parsed seed that `reset()` returns to (uuids and secrets filled in; frozen). */
  readonly seed: Seed
  /** The request journal. */
  readonly journal: Journal
  /** The faults applied to API requests. */
  readonly faults: FaultRegistry
  /**
   * The webhook dispatcher: queues a delivery for every committed event and runs the attempts on
   * the clock. The standalone server configures it (`dispatcher.configure`) and stops it on close.
   */
  readonly dispatcher: MockDispatcher
  /** Registers a listener of committed events (the webhook dispatcher). Returns an unsubscribe function. */
  onEvent(listener: EventListener): () => void
  /**
   * Returns the state to the seed as first loaded (same ids, uuids and timestamps), empties the
   * journal and the faults, then tells the reset listeners.
   */
  reset(): void
  /** Registers a listener called after every reset (e.g. to drop pending deliveries). */
  onReset(listener: () => void): () => void
  /**
   * Records that the mock is served on a non-loopback address (a shared mock): from then on, for
   * the mock's lifetime, reseller webhooks follow the general target policy (unless
   * `insecureWebhooks`). See docs/running-the-mock.md, "Webhooks".
   */
  markServedOnNetwork(): void
  /**
   * Makes every committed change durable before an answer leaves (the standalone server's state
   * file sets it; see `ARCHITECTURE.md`, "Persistence"): `undefined` when everything is saved, a
   * rejected promise while a write keeps failing. The core awaits it after every request, so the
   * answer and its journal entry are the 500 a failed write turns them into.
   */
  durable: (() => Promise<void> | undefined) | undefined
}

export interface ContextOptions {
  baseUrl: string
  insecureWebhooks: boolean
  clock: Clock
  /** The seed (the format of docs/running-the-mock.md, "Seed format"), parsed here: throws `SeedError` on a bad one. */
  seed: unknown
  /**
   * The store starts empty, for a caller that restores a saved state at once, and `seed` is a
   * function giving the seed, read and parsed only when a reset (or `context.seed`) needs it: the
   * standalone server with a state file pays nothing at start for a large recorded seed.
   */
  deferSeed?: boolean
  /** Seed of the mock's id generator (`createMockApi({ randomSeed })`); default {@link DEFAULT_RANDOM_SEED}. */
  randomSeed?: string | number
  /** Entries the request journal keeps; default 1,000, `0` turns it off. */
  journalLimit?: number
  /** The route table, which fault matches are checked against; default: none. */
  routes?: readonly RouteTemplate[]
}

/** Creates a context and loads its seed. */
export function createContext(options: ContextOptions): MockContext {
  const store = createStore(options.clock)
  const outbox = createOutbox(store)
  const resetListeners = new Set<() => void>()
  const randomSeed = options.randomSeed ?? DEFAULT_RANDOM_SEED
  // Draws made while the mock runs count in the store (snapshot, undo); the seed's own draws are a
  // separate stream, so a reset (which clears the counters) never hands out a seeded uuid again.
  const random = createRandom(randomSeed, 'run', () => store.nextId('random'))
  // Parsed and resolved once per seed object and randomSeed (its uuids and secrets are a separate
  // stream); loaded again on reset with the same uuids, secrets and timestamps.
  let prepared: PreparedSeed | undefined
  const seed = () => {
    prepared ??= prepareSeed(options.deferSeed ? (options.seed as () => unknown)() : options.seed, randomSeed)
    return prepared
  }
  const seededAt = Math.floor(options.clock.nowMs() * 1000)
  if (!options.deferSeed) loadSeed(store, seed(), seededAt)
  const journal = createJournal(options.journalLimit)
  const faults = createFaultRegistry(options.routes ?? [])
  const onReset = (listener: () => void) => {
    resetListeners.add(listener)
    return () => resetListeners.delete(listener)
  }
  let onNetwork = false
  const shared = {
    insecureWebhooks: options.insecureWebhooks,
    servedOnNetwork: () => onNetwork,
    clock: options.clock,
    store,
    random,
    onEvent: outbox.onEvent,
    onReset,
  }
  // Queues a delivery for every committed event; attempts run on the clock (see webhooks/).
  const dispatcher = attachDispatcher(shared)
  return {
    ...shared,
    baseUrl: options.baseUrl,
    get seed() {
      return seed().seed
    },
    journal,
    faults,
    dispatcher,
    emit: outbox.emit,
    markServedOnNetwork() {
      onNetwork = true
    },
    durable: undefined,
    reset() {
      loadSeed(store, seed(), seededAt)
      journal.clear()
      faults.clear()
      for (const listener of resetListeners) listener()
    },
  }
}
