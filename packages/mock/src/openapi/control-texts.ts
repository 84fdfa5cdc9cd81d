/**
 * What the OpenAPI document the mock serves says about each control endpoint (`/__mock/…`), by the
 * same areas and keys as the declarations of `control/operations.ts`, which state the rest (method,
 * path, body, query, answer, status): a declaration without its text does not compile. The
 * service's operations are declared and documented in the SDK (`packages/sdk/src/operations/`).
 * Read by `served.ts` alone: the texts stay out of the request path and of the control client.
 */
import type { OperationSpec } from '@reseller-api/sdk/schemas'
import type { ControlOperations } from '../control/operations.js'

/** What the document says about a control endpoint: everything its declaration does not. */
export type ControlText = Pick<
  OperationSpec,
  'operationId' | 'summary' | 'description' | 'errors' | 'example' | 'errorExamples' | 'staticExample'
> & {
  /** The success answer: what it holds (its status and schema are the declaration's). */
  answer: { description: string }
}

/** The texts of every control declaration, by the same areas and keys: none can be left out. */
export type ControlTexts = {
  readonly [Area in keyof ControlOperations]: { readonly [K in keyof ControlOperations[Area]]: ControlText }
}

/** An `open` and a `closed` ticket of the demo seed (reseller 1). */
const OPEN_TICKET = '75650626-b41b-4d8a-a9c9-26165c76e5fa'
const CLOSED_TICKET = '4dad036d-ae84-4788-b740-d833dd9f2e15'
/** A new ticket sends `ticket.created` to the demo's general webhook `wh_demo`: a delivery. */
const delivery = { operationId: 'createTicket' }

