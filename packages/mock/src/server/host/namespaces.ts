/**
 * The registry of namespaces: the mocks a standalone server hosts beside its root, each at
 * `/ns/{id}` (docs/running-the-mock.md, "Namespaces"). It makes them (through `build`, which the
 * server gives), finds them, renews them on every request, deletes them on request or once
 * `ttl_seconds` of real time passed without one, and tells the state file (`store`) of each change.
 * Expiry reads `now`, given by the server (`Date.now`) or by a test that moves it.
 */
import { ApiError } from '../../errors.js'
import type { SeedInput } from '../../seed/schema.js'
import { DEFAULT_RANDOM_SEED } from '../../state/random.js'
import type { NamespaceRecord } from '../state-file/namespaces.js'
import type { HostedMock } from './hosted-mock.js'

export type { NamespaceRecord } from '../state-file/namespaces.js'

export { DEFAULT_MAX_NAMESPACES } from './namespace-limits.js'

/** A namespace the server serves. */
export interface Namespace {
  readonly record: NamespaceRecord
  readonly mock: HostedMock
  /** API requests answered under its URL. */
  requests: number
}

/** What the state file does for the registry (`server/state-file/namespaces.ts`); absent in memory. */
export interface NamespaceStore {
  /** Writes a new namespace (its record and its whole state) in one transaction. */
  created(namespace: Namespace): void
  /** Removes a namespace's record and rows in one transaction. */
  deleted(id: string): void
  /** Records a later expiry (called at most once per renewal window, see {@link NamespaceRegistry.touch}). */
  renewed(record: NamespaceRecord): void
}

/** Options of {@link NamespaceRegistry}. */
export interface RegistryOptions {
  /** Most namespaces at once (`--max-namespaces`); `0` refuses every creation. */
  max: number
  /** Makes the mock of a namespace (its seed: `undefined` for the server's). */
  build: (record: NamespaceRecord, seed: SeedInput | undefined) => HostedMock
  /** Real time in ms; default `Date.now`. */
  now?: () => number
  store?: NamespaceStore
  /** Where a failed deletion of an expired namespace is reported (it is tried again). */
  warn?: (line: string) => void
}

/** What `POST /__mock/namespaces` asks for, checked. */
export interface NamespaceRequest {
  id?: string
  seed?: SeedInput
  randomSeed?: string | number
  ttlSeconds: number
  label?: string
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** `ns-` and 12 lower-case letters or digits. */
function generatedId(): string {
  // node:crypto loads on first use: loading it was a tenth of the server's start.
  const bytes = process.getBuiltinModule('node:crypto').randomBytes(12)
  let id = 'ns-'
  // An id names, it guards nothing: a byte modulo 36 is even enough.
  for (const byte of bytes) id += ID_ALPHABET[byte % 36]
  return id
}

/** 404 `namespace_not_found`, naming the id. */
export function namespaceNotFound(id: string): ApiError {
  return new ApiError(
    404,
    'namespace_not_found' as ApiError['code'],
    `no namespace "${id}": it was never made, was deleted, or may have expired (a namespace that gets no request for its ttl_seconds is deleted)`,
  )
}

/** The registry of a server's namespaces; see the module comment. */
export class NamespaceRegistry {
  readonly #byId = new Map<string, Namespace>()
  readonly #options: RegistryOptions
  readonly #now: () => number
  #sweeper: ReturnType<typeof setInterval> | undefined

  constructor(options: RegistryOptions) {
    this.#options = options
    this.#now = options.now ?? Date.now
  }

  /** The limit (`--max-namespaces`). */
  get max(): number {
    return this.#options.max
  }

  get size(): number {
    return this.#byId.size
  }

