/**
 * Control endpoints, under `{baseUrl}/__mock/`, no key needed: the operator's and
 * the test's hand on the state. The clock's are in `clock.ts`, `POST /__mock/events` in `events.ts`.
 */
import { Ticket } from '@reseller-api/sdk/schemas'
import { ResetDone, StaffReply, StaffReplyBody, TicketStatusBody } from '../control/schemas.js'
import { findAnyTicket, setTicketStatus, staffReply } from '../domain/tickets.js'
import { data, jsonAnswer } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'

const open = { auth: 'none' } as const

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
