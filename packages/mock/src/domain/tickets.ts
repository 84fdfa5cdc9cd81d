/**
 * Support tickets: the state machine of docs/spec-decisions.md, "Mock: tickets", messages with internal notes.
 *
 * - `messages_count` counts the messages a client can see (internal notes excluded).
 * - A client reply to a `resolved` ticket moves it back to `open`; to a `closed` one is refused.
 * - A staff reply (control endpoint) that is not internal moves an `open` ticket to `in_progress`
 *   and emits `ticket.replied`; internal notes change nothing a client can see.
 */
import type { MessageAuthor, TicketCreateBody, TicketDetail, TicketStatus } from '@reseller-api/sdk/schemas'
import { errors } from '../errors.js'
import { unusedId } from '../state/random.js'
import type { MessageRow, TicketRow } from '../state/schemas.js'
import type { Store } from '../state/store.js'
import type { Caller } from './caller.js'
import type { DomainContext } from './context.js'

/** The ticket with this uuid, of any reseller (control endpoints). */
export function findAnyTicket(store: Store, uuid: string): TicketRow {
  const ticket = store.tickets.by('uuid', uuid)
  if (!ticket) throw errors.notFound(`ticket ${uuid}`)
  return ticket
}

/** The caller's ticket with this uuid (404 for an unknown one or another reseller's). */
export function findTicket(store: Store, caller: Caller, uuid: string): TicketRow {
  const ticket = store.tickets.by('uuid', uuid)
  if (!ticket || ticket.reseller_id !== caller.reseller.id) throw errors.notFound(`ticket ${uuid}`)
  return ticket
}

/** Opens a ticket with its first message; `service_id` is kept only if it names one of the caller's services. */
export function createTicket(mock: DomainContext, caller: Caller, body: TicketCreateBody): TicketRow {
  const { store } = mock
  const service = body.service_id === undefined ? undefined : store.services.get(body.service_id)
  const created_at = store.timestamp()
  const ticket = store.tickets.insert({
    id: unusedId(
      () => store.nextId('ticket'),
      (id) => store.tickets.get(id) !== undefined,
    ),
    uuid: unusedId(
      () => mock.random.uuid(),
      (uuid) => store.tickets.by('uuid', uuid) !== undefined,
    ),
    user_id: caller.reseller.id,
    subject: body.subject,
    department: body.department,
    status: 'open',
    priority: body.priority,
    messages_count: 1,
    created_at,
    updated_at: created_at,
    reseller_id: caller.reseller.id,
    service_id: service && service.reseller_id === caller.reseller.id ? service.id : null,
  })
  addMessage(store, ticket, body.message, 'client', false, created_at)
  mock.emit({
    resellerId: caller.reseller.id,
    style: 'general',
    event: 'ticket.created',
    sandbox: caller.sandbox,
    data: {
      ticket_id: ticket.uuid,
      subject: ticket.subject,
      department: ticket.department,
      priority: ticket.priority,
      status: ticket.status,
    },
  })
  return ticket
}

/** The ticket with its non-internal messages, oldest first. */
export function ticketDetail(store: Store, ticket: TicketRow): TicketDetail {
  const messages = store.messages
    .group('ticket', ticket.id)
    .filter((m) => !m.internal)
    .map(({ id, message, from, created_at }) => ({ id, message, from, created_at }))
  return { ...ticket, messages }
}

function addMessage(
  store: Store,
  ticket: TicketRow,
  message: string,
  from: MessageAuthor,
  internal: boolean,
  created_at = store.timestamp(),
) {
  return store.messages.insert({
    id: unusedId(
      () => store.nextId('message'),
      (id) => store.messages.get(id) !== undefined,
    ),
    ticket_id: ticket.id,
    message,
    from,
    internal,
    created_at,
  })
}

/** A client reply: refused on `closed`; a `resolved` ticket goes back to `open`. */
export function replyToTicket(mock: DomainContext, ticket: TicketRow, message: string): MessageRow {
  const { store } = mock
  if (ticket.status === 'closed') {
    throw errors.invalidState('this ticket is closed and takes no more messages; reopen it first')
  }
  const row = addMessage(store, ticket, message, 'client', false)
  store.tickets.update(ticket, {
    status: ticket.status === 'resolved' ? 'open' : ticket.status,
    messages_count: ticket.messages_count + 1,
    updated_at: row.created_at,
  })
  return row
}

/** Closes a ticket from any state but `closed` (422 `invalid_state` then). */
export function closeTicket(mock: DomainContext, ticket: TicketRow): TicketRow {
  if (ticket.status === 'closed') throw errors.invalidState('this ticket is already closed')
  return mock.store.tickets.update(ticket, { status: 'closed', updated_at: mock.store.timestamp() })
}

/** Reopens a `closed` or `resolved` ticket; `open` and `in_progress` ones are refused (422 `invalid_state`). */
export function reopenTicket(mock: DomainContext, ticket: TicketRow): TicketRow {
  if (ticket.status !== 'closed' && ticket.status !== 'resolved') {
    throw errors.invalidState(
      `only a closed or resolved ticket can be reopened; this one is ${ticket.status}`,
    )
  }
  return mock.store.tickets.update(ticket, { status: 'open', updated_at: mock.store.timestamp() })
}

/**
 * A staff reply (control endpoint). Refused on a `closed` ticket like a client reply. A visible
 * one moves `open` to `in_progress`, counts in `messages_count` and emits `ticket.replied`.
 */
export function staffReply(
  mock: DomainContext,
  ticket: TicketRow,
  message: string,
  internal: boolean,
): MessageRow {
  const { store } = mock
  if (ticket.status === 'closed') {
    throw errors.invalidState('this ticket is closed and takes no more messages; set another status first')
  }
  const row = addMessage(store, ticket, message, 'staff', internal)
  if (internal) return row
  store.tickets.update(ticket, {
    status: ticket.status === 'open' ? 'in_progress' : ticket.status,
    messages_count: ticket.messages_count + 1,
    updated_at: row.created_at,
  })
  mock.emit({
    resellerId: ticket.reseller_id,
    style: 'general',
    event: 'ticket.replied',
    sandbox: false,
    data: { ticket_id: ticket.uuid, message_id: row.id, message: row.message, status: ticket.status },
  })
  return row
}

/** Staff sets any status (control endpoint). Setting the current status changes nothing. */
export function setTicketStatus(mock: DomainContext, ticket: TicketRow, status: TicketStatus): TicketRow {
  if (ticket.status === status) return ticket
  return mock.store.tickets.update(ticket, { status, updated_at: mock.store.timestamp() })
}
