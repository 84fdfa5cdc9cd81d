/**
 * Support tickets: the declarations of their operations (used by `api.tickets`, the OpenAPI
 * document and the mock's handlers) and, beside them, their texts for the document.
 */
import { endpoint, listEndpoint } from '../core/endpoint.js'
import type { OperationTexts } from '../openapi/spec.js'
import { Uuid } from '../schemas/common.js'
import {
  Ticket,
  TicketCreateBody,
  TicketCreated,
  TicketDetail,
  TicketMessage,
  TicketReplyBody,
  TicketStatusChange,
} from '../schemas/tickets.js'

const read = { scope: 'support:read' } as const
// Sandbox keys may only read the support API.
const write = { scope: 'support:write', sandbox: 'refuse' } as const
const ticket = { params: { uuid: Uuid }, wireNames: { uuid: 'ticket_uuid' } }

/** @internal The ticket operations. */
export const tickets = {
  list: listEndpoint('/support/tickets', { access: read, item: Ticket }),
  create: endpoint('POST', '/support/tickets', {
    access: write,
    body: TicketCreateBody,
    data: TicketCreated,
    status: 201,
  }),
  get: endpoint('GET', '/support/tickets/{uuid}', { ...ticket, access: read, data: TicketDetail }),
  reply: endpoint('POST', '/support/tickets/{uuid}/messages', {
    ...ticket,
    access: write,
    body: TicketReplyBody,
    data: TicketMessage,
    status: 201,
  }),
  close: endpoint('PATCH', '/support/tickets/{uuid}/close', {
    ...ticket,
    access: write,
    data: TicketStatusChange,
  }),
  reopen: endpoint('PATCH', '/support/tickets/{uuid}/reopen', {
    ...ticket,
    access: write,
    data: TicketStatusChange,
  }),
}

/** Tickets of the demo seed (reseller 1) in the state each example needs. */
const OPEN_TICKET = '75650626-b41b-4d8a-a9c9-26165c76e5fa'
const CLOSED_TICKET = '4dad036d-ae84-4788-b740-d833dd9f2e15'

/** @internal What the OpenAPI document says about each ticket operation. */
export const ticketsTexts: OperationTexts<typeof tickets> = {
  list: {
    operationId: 'listTickets',
    summary: 'List tickets, newest first',
    answer: { description: 'One page of tickets' },
    example: {},
  },
  create: {
    operationId: 'createTicket',
    summary: 'Open a ticket with its first message',
    description: 'Emits `ticket.created` to the general webhooks subscribed to it.',
    answer: { description: 'The new ticket, `open`' },
    example: {
      body: {
        subject: 'Site down',
        message: 'example.com answers 500 since 10:00.',
        department: 'technical',
      },
    },
  },
  get: {
    operationId: 'getTicket',
    summary: 'One ticket with its non-internal messages, oldest first',
    answer: { description: 'The ticket' },
    // A resolved ticket of the demo seed.
    example: { params: { ticket_uuid: '4fe3237f-9484-4187-acbd-9e63a5d1a40a' } },
  },
  reply: {
    operationId: 'replyToTicket',
    summary: 'Add a message to a ticket',
    answer: { description: 'The message' },
    errors: { 422: ['invalid_state'] },
    example: { params: { ticket_uuid: OPEN_TICKET }, body: { message: 'Any news?' } },
    errorExamples: { invalid_state: { params: { ticket_uuid: CLOSED_TICKET } } },
  },
  close: {
    operationId: 'closeTicket',
    summary: 'Close a ticket',
    answer: { description: 'The ticket, `closed`' },
    errors: { 422: ['invalid_state'] },
    example: { params: { ticket_uuid: OPEN_TICKET } },
    errorExamples: { invalid_state: { params: { ticket_uuid: CLOSED_TICKET } } },
  },
  reopen: {
    operationId: 'reopenTicket',
    summary: 'Reopen a `resolved` or `closed` ticket',
    answer: { description: 'The ticket, `open`' },
    errors: { 422: ['invalid_state'] },
    example: { params: { ticket_uuid: CLOSED_TICKET } },
    errorExamples: { invalid_state: { params: { ticket_uuid: OPEN_TICKET } } },
  },
}