  /**
   * Makes a namespace; throws 409 `namespace_exists`, 429 `namespace_limit` (or the seed's
   * `SeedError`). Nothing is kept of a creation that failed.
   */
  create(request: NamespaceRequest): Namespace {
    this.sweep()
    const { max } = this.#options
    if (max === 0) {
      throw new ApiError(
        429,
        'namespace_limit' as ApiError['code'],
        'namespaces are turned off on this server (--max-namespaces 0); start it with --max-namespaces N to allow N',
      )
    }
    if (this.#byId.size >= max) {
      throw new ApiError(
        429,
        'namespace_limit' as ApiError['code'],
        `this server holds ${this.#byId.size} namespaces, its limit (--max-namespaces ${max}): delete some (DELETE /__mock/namespaces/{id}) or start it with a larger --max-namespaces`,
      )
    }
    let id = request.id
    if (id !== undefined && this.#byId.has(id)) {
      throw new ApiError(
        409,
        'namespace_exists' as ApiError['code'],
        `a namespace "${id}" exists already: delete it first (DELETE /__mock/namespaces/${id}) or choose another id`,
      )
    }
    while (id === undefined || this.#byId.has(id)) id = generatedId()
    const now = this.#now()
    const record: NamespaceRecord = {
      id,
      label: request.label ?? null,
      ttlSeconds: request.ttlSeconds,
      createdAtMs: now,
      expiresAtMs: now + request.ttlSeconds * 1000,
      randomSeed: request.randomSeed ?? DEFAULT_RANDOM_SEED,
      seedJson: request.seed === undefined ? null : JSON.stringify(request.seed),
    }
    const namespace: Namespace = { record, mock: this.#options.build(record, request.seed), requests: 0 }
    try {
      this.#options.store?.created(namespace)
    } catch (error) {
      namespace.mock.close()
      throw error
    }
    this.#byId.set(id, namespace)
    this.#startSweeper()
    return namespace
  }

  /** Puts back a namespace the state file kept (a restart); its mock made by the caller. */
  adopt(record: NamespaceRecord, mock: HostedMock): void {
    this.#byId.set(record.id, { record, mock, requests: 0 })
    this.#startSweeper()
  }

  /** Real time as the registry reads it. */
  now(): number {
    return this.#now()
  }

  /** The namespace `id`, unless it does not exist or has expired (then it is deleted now). */
  get(id: string): Namespace | undefined {
    const namespace = this.#byId.get(id)
    if (namespace && namespace.record.expiresAtMs <= this.#now()) {
      this.#expire(id)
      return undefined
    }
    return namespace
  }

  /** Every namespace held now, oldest first, expired or not (nothing is deleted). */
  held(): Namespace[] {
    return [...this.#byId.values()]
  }

  /** Every namespace, oldest first (expired ones deleted first). */
  list(): Namespace[] {
    this.sweep()
    return [...this.#byId.values()]
  }

  /**
   * A request under the namespace's URL: its expiry moves to now + ttl. The state file records an
   * expiry that leads the real one by up to a ttl (renewed once the lead is used up), so a restart
   * never drops a namespace that had not expired, at one write per ttl at most.
   */
  touch(namespace: Namespace): void {
    const { record } = namespace
    const now = this.#now()
    const expires = now + record.ttlSeconds * 1000
    if (expires > record.expiresAtMs) record.expiresAtMs = expires
    this.#options.store?.renewed(record)
  }

  /** Deletes the namespace `id`; whether there was one. Throws (and keeps it) when the state file cannot record it. */
  delete(id: string): boolean {
    const namespace = this.#byId.get(id)
    if (!namespace) return false
    this.#options.store?.deleted(id)
    this.#byId.delete(id)
    namespace.mock.close()
    return true
  }

  /** Deletes an expired namespace; a failed write is reported and tried again at the next sweep. */
  #expire(id: string): void {
    try {
      this.delete(id)
    } catch (error) {
      this.#options.warn?.(
        `reseller-mock: could not delete the expired namespace ${id}: ${(error as Error).message}`,
      )
    }
  }

  /** Deletes every namespace; how many there were. */
  clear(): number {
    let deleted = 0
    for (const id of [...this.#byId.keys()]) if (this.delete(id)) deleted++
    return deleted
  }

  /** Deletes every namespace whose expiry has passed. */
  sweep(): void {
    const now = this.#now()
    for (const [id, namespace] of this.#byId) if (namespace.record.expiresAtMs <= now) this.#expire(id)
  }

  /** Stops serving: every namespace's deliveries and timers stop; nothing is deleted (the state file keeps them). */
  close(): void {
    if (this.#sweeper) clearInterval(this.#sweeper)
    this.#sweeper = undefined
    for (const namespace of this.#byId.values()) namespace.mock.close()
  }

  #startSweeper(): void {
    if (this.#sweeper) return
    // Expiry is also checked at every lookup; the sweep frees the idle ones.
    this.#sweeper = setInterval(() => this.sweep(), SWEEP_MS)
    this.#sweeper.unref?.()
  }
}

/** How often expired namespaces are looked for. */
const SWEEP_MS = 1000
