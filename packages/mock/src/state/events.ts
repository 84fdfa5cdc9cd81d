/**
 * The event outbox. Domain code emits `{ resellerId, style, event, sandbox, data }`; the outbox
 * builds the wire payload, checks it against the SDK's `ResellerEvent` / `GeneralEvent` schema,
 * appends it to the `events` table (inside the caller's transaction: a failing request emits
 * nothing) and, once that transaction commits, hands the stored row to every listener. The webhook
 * dispatcher is such a listener: it queues deliveries on the clock; no request ever awaits one.
 */
import { describeFieldErrors, fieldErrors, GeneralEvent, ResellerEvent } from '@reseller-api/sdk/schemas'
import { withUtcOffset } from './clock.js'
import { unusedId } from './random.js'
import { pruneEvents } from './retention.js'
import type { EventRow, EventStyle } from './schemas.js'
import type { Store } from './store.js'
import { StoreError } from './table.js'

/** What domain code emits. */
export interface EmitInput {
  resellerId: number
  style: EventStyle
  /** Event name: `hosting.created`, `ticket.created`… */
  event: string
  /** Caused by a sandbox key. Reseller-style payloads carry it; general-style payloads have no such field. */
  sandbox: boolean
  data: Record<string, unknown>
}

/** Receives each stored event once its transaction has committed. */
export type EventListener = (event: EventRow) => void

export interface Outbox {
  /** Appends an event to the outbox; listeners hear of it after the surrounding transaction commits. */
  emit(input: EmitInput): EventRow
  /** Registers a listener; returns an unsubscribe function. */
  onEvent(listener: EventListener): () => void
}

/** Creates the outbox of one store. */
export function createOutbox(store: Store): Outbox {
  const listeners = new Set<EventListener>()
  return {
    emit(input) {
      const created_at = store.timestamp()
      const payload =
        input.style === 'reseller'
          ? { event: input.event, sandbox: input.sandbox, timestamp: created_at, data: input.data }
          : { event: input.event, created_at: withUtcOffset(created_at), data: input.data }
      const check = (input.style === 'reseller' ? ResellerEvent : GeneralEvent).safeParse(payload, {
        reportInput: true,
      })
      if (!check.success) {
        throw new StoreError(
          `event ${input.event}: payload does not match the SDK schema: ${describeFieldErrors(fieldErrors(check.error.issues))}`,
        )
      }
      const row = store.events.insert({
        id: unusedId(
          () => store.nextId('event'),
          (id) => store.events.get(id) !== undefined,
        ),
        reseller_id: input.resellerId,
        style: input.style,
        event: input.event,
        sandbox: input.sandbox,
        payload,
        created_at,
      })
      // Bounded outbox: the reseller's oldest events beyond the limit go, in the same transaction.
      pruneEvents(store, input.resellerId)
      store.afterCommit(() => {
        for (const listener of listeners) {
          try {
            listener(row)
          } catch (error) {
            console.error('[reseller-mock] event listener failed:', error)
          }
        }
      })
      return row
    },
    onEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
