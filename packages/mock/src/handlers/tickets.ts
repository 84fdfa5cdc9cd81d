/** Support tickets. Sandbox keys are read-only here. */
import {
  operations,
  Ticket,
  TicketCreated,
  TicketDetail,
  TicketMessage,
  TicketStatusChange,
} from '@reseller-api/sdk/schemas'
import {
  closeTicket,
  createTicket,
  findTicket,
  reopenTicket,
  replyToTicket,
  ticketDetail,
} from '../domain/tickets.js'
import { data, page, record, serializer } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'
import type { TicketRow } from '../state/schemas.js'

const { tickets } = operations
const ticketJson = serializer<TicketRow>(Ticket)
// Every visible change of a ticket's messages also updates the ticket (count, updated_at), so the
// detail can be cached under the ticket's version; internal notes change neither.
const detailJson = serializer<TicketRow>(TicketDetail)

export const ticketRoutes: Route[] = [
  route(tickets.list, (call) =>
    page(ticketJson, call.mock.store.tickets.group('reseller', call.caller.reseller.id), call.page()),
  ),
  route(tickets.create, (call) => {
    const ticket = createTicket(call.mock, call.caller, call.body())
    return data(TicketCreated, { ticket_id: ticket.uuid, ...ticket }, 201)
  }),
  route(tickets.get, (call) => {
    const ticket = findTicket(call.mock.store, call.caller, call.params.ticket_uuid!)
    return record(detailJson, ticket, 200, () => ticketDetail(call.mock.store, ticket))
  }),
  route(tickets.reply, (call) => {
    const ticket = findTicket(call.mock.store, call.caller, call.params.ticket_uuid!)
    const body = call.body()
    return data(TicketMessage, replyToTicket(call.mock, ticket, body.message), 201)
  }),
  route(tickets.close, (call) => {
    const ticket = closeTicket(call.mock, findTicket(call.mock.store, call.caller, call.params.ticket_uuid!))
    return data(TicketStatusChange, { ticket_id: ticket.uuid, status: ticket.status })
  }),
  route(tickets.reopen, (call) => {
    const ticket = reopenTicket(call.mock, findTicket(call.mock.store, call.caller, call.params.ticket_uuid!))
    return data(TicketStatusChange, { ticket_id: ticket.uuid, status: ticket.status })
  }),
]
