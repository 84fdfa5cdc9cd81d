/**
 * The reseller-style webhook: the declarations of its operations (used by `api.resellerWebhook`,
 * the OpenAPI document and the mock's handlers) and, beside them, their texts for the document.
 */
import { endpoint } from '../core/endpoint.js'
import type { OperationTexts } from '../openapi/spec.js'
import {
  ResellerWebhook,
  ResellerWebhookTestResult,
  ResellerWebhookUpdateBody,
} from '../schemas/reseller-webhook.js'

const access = { scope: 'reseller:webhooks' } as const

/** @internal The reseller webhook operations. */
export const resellerWebhook = {
  get: endpoint('GET', '/reseller/webhook', { access, data: ResellerWebhook }),
  // Sandbox keys may not change the configuration: a sandbox call never changes state.
  update: endpoint('PUT', '/reseller/webhook', {
    access: { ...access, sandbox: 'refuse' },
    body: ResellerWebhookUpdateBody,
    data: ResellerWebhook,
  }),
  test: endpoint('POST', '/reseller/webhook/test', { access, data: ResellerWebhookTestResult }),
}

/** @internal What the OpenAPI document says about each reseller webhook operation. */
export const resellerWebhookTexts: OperationTexts<typeof resellerWebhook> = {
  get: {
    operationId: 'getResellerWebhook',
    summary: 'The reseller webhook configuration (never the secret)',
    answer: { description: 'The configuration' },
    example: {},
  },
  update: {
    operationId: 'setResellerWebhook',
    summary: 'Set the reseller webhook URL and secret',
    description:
      'Any `http://` or `https://` URL whose host DNS can carry. A mock served on a non-loopback address ' +
      "(a shared mock) holds it to the general webhooks' rule instead (HTTPS on a public host, else 422 " +
      '`validation_error` on `url`), unless started with `--insecure-webhooks`.',
    answer: { description: 'The configuration' },
    example: { body: { url: 'https://hooks.acme.example/reseller', secret: 'a-long-random-secret' } },
  },
  test: {
    operationId: 'testResellerWebhook',
    summary: 'Send a fictitious signed event to the reseller webhook',
    answer: { description: 'What the receiver answered' },
    errors: { 404: ['not_found'] }, // no reseller webhook is configured
    example: {},
  },
}
