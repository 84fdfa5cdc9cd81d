/**
 * What domain operations need of a mock: its store, id generator, webhook setting and event outbox.
 * The mock's context (`src/context.ts`) is one; domain code depends on this narrow view only, so
 * the seed (which uses domain rules) can be loaded by the context without an import cycle.
 */
import type { EmitInput } from '../state/events.js'
import type { MockRandom } from '../state/random.js'
import type { EventRow } from '../state/schemas.js'
import type { Store } from '../state/store.js'

export interface DomainContext {
  readonly store: Store
  /** Ids and secrets made while the mock runs: seeded, reproducible. */
  readonly random: MockRandom
  /** General webhooks may target `http://` and private hosts. */
  readonly insecureWebhooks: boolean
  /**
   * Whether the mock is served on an address other machines can reach (bound to a non-loopback
   * address): the reseller webhook then follows the general webhooks' target policy too.
   */
  servedOnNetwork(): boolean
  /** Appends an event to the outbox; listeners hear of it once the current transaction commits. */
  emit(input: EmitInput): EventRow
}
