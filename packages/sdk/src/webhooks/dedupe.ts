// The adapters' `dedupe` option: deliveries come at least once (a retry after a lost answer, a
// resend), so an adapter may remember the deliveries it handled and answer a copy without calling
// the hooks again (docs/webhooks.md, "Replays, retries and deduplication").

/**
 * Where the adapters record the deliveries they handle, for the `dedupe` option. The key is the
 * lowercase hex SHA-256 of the raw body (what the signature covers): two copies of one delivery,
 * and a resend of one event, have the same key.
 *
 * Both methods may be synchronous or return a promise: a shared store (Redis `SET key 1 NX EX …`,
 * an SQL `INSERT … ON CONFLICT DO NOTHING`) dedupes across processes.
 *
 * @example
 * ```ts
 * const store: DedupeStore = {
 *   claim: async (key) => (await redis.set(`webhook:${key}`, '1', { NX: true, EX: 7 * 86400 })) === 'OK',
 *   release: async (key) => void (await redis.del(`webhook:${key}`)),
 * }
 * ```
 */
export interface DedupeStore {
  /**
   * Records `key` as being handled. Returns `true` when it was not recorded yet (this delivery is
   * handled now), `false` when it was (a copy: answered 200 without calling the hooks). Must be
   * atomic for a store shared by concurrent requests: of two claims of one key, one gets `true`.
   */
  claim(key: string): boolean | Promise<boolean>
  /** Forgets `key`: the hook handling its delivery failed, so the sender's retry must be handled. */
  release(key: string): void | Promise<void>
}

/** How many delivery keys `dedupe: true` remembers: the most recently claimed ones. */
export const DEDUPE_MEMORY_LIMIT = 10_000

/** The store of `dedupe: true`: the last {@link DEDUPE_MEMORY_LIMIT} claimed keys, in this process's memory. */
export function memoryDedupeStore(): DedupeStore {
  // A Set iterates in insertion order: its first key is the oldest claim.
  const keys = new Set<string>()
  return {
    claim(key) {
      if (keys.has(key)) return false
      keys.add(key)
      if (keys.size > DEDUPE_MEMORY_LIMIT) keys.delete(keys.values().next().value!)
      return true
    },
    release(key) {
      keys.delete(key)
    },
  }
}
