/** Support tickets. Sandbox keys are read-only here. */
import { operations } from '@reseller-api/sdk/schemas'
import {
  closeTicket,
  createTicket,
  findTicket,
  reopenTicket,
  replyToTicket,
  ticketDetail,
} from '../domain/tickets.js'
import { type Route, route } from '../routing/route.js'

const { tickets } = operations

export const ticketRoutes: Route[] = [
  route(tickets.list, (call) =>
    call.answerPage(call.mock.store.tickets.group('reseller', call.caller.reseller.id)),
  ),
  route(tickets.create, (call) => {
    const ticket = createTicket(call.mock, call.caller, call.body())
    return call.answer({ ticket_id: ticket.uuid, ...ticket })
  }),
  route(tickets.get, (call) => {
    const ticket = findTicket(call.mock.store, call.caller, call.params.ticket_uuid!)
    // Every visible change of a ticket's messages also updates the ticket (count, updated_at), so
    // the detail is cached under the ticket's version; internal notes change neither.
    return call.answerRecord(ticket, () => ticketDetail(call.mock.store, ticket))
  }),
  route(tickets.reply, (call) => {
    const ticket = findTicket(call.mock.store, call.caller, call.params.ticket_uuid!)
    const body = call.body()
    return call.answer(replyToTicket(call.mock, ticket, body.message))
  }),
  route(tickets.close, (call) => {
    const ticket = closeTicket(call.mock, findTicket(call.mock.store, call.caller, call.params.ticket_uuid!))
    return call.answer({ ticket_id: ticket.uuid, status: ticket.status })
  }),
  route(tickets.reopen, (call) => {
    const ticket = reopenTicket(call.mock, findTicket(call.mock.store, call.caller, call.params.ticket_uuid!))
    return call.answer({ ticket_id: ticket.uuid, status: ticket.status })
  }),
]
