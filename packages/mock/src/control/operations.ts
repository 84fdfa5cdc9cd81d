/**
 * Every control endpoint of the mock (`/__mock/…`, no key needed), by area: the one declaration of
 * each (method, path, parameters, body, query, answer, status). The handlers bind to them
 * (`handlers/`), the served OpenAPI document is generated from them with their texts
 * (`openapi/control-texts.ts`), and the control client (`client.ts`) calls them.
 */
import { Ticket, Uuid, WebhookEvent } from '@reseller-api/sdk/schemas'
import * as z from 'zod/mini'
import { EmitEventBody } from '../domain/events.js'
import { FaultJson, FaultSpec } from '../faults/schema.js'
import { JournalEntry, JournalQuery } from '../journal/schema.js'
import { controlEndpoint, rawControlEndpoint } from './endpoint.js'
import {
  Cleared,
  ClockAdvanceBody,
  ClockState,
  DeliveryView,
  NamespaceCreateBody,
  NamespaceCreated,
  NamespaceDeleted,
  NamespaceId,
  NamespacesDeleted,
  NamespaceView,
  ResetDone,
  StaffReply,
  StaffReplyBody,
  TicketStatusBody,
} from './schemas.js'

/** The state as a whole: reset to the seed, and the operator's view of every table. */
const state = {
  reset: controlEndpoint('POST', '/__mock/reset', { data: ResetDone }),
  /** The store's snapshot, keys and secrets included: its shape is the store's, not a zod schema's. */
  get: rawControlEndpoint('/__mock/state', {
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
  }),
}

const ticket = { uuid: Uuid }

/** The support staff's side of tickets. */
const tickets = {
  staffReply: controlEndpoint('POST', '/__mock/tickets/{uuid}/replies', {
    params: ticket,
    body: StaffReplyBody,
    data: StaffReply,
    status: 201,
  }),
  setStatus: controlEndpoint('PATCH', '/__mock/tickets/{uuid}', {
    params: ticket,
    body: TicketStatusBody,
    data: Ticket,
  }),
}

/** The request journal. */
const requests = {
  list: controlEndpoint('GET', '/__mock/requests', { query: JournalQuery, data: z.array(JournalEntry) }),
  clear: controlEndpoint('DELETE', '/__mock/requests', { data: Cleared }),
}

/** Faults: delays, error answers and dropped connections for matching API requests. */
const faults = {
  add: controlEndpoint('POST', '/__mock/faults', { body: FaultSpec, data: FaultJson, status: 201 }),
  list: controlEndpoint('GET', '/__mock/faults', { data: z.array(FaultJson) }),
  clear: controlEndpoint('DELETE', '/__mock/faults', { data: Cleared }),
  remove: controlEndpoint('DELETE', '/__mock/faults/{id}', { params: { id: z.string() }, data: FaultJson }),
}

/** The mock's clock. */
const clock = {
  get: controlEndpoint('GET', '/__mock/clock', { data: ClockState }),
  advance: controlEndpoint('POST', '/__mock/clock/advance', { body: ClockAdvanceBody, data: ClockState }),
}

/** Any event of the API, through the real delivery path. */
const events = {
  emit: controlEndpoint('POST', '/__mock/events', { body: EmitEventBody, data: WebhookEvent, status: 201 }),
}

/** Every delivery of every reseller, and "redeliver now". */
const deliveries = {
  list: controlEndpoint('GET', '/__mock/deliveries', { data: z.array(DeliveryView) }),
  redeliver: controlEndpoint('POST', '/__mock/deliveries/{delivery_id}/redeliver', {
    params: { delivery_id: z.string() },
    data: DeliveryView,
    status: 201,
  }),
  /** Served by the standalone server in front of the route table (`server/delivery-stream.ts`). */
  stream: rawControlEndpoint('/__mock/deliveries/stream', { media: 'text/event-stream', servedBy: 'server' }),
}

/** What describes the mock and follows it: its OpenAPI document, the inspector's event stream. */
const meta = {
  openapi: rawControlEndpoint('/__mock/openapi.json', {
    media: 'application/json',
    schema: {
      type: 'object',
      required: ['openapi', 'info', 'paths'],
      properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
    },
  }),
  /** Served by the standalone server in front of the route table (`server/inspector.ts`). */
  stream: rawControlEndpoint('/__mock/stream', { media: 'text/event-stream', servedBy: 'server' }),
}

const namespace = { id: NamespaceId }

/**
 * Namespaces: whole mocks inside the standalone server, each at `/ns/{id}` (the root's endpoints:
 * answered by the server in front of the route table, `server/host/namespace-routes.ts`).
 */
const namespaces = {
  create: controlEndpoint('POST', '/__mock/namespaces', {
    body: NamespaceCreateBody,
    bodyOptional: true,
    data: NamespaceCreated,
    status: 201,
    servedBy: 'server',
  }),
  list: controlEndpoint('GET', '/__mock/namespaces', { data: z.array(NamespaceView), servedBy: 'server' }),
  get: controlEndpoint('GET', '/__mock/namespaces/{id}', {
    params: namespace,
    data: NamespaceView,
    servedBy: 'server',
  }),
  delete: controlEndpoint('DELETE', '/__mock/namespaces/{id}', {
    params: namespace,
    data: NamespaceDeleted,
    servedBy: 'server',
  }),
  clear: controlEndpoint('DELETE', '/__mock/namespaces', { data: NamespacesDeleted, servedBy: 'server' }),
}

/** Every control endpoint of the mock, by area. */
export const control = { state, tickets, requests, faults, clock, events, deliveries, meta, namespaces }

/** The areas of {@link control} and their declarations. */
export type ControlOperations = typeof control
