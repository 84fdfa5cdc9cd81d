/**
 * Control endpoints, under `{baseUrl}/__mock/`, no key needed: the operator's and
 * the test's hand on the state. The clock's are in `clock.ts`, `POST /__mock/events` in `events.ts`.
 */
import { MessageText, Ticket, TicketMessage, TicketStatus } from '@reseller-api/sdk/schemas'
import * as z from 'zod/mini'
import { findAnyTicket, setTicketStatus, staffReply } from '../domain/tickets.js'
import { data, jsonAnswer } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'

const open = { auth: 'none' } as const

/** Body of `POST /__mock/tickets/{uuid}/replies`. */
export const StaffReplyBody = z.strictObject({
  message: MessageText,
  internal: z._default(z.boolean(), false),
})

/** Body of `PATCH /__mock/tickets/{uuid}`. */
export const TicketStatusBody = z.strictObject({ status: TicketStatus })

/** Answer of a staff reply: the message, and whether it is an internal note. */
export const StaffReply = z.extend(TicketMessage, { internal: z.boolean() })

/** Answer of `POST /__mock/reset`. */
export const ResetDone = z.object({ reset: z.literal(true) })

export const controlRoutes: Route[] = [
  route(
    'POST',
    '/__mock/reset',
    open,
    (call) => {
      call.mock.reset()
      return data(ResetDone, { reset: true })
    },
    { transaction: false },
  ),
  route('POST', '/__mock/tickets/:uuid/replies', open, (call) => {
    const ticket = findAnyTicket(call.mock.store, call.params.uuid!)
    const body = call.body(StaffReplyBody)
    return data(StaffReply, staffReply(call.mock, ticket, body.message, body.internal), 201)
  }),
  route('PATCH', '/__mock/tickets/:uuid', open, (call) => {
    const ticket = findAnyTicket(call.mock.store, call.params.uuid!)
    const body = call.body(TicketStatusBody)
    return data(Ticket, setTicketStatus(call.mock, ticket, body.status))
  }),
  // The operator's view: everything, secrets and API keys included.
  route('GET', '/__mock/state', open, (call) =>
    jsonAnswer(200, `{"success":true,"data":${JSON.stringify(call.mock.store.snapshot({ copy: false }))}}`),
  ),
]
