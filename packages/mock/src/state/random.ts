/**
 * The mock's own source of ids and secrets (ticket uuids, service ids, webhook secrets, delivery
 * ids). No `crypto.randomUUID` or `crypto.getRandomValues`: those are missing on pages served over
 * plain http from a non-loopback name, and refused at module scope in workerd. Instead each value
 * is a hash of the mock's `randomSeed`, a stream name and a draw number, so a run is reproducible
 * (same seed, same calls, same ids) and a draw number held in the store's counters travels with a
 * snapshot and is undone with a failing transaction.
 *
 * Not for secrets that guard anything: the values are predictable from the seed, on purpose.
 */

/** Where a generator takes its draw numbers from: `() => store.nextId('random')`, or a local counter. */
export type DrawCounter = () => number

/** Ids and secrets drawn from one stream of a seeded generator. */
export interface MockRandom {
  /** A version 4 UUID (`xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`), unique within the stream for 2^30 draws. */
  uuid(): string
  /** 32 lower-case hex digits (128 bits). */
  hex128(): string
}

/** murmur3's 32-bit finalizer: a bijection on 32-bit integers that spreads every input bit. */
function fmix32(value: number): number {
  let h = value >>> 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** FNV-1a of a string, then mixed: turns a seed or stream name into a 32-bit key. */
function hashString(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return fmix32(h)
}

/** The default `randomSeed` of a mock: runs are reproducible unless a test asks otherwise. */
export const DEFAULT_RANDOM_SEED = 'reseller-mock'

/**
 * A generator over `stream` of `seed`. Draw `n` gives four 32-bit words; word `i` is
 * `fmix32(fmix32(4n + i) ^ key_i)`, a bijection of the draw number, so two draws of one stream
 * never give the same first word (hence the same uuid) below 2^30 draws.
 */
export function createRandom(seed: string | number, stream: string, counter: DrawCounter): MockRandom {
  const base = hashString(`${seed}\u0000${stream}`)
  const keys = [0, 1, 2, 3].map((i) => fmix32(base + Math.imul(i + 1, 0x9e3779b9)))
  const words = (): number[] => {
    const n = counter() >>> 0
    return keys.map((key, i) => fmix32(fmix32(n * 4 + i) ^ key))
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16).padStart(8, '0')).join('')
  return {
    uuid() {
      const ws = words()
      // Version 4 in the 13th hex digit, variant 10xx in the 17th.
      ws[1] = ((ws[1]! & 0xffff0fff) | 0x00004000) >>> 0
      ws[2] = ((ws[2]! & 0x3fffffff) | 0x80000000) >>> 0
      const h = hex(ws)
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
    },
    hex128: () => hex(words()),
  }
}

/**
 * The first value of `draw()` that is not `taken`: an id the mock makes must never be one its store
 * already holds. A seed imported from another mock holds that mock's ids, and they were drawn from
 * the same seeded streams and counters, so the next draw may well be one of them.
 */
export function unusedId<T>(draw: () => T, taken: (value: T) => boolean): T {
  for (;;) {
    const value = draw()
    if (!taken(value)) return value
  }
}

/** A draw counter held in a closure: 1, 2, 3… */
export function localCounter(): DrawCounter {
  let n = 0
  return () => ++n
}