/** The document's text for every control endpoint. */
export const controlTexts: ControlTexts = {
  state: {
    reset: {
      operationId: 'mockReset',
      summary: 'Put the state back to the seed; clear the journal and the faults',
      description:
        'Every table back to the seed the mock started with, the request journal and the fault list emptied, ' +
        'pending webhook deliveries dropped. The clock keeps its time.',
      answer: { description: 'Done' },
      example: {},
    },
    get: {
      operationId: 'mockState',
      summary: 'The whole state: every table, counter and the clock offset (keys and secrets included)',
      description:
        'For tests that look behind the API: the rows as the mock stores them. Not a stable format: use the ' +
        'API or `mock.db` where they suffice.',
      answer: { description: 'The state (the shape of the store, not part of the API)' },
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
  },
  tickets: {
    staffReply: {
      operationId: 'mockStaffReply',
      summary: 'Reply to a ticket as the support staff',
      description: 'A non-internal reply moves an `open` ticket to `in_progress` and emits `ticket.replied`.',
      answer: { description: 'The message' },
      errors: { 422: ['invalid_state'] },
      example: { params: { uuid: OPEN_TICKET }, body: { message: 'We are on it.' } },
      errorExamples: { invalid_state: { params: { uuid: CLOSED_TICKET } } },
    },
    setStatus: {
      operationId: 'mockSetTicketStatus',
      summary: "Set a ticket's status as the support staff",
      description:
        'Any status of the ticket lifecycle, as staff tools set it; `resolved` and `closed` tickets can be ' +
        'reopened through the API.',
      answer: { description: 'The ticket' },
      example: { params: { uuid: OPEN_TICKET }, body: { status: 'resolved' } },
    },
  },
  requests: {
    list: {
      operationId: 'mockListRequests',
      summary: 'The request journal, oldest first, filtered by the query',
      description:
        'Each API request the mock answered (control endpoints are not journaled), with its answer; ' +
        'filter by method, path, status or a time window.',
      answer: { description: 'Journal entries' },
      example: { setup: { operationId: 'getWhmUsage' } },
    },
    clear: {
      operationId: 'mockClearRequests',
      summary: 'Empty the request journal',
      description: 'Drops every journal entry; the next request id keeps counting.',
      answer: { description: 'How many entries went' },
      example: {},
    },
  },
  faults: {
    add: {
      operationId: 'mockAddFault',
      summary: 'Add a fault: delay, error answer or dropped connection for matching API requests',
      description:
        'The first fault matching a request applies to it (delay, error answer, or a dropped connection), ' +
        '`times` times or until removed. A fault answer is the `default` answer of the operation it lands on.',
      answer: { description: 'The fault with its id' },
      example: {
        body: {
          match: { route: '/api/v1/support/tickets' },
          times: 1,
          respond: { status: 429, retryAfter: 2 },
        },
      },
    },
    list: {
      operationId: 'mockListFaults',
      summary: 'The faults, in the order they apply',
      description: 'Each fault with its id, its match, what it does and how often it applied.',
      answer: { description: 'The faults' },
      example: { setup: { operationId: 'mockAddFault' } },
    },
    clear: {
      operationId: 'mockClearFaults',
      summary: 'Remove every fault',
      description: 'Removes every fault at once; requests are answered by their routes again.',
      answer: { description: 'How many faults went' },
      example: {},
    },
    remove: {
      operationId: 'mockRemoveFault',
      summary: 'Remove one fault',
      description: 'Removes the fault `id`; 404 `not_found` when no fault has that id.',
      answer: { description: 'The fault removed' },
      // Fault ids keep counting across resets: the id is the one the setup's answer names.
      example: { setup: { operationId: 'mockAddFault', params: { id: '/data/id' } } },
      errorExamples: { not_found: { params: { id: 'flt_none' }, setup: undefined } },
    },
  },
  clock: {
    get: {
      operationId: 'mockClock',
      summary: 'The mock time and its lead over real time',
      description: 'Mock time is real time plus an offset that only grows (`POST /__mock/clock/advance`).',
      answer: { description: 'The clock' },
      example: {},
    },
    advance: {
      operationId: 'mockAdvanceClock',
      summary: 'Move the mock time forward; due webhook retries are attempted before it answers',
      description:
        'The offset grows by `seconds`; webhook retries that fall due on the way are attempted, in order, ' +
        'before the answer. An advance past the year 9999 is refused (422) before anything moves.',
      answer: { description: 'The clock after the advance' },
      example: { body: { seconds: 60 } },
    },
  },
  events: {
    emit: {
      operationId: 'mockEmitEvent',
      summary: 'Emit any event through the real delivery path',
      description:
        'The event is signed and queued for every subscribed webhook of the reseller, as if the service had ' +
        'emitted it; `data` defaults to sample data for the event.',
      answer: { description: 'The event as delivered' },
      example: { body: { reseller_id: 1, event: 'wallet.credited' } },
    },
  },
  deliveries: {
    list: {
      operationId: 'mockListDeliveries',
      summary: 'Every delivery of every reseller, newest first, with its signature header',
      description:
        'Across every reseller and webhook (reseller and general), newest first, each with the signature ' +
        'header it was sent with.',
      answer: { description: 'The deliveries' },
      example: { setup: delivery },
    },
    redeliver: {
      operationId: 'mockRedeliver',
      summary: 'Deliver the same bytes again now, as a new delivery',
      description:
        'Sends the stored body and signature of `delivery_id` again, as a new delivery attempted at once; ' +
        '404 `not_found` for an unknown id.',
      answer: { description: 'The new delivery' },
      // Delivery ids come from a generator the reset seeds again: the first delivery's is always this one.
      example: { params: { delivery_id: 'dlv_ef59868d6599bb3e3c137e48a32557c2' }, setup: delivery },
      errorExamples: { not_found: { params: { delivery_id: 'dlv_none' }, setup: undefined } },
    },
    stream: {
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
      answer: { description: 'The event stream' },
    },
  },
  meta: {
    openapi: {
      operationId: 'mockOpenApi',
      summary: 'This document, with `servers` set to the mock that serves it',
      description:
        'The document of `@reseller-api/sdk/openapi.json` with the control endpoints added and `servers` ' +
        'aimed at the URL this request reached.',
      answer: { description: 'The OpenAPI 3.1 document' },
      staticExample: {
        openapi: '3.1.1',
        info: { title: 'Reseller hosting, support and webhook API', version: '0.1.0' },
        paths: {},
      },
    },
    // The inspector's HTML page (`GET /__mock/`) is not an operation: it is a page for people, not
    // part of the JSON API (docs/openapi.md, "What the document covers").
    stream: {
      operationId: 'mockStream',
      summary: 'Server-sent events: `event: change` after each change of the state (standalone server only)',
      description:
        'The inspector page listens here. The stream stays open; each event names no data, the page reads ' +
        '`GET /__mock/state` again.',
      answer: { description: 'The event stream' },
    },
  },
  namespaces: {
    create: {
      operationId: 'mockCreateNamespace',
      summary: 'Make a namespace: a whole mock of its own at `/ns/{id}` (standalone server only)',
      description:
        'A new mock inside this server, with its own store, clock, journal, faults, webhook deliveries and ids, ' +
        'served at `url` (`http://HOST:PORT/ns/{id}`, from the host this request came to): its API below ' +
        '`{url}/api/v1`, its control endpoints below `{url}/__mock/`. Every field is optional: `id` (made as ' +
        "`ns-` and 12 letters or digits when left out), `seed` (default: the server's own seed), `random_seed`, " +
        '`ttl_seconds` (60 to 2,592,000, default 3,600: a namespace that gets no request for that long is ' +
        "deleted; every request renews it) and `label`. A seed's problems are named under `seed` " +
        '(`seed.resellers[0].api_keys`). Beyond `--max-namespaces` the answer is 429 `namespace_limit`.',
      answer: { description: 'The namespace: its id, URL, keys, label and times' },
      errors: { 409: ['namespace_exists'], 429: ['namespace_limit'] },
      staticExample: {
        success: true,
        data: {
          id: 'worker-3',
          url: 'http://127.0.0.1:4010/ns/worker-3',
          keys: [
            {
              key: 'svc_live_acme_full',
              mode: 'live',
              scopes: ['reseller:hosting', 'reseller:webhooks', 'support:read', 'support:write'],
              reseller_id: 1,
              reseller: 'Acme Hosting',
            },
          ],
          label: 'pytest worker 3',
          created_at: '2026-01-15T09:30:00.000Z',
          expires_at: '2026-01-15T10:30:00.000Z',
        },
      },
    },
    list: {
      operationId: 'mockListNamespaces',
      summary: 'The namespaces, oldest first (standalone server only)',
      description:
        'Each namespace with its URL, label, times and `requests`: the API requests answered under its URL ' +
        '(control requests are not counted).',
      answer: { description: 'The namespaces' },
      staticExample: {
        success: true,
        data: [
          {
            id: 'worker-3',
            url: 'http://127.0.0.1:4010/ns/worker-3',
            label: null,
            created_at: '2026-01-15T09:30:00.000Z',
            expires_at: '2026-01-15T10:30:00.000Z',
            requests: 12,
          },
        ],
      },
    },
    get: {
      operationId: 'mockGetNamespace',
      summary: 'One namespace (standalone server only)',
      description: '404 `namespace_not_found` for an id that was never made, was deleted or expired.',
      answer: { description: 'The namespace' },
      errors: { 404: ['namespace_not_found'] },
      // The id the setup's answer names (made by the server: the root's reset keeps namespaces).
      example: { setup: { operationId: 'mockCreateNamespace', params: { id: '/data/id' } } },
      staticExample: {
        success: true,
        data: {
          id: 'worker-3',
          url: 'http://127.0.0.1:4010/ns/worker-3',
          label: null,
          created_at: '2026-01-15T09:30:00.000Z',
          expires_at: '2026-01-15T10:30:00.000Z',
          requests: 12,
        },
      },
    },
    delete: {
      operationId: 'mockDeleteNamespace',
      summary: 'Delete one namespace and everything in it (standalone server only)',
      description:
        'Its state, journal, faults and scheduled deliveries go (with `--state`, its rows too); its URL answers ' +
        '404 `namespace_not_found` from then on.',
      answer: { description: 'Deleted' },
      errors: { 404: ['namespace_not_found'] },
      // The id the setup's answer names (made by the server: the root's reset keeps namespaces).
      example: { setup: { operationId: 'mockCreateNamespace', params: { id: '/data/id' } } },
      staticExample: { success: true, data: { id: 'worker-3', deleted: true } },
    },
    clear: {
      operationId: 'mockDeleteNamespaces',
      summary: 'Delete every namespace (standalone server only)',
      description: 'The root mock stays as it is.',
      answer: { description: 'How many namespaces went' },
      staticExample: { success: true, data: { deleted: 3 } },
    },
  },
}
