/**
 * Control endpoints, under `{baseUrl}/__mock/`, no key needed: the operator's and
 * the test's hand on the state. The clock's are in `clock.ts`, `POST /__mock/events` in `events.ts`.
 */
import { control } from '../control/operations.js'
import { findAnyTicket, setTicketStatus, staffReply } from '../domain/tickets.js'
import { jsonAnswer } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'

export const controlRoutes: Route[] = [
  route(
    control.state.reset,
    (call) => {
      call.mock.reset()
      return call.answer({ reset: true })
    },
    { transaction: false },
  ),
  route(control.tickets.staffReply, (call) => {
    const ticket = findAnyTicket(call.mock.store, call.params.uuid!)
    const body = call.body()
    return call.answer(staffReply(call.mock, ticket, body.message, body.internal))
  }),
  route(control.tickets.setStatus, (call) => {
    const ticket = findAnyTicket(call.mock.store, call.params.uuid!)
    return call.answer(setTicketStatus(call.mock, ticket, call.body().status))
  }),
  // The operator's view: everything, secrets and API keys included. The store's own JSON, which no
  // zod schema states (its declaration describes it with a JSON Schema).
  route(control.state.get, (call) =>
    jsonAnswer(
      control.state.get.status,
      `{"success":true,"data":${JSON.stringify(call.mock.store.snapshot({ copy: false }))}}`,
    ),
  ),
]
