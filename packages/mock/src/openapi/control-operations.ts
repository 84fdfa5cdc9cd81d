/**
 * What the OpenAPI document the mock serves says about its control endpoints (`/__mock/…`), keyed
 * by `METHOD path` exactly as each route is declared in `handlers/`. The service's operations are
 * declared and documented in the SDK (`packages/sdk/src/operations/`); these are the mock's own.
 * `test/api/openapi.test.ts` fails while a control route has no entry here, or an entry no route.
 */
import { type OperationSpec, Ticket, Uuid, WebhookEvent } from '@reseller-api/sdk/schemas'
import * as z from 'zod/mini'
import { EmitEventBody } from '../domain/events.js'
import { FaultJson, FaultSpec } from '../faults/schema.js'
import { ClockAdvanceBody, ClockState } from '../handlers/clock.js'
import { ResetDone, StaffReply, StaffReplyBody, TicketStatusBody } from '../handlers/control.js'
import { DeliveryView } from '../handlers/deliveries.js'
import { Cleared } from '../handlers/journal.js'
import { JournalEntry, JournalQuery } from '../journal/schema.js'

/** What the document says about a control endpoint: everything but what its key tells. */
export type ControlText = Omit<OperationSpec, 'method' | 'path' | 'auth' | 'tag'>

/** An `open` and a `closed` ticket of the demo seed (reseller 1). */
const OPEN_TICKET = '75650626-b41b-4d8a-a9c9-26165c76e5fa'
const CLOSED_TICKET = '4dad036d-ae84-4788-b740-d833dd9f2e15'
/** A new ticket sends `ticket.created` to the demo's general webhook `wh_demo`: a delivery. */
const delivery = { operationId: 'createTicket' }

