/**
 * The control endpoints in typed, in-process form: `mock.state()`,
 * `mock.tickets.staffReply/setStatus`, `mock.emit`. Each action sends the request of its endpoint's
 * declaration (`control/operations.ts`) through the very route that answers it (same checks, same
 * transaction, same events), so the two never drift; a refusal
 * rejects with a {@link ApiError} carrying the status, code and fields the endpoint would answer.
 */
import type { FieldErrors, Ticket, TicketStatus } from '@reseller-api/sdk/schemas'
import type * as z from 'zod/mini'
import type { MockContext } from './context.js'
import { type ControlEndpoint, controlPath } from './control/endpoint.js'
import { control } from './control/operations.js'
import type { EmitEventInput, EmittedEvent, MockState, StaffReplyResult } from './control/types.js'
import { ApiError } from './errors.js'
import type { MockHandler } from './routing/types.js'

export type {
  EmitEventInput,
  EmittedEvent,
  GeneralEmitInput,
  MockState,
  ResellerEmitInput,
  StaffReplyResult,
} from './control/types.js'

/** The support staff's side of tickets. */
export interface MockTickets {
  /**
   * A staff reply, as `POST /__mock/tickets/{uuid}/replies`: a visible one moves an `open` ticket
   * to `in_progress` and emits `ticket.replied`; an internal note changes nothing the API shows.
   * Rejects with {@link ApiError} 404 for an unknown ticket, 422 `invalid_state` on a closed one.
   */
  staffReply(uuid: string, reply: { message: string; internal?: boolean }): Promise<StaffReplyResult>
  /** Staff sets any status, as `PATCH /__mock/tickets/{uuid}`; resolves the ticket. */
  setStatus(uuid: string, status: TicketStatus): Promise<Ticket>
}

/** The typed control methods of a mock. */
export interface MockControls {
  state(): MockState
  tickets: MockTickets
  emit<const I extends EmitEventInput>(input: I): Promise<EmittedEvent<I>>
}

const noHeaders = { get: () => null }

/** Creates the in-process controls of a mock over its route handler. */
export function createControls(handle: MockHandler, context: MockContext): MockControls {
  /**
   * Runs the request of a control declaration through the routes; resolves its `data` (already
   * through the declaration's schema on the way out), or rejects with the answer's error.
   */
  const send = async <E extends ControlEndpoint>(
    declaration: E,
    params: Readonly<Record<string, string>> | undefined,
    body: unknown,
  ): Promise<z.output<E['data']>> => {
    const answer = await handle({
      method: declaration.method,
      path: controlPath(declaration, params),
      query: new URLSearchParams(),
      headers: noHeaders,
      body: JSON.stringify(body),
    })
    const parsed = answer.body === '' ? undefined : JSON.parse(answer.body)
    if (answer.status >= 400) {
      const error = parsed?.error ?? {}
      throw new ApiError(answer.status, error.code, error.message, error.fields as FieldErrors | undefined)
    }
    return parsed?.data
  }
  return {
    // The same JSON the endpoint answers, without the round trip through a request.
    state: () => JSON.parse(JSON.stringify(context.store.snapshot({ copy: false }))),
    tickets: {
      staffReply: (uuid, reply) => send(control.tickets.staffReply, { uuid }, reply),
      setStatus: (uuid, status) => send(control.tickets.setStatus, { uuid }, { status }),
    },
    emit: async (input) => (await send(control.events.emit, undefined, input)) as never,
  }
}
