/**
 * General webhooks: the declarations of their operations (used by `api.webhooks`, the OpenAPI
 * document and the mock's handlers) and, beside them, their texts for the document.
 */
import * as z from 'zod/mini'
import { endpoint, listEndpoint } from '../core/endpoint.js'
import type { OperationTexts } from '../openapi/spec.js'
import { Delivery, WebhookCreateBody, WebhookCreated, WebhookTestBody } from '../schemas/webhooks.js'

const access = { scope: 'reseller:webhooks' } as const
/** A general webhook id: any string; the path helper refuses `''`, `.` and `..`. */
const webhook = { id: z.string() }

/** @internal The general webhook operations. */
export const webhooks = {
  // Sandbox keys are refused: a simulated webhook would hand out an id and a secret that do not exist.
  create: endpoint('POST', '/webhooks', {
    access: { ...access, sandbox: 'refuse' },
    body: WebhookCreateBody,
    data: WebhookCreated,
    status: 201,
  }),
  // A test delivery enters the history (and the retry schedule): a state change, refused to sandbox keys.
  test: endpoint('POST', '/webhooks/{id}/test', {
    params: webhook,
    access: { ...access, sandbox: 'refuse' },
    body: WebhookTestBody,
    bodyOptional: true,
    data: Delivery,
  }),
  deliveries: listEndpoint('/webhooks/{id}/deliveries', { params: webhook, access, item: Delivery }),
}

/** @internal What the OpenAPI document says about each general webhook operation. */
export const webhooksTexts: OperationTexts<typeof webhooks> = {
  create: {
    operationId: 'createWebhook',
    summary: 'Create a general webhook (the secret is in this answer only)',
    // The HTTPS-only rule of general webhook URLs is the server's (the mock's `insecureWebhooks` lifts it), not the body schema's.
    description:
      'The `url` must be HTTPS on a public host, or the answer is 422 `validation_error` on `url`; ' +
      'a mock started with `--insecure-webhooks` (`insecureWebhooks: true`) also takes `http://` and local hosts.',
    answer: { description: 'The webhook with its generated secret' },
    // At most 100 general webhooks per reseller (docs/spec-decisions.md, "Hostile webhook targets and bounded memory").
    errors: { 422: ['quota_exceeded'] },
    example: { body: { url: 'https://hooks.acme.example/general', events: ['ticket.created'] } },
  },
  test: {
    operationId: 'testWebhook',
    summary: 'Send a test event to a general webhook now',
    answer: { description: 'The delivery record of the test' },
    example: { params: { id: 'wh_demo' }, body: { event: 'test' } },
  },
  deliveries: {
    operationId: 'listWebhookDeliveries',
    summary: "List a general webhook's deliveries, newest first",
    answer: { description: 'One page of delivery records' },
    // A new ticket sends `ticket.created` to the demo's general webhook `wh_demo`.
    example: { params: { id: 'wh_demo' }, setup: { operationId: 'createTicket' } },
  },
}