/** The document's text for every control endpoint of the route table. */
export const controlOperations: Record<string, ControlText> = {
  'POST /__mock/reset': {
    operationId: 'mockReset',
    summary: 'Put the state back to the seed; clear the journal and the faults',
    description:
      'Every table back to the seed the mock started with, the request journal and the fault list emptied, ' +
      'pending webhook deliveries dropped. The clock keeps its time.',
    answer: { status: 200, data: ResetDone, description: 'Done' },
    example: {},
  },
  'POST /__mock/tickets/:uuid/replies': {
    operationId: 'mockStaffReply',
    summary: 'Reply to a ticket as the support staff',
    description: 'A non-internal reply moves an `open` ticket to `in_progress` and emits `ticket.replied`.',
    body: StaffReplyBody,
    answer: { status: 201, data: StaffReply, description: 'The message' },
    errors: { 422: ['invalid_state'] },
    pathParams: { uuid: Uuid },
    example: { params: { uuid: OPEN_TICKET }, body: { message: 'We are on it.' } },
    errorExamples: { invalid_state: { params: { uuid: CLOSED_TICKET } } },
  },
  'PATCH /__mock/tickets/:uuid': {
    operationId: 'mockSetTicketStatus',
    summary: "Set a ticket's status as the support staff",
    description:
      'Any status of the ticket lifecycle, as staff tools set it; `resolved` and `closed` tickets can be ' +
      'reopened through the API.',
    body: TicketStatusBody,
    answer: { status: 200, data: Ticket, description: 'The ticket' },
    pathParams: { uuid: Uuid },
    example: { params: { uuid: OPEN_TICKET }, body: { status: 'resolved' } },
  },
  'GET /__mock/state': {
    operationId: 'mockState',
    summary: 'The whole state: every table, counter and the clock offset (keys and secrets included)',
    description:
      'For tests that look behind the API: the rows as the mock stores them. Not a stable format: use the ' +
      'API or `mock.db` where they suffice.',
    answer: {
      status: 200,
      media: 'application/json',
      schema: {
        type: 'object',
        required: ['success', 'data'],
        properties: {
          success: { const: true },
          data: {
            type: 'object',
            required: ['format', 'version', 'tables', 'counters', 'clock_offset_ms'],
            properties: {
              format: { type: 'string' },
              version: { type: 'integer' },
              tables: { type: 'object', additionalProperties: { type: 'array', items: { type: 'object' } } },
              counters: { type: 'object', additionalProperties: { type: 'integer' } },
              last_micros: { type: 'integer' },
              clock_offset_ms: { type: 'number' },
            },
          },
        },
        additionalProperties: false,
      },
      description: 'The state (the shape of the store, not part of the API)',
    },
    staticExample: {
      success: true,
      data: {
        format: 'reseller-mock-store',
        version: 1,
        tables: { tickets: [], webhooks: [] },
        counters: { invoice: 24, ticket: 28, message: 78 },
        last_micros: 1768469400000000,
        clock_offset_ms: 0,
      },
    },
  },
  'GET /__mock/requests': {
    operationId: 'mockListRequests',
    summary: 'The request journal, oldest first, filtered by the query',
    description:
      'Each API request the mock answered (control endpoints are not journaled), with its answer; ' +
      'filter by method, path, status or a time window.',
    query: JournalQuery,
    answer: { status: 200, data: z.array(JournalEntry), description: 'Journal entries' },
    example: { setup: { operationId: 'getWhmUsage' } },
  },
  'DELETE /__mock/requests': {
    operationId: 'mockClearRequests',
    summary: 'Empty the request journal',
    description: 'Drops every journal entry; the next request id keeps counting.',
    answer: { status: 200, data: Cleared, description: 'How many entries went' },
    example: {},
  },
  'POST /__mock/faults': {
    operationId: 'mockAddFault',
    summary: 'Add a fault: delay, error answer or dropped connection for matching API requests',
    description:
      'The first fault matching a request applies to it (delay, error answer, or a dropped connection), ' +
      '`times` times or until removed. A fault answer is the `default` answer of the operation it lands on.',
    body: FaultSpec,
    answer: { status: 201, data: FaultJson, description: 'The fault with its id' },
    example: {
      body: {
        match: { route: '/api/v1/support/tickets' },
        times: 1,
        respond: { status: 429, retryAfter: 2 },
      },
    },
  },
  'GET /__mock/faults': {
    operationId: 'mockListFaults',
    summary: 'The faults, in the order they apply',
    description: 'Each fault with its id, its match, what it does and how often it applied.',
    answer: { status: 200, data: z.array(FaultJson), description: 'The faults' },
    example: { setup: { operationId: 'mockAddFault' } },
  },
  'DELETE /__mock/faults': {
    operationId: 'mockClearFaults',
    summary: 'Remove every fault',
    description: 'Removes every fault at once; requests are answered by their routes again.',
    answer: { status: 200, data: Cleared, description: 'How many faults went' },
    example: {},
  },
  'DELETE /__mock/faults/:id': {
    operationId: 'mockRemoveFault',
    summary: 'Remove one fault',
    description: 'Removes the fault `id`; 404 `not_found` when no fault has that id.',
    answer: { status: 200, data: FaultJson, description: 'The fault removed' },
    // Fault ids keep counting across resets: the id is the one the setup's answer names.
    example: { setup: { operationId: 'mockAddFault', params: { id: '/data/id' } } },
    errorExamples: { not_found: { params: { id: 'flt_none' }, setup: undefined } },
  },
  'GET /__mock/clock': {
    operationId: 'mockClock',
    summary: 'The mock time and its lead over real time',
    description: 'Mock time is real time plus an offset that only grows (`POST /__mock/clock/advance`).',
    answer: { status: 200, data: ClockState, description: 'The clock' },
    example: {},
  },
  'POST /__mock/clock/advance': {
    operationId: 'mockAdvanceClock',
    summary: 'Move the mock time forward; due webhook retries are attempted before it answers',
    description:
      'The offset grows by `seconds`; webhook retries that fall due on the way are attempted, in order, ' +
      'before the answer. An advance past the year 9999 is refused (422) before anything moves.',
    body: ClockAdvanceBody,
    answer: { status: 200, data: ClockState, description: 'The clock after the advance' },
    example: { body: { seconds: 60 } },
  },
  'POST /__mock/events': {
    operationId: 'mockEmitEvent',
    summary: 'Emit any event through the real delivery path',
    description:
      'The event is signed and queued for every subscribed webhook of the reseller, as if the service had ' +
      'emitted it; `data` defaults to sample data for the event.',
    body: EmitEventBody,
    answer: { status: 201, data: WebhookEvent, description: 'The event as delivered' },
    example: { body: { reseller_id: 1, event: 'wallet.credited' } },
  },
  'GET /__mock/deliveries': {
    operationId: 'mockListDeliveries',
    summary: 'Every delivery of every reseller, newest first, with its signature header',
    description:
      'Across every reseller and webhook (reseller and general), newest first, each with the signature ' +
      'header it was sent with.',
    answer: { status: 200, data: z.array(DeliveryView), description: 'The deliveries' },
    example: { setup: delivery },
  },
  'POST /__mock/deliveries/:delivery_id/redeliver': {
    operationId: 'mockRedeliver',
    summary: 'Deliver the same bytes again now, as a new delivery',
    description:
      'Sends the stored body and signature of `delivery_id` again, as a new delivery attempted at once; ' +
      '404 `not_found` for an unknown id.',
    answer: { status: 201, data: DeliveryView, description: 'The new delivery' },
    // Delivery ids come from a generator the reset seeds again: the first delivery's is always this one.
    example: { params: { delivery_id: 'dlv_ef59868d6599bb3e3c137e48a32557c2' }, setup: delivery },
    errorExamples: { not_found: { params: { delivery_id: 'dlv_none' }, setup: undefined } },
  },
  'GET /__mock/openapi.json': {
    operationId: 'mockOpenApi',
    summary: 'This document, with `servers` set to the mock that serves it',
    description:
      'The document of `@reseller-api/sdk/openapi.json` with the control endpoints added and `servers` ' +
      'aimed at the URL this request reached.',
    answer: {
      status: 200,
      media: 'application/json',
      schema: {
        type: 'object',
        required: ['openapi', 'info', 'paths'],
        properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
      },
      description: 'The OpenAPI 3.1 document',
    },
    staticExample: {
      openapi: '3.1.1',
      info: { title: 'Reseller hosting, support and webhook API', version: '0.1.0' },
      paths: {},
    },
  },
}

/**
 * Endpoints of the standalone server that are not in the route table (served by
 * `server/inspector.ts` in front of it). The inspector's HTML page (`GET /__mock/`) is left out: it
 * is a page for people, not part of the JSON API (docs/openapi.md, "What the document covers").
 */
export const serverOnlyOperations: Record<string, ControlText> = {
  'GET /__mock/stream': {
    operationId: 'mockStream',
    summary: 'Server-sent events: `event: change` after each change of the state (standalone server only)',
    description:
      'The inspector page listens here. The stream stays open; each event names no data, the page reads ' +
      '`GET /__mock/state` again.',
    answer: { status: 200, media: 'text/event-stream', description: 'The event stream' },
  },
  'GET /__mock/deliveries/stream': {
    operationId: 'mockDeliveryStream',
    summary:
      'Server-sent events: each webhook delivery queued and each attempt, as they happen (standalone server only)',
    description:
      'What `reseller-mock listen` and `reseller-mock trigger` follow. `event: queued` when a delivery is recorded ' +
      '(`delivery_id`, `redelivery_of`, `event`, `webhook_id`, `reseller_id`, `url`, `created_at`); `event: attempt` ' +
      'after each attempt (the same fields, `attempt` its number from 1, `status` `success` or `failed`, `http_status`, ' +
      '`error`, `duration_ms`, `attempted_at` and `next_attempt_at` in mock time, `null` when no retry will be made). ' +
      'Each `data` is one JSON object. `?url=` keeps the deliveries to that exact URL. Nothing is replayed: the stream ' +
      'tells what happens once its answer has started.',
    answer: { status: 200, media: 'text/event-stream', description: 'The event stream' },
  },
}
