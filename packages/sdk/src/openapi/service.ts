/**
 * The service's part of the OpenAPI document, from the declarations of `src/operations/` and the
 * texts beside them: what `pnpm run openapi:write` writes to `packages/sdk/openapi.json`
 * (scripts/openapi.mjs). Read by the build scripts and the tests, never by a package entry: the
 * texts stay out of the runtime bundles.
 */

import type * as z from 'zod/mini'
import { type AnyEndpoint, API_BASE, wirePath } from '../core/endpoint.js'
import { billingTexts } from '../operations/billing.js'
import { hostingTexts } from '../operations/hosting.js'
import { operations } from '../operations/index.js'
import { legacyTexts } from '../operations/legacy.js'
import { resellerWebhookTexts } from '../operations/reseller-webhook.js'
import { ticketsTexts } from '../operations/tickets.js'
import { webhooksTexts } from '../operations/webhooks.js'
import { whmTexts } from '../operations/whm.js'
import { Id, Uuid } from '../schemas/common.js'
import * as schemas from '../schemas/wire.js'
import { VERSION } from '../version.js'
import { type OpenApiDocument, type OperationOptions, serviceDocument } from './document.js'
import type { CapturedExample, OperationSpec, OperationText } from './spec.js'
import { type EventExample, eventSpecs } from './webhooks.js'

/** The texts of every operation, by the same areas and keys as `operations`. */
const texts: { [Area in keyof typeof operations]: Record<keyof (typeof operations)[Area], OperationText> } = {
  hosting: hostingTexts,
  whm: whmTexts,
  tickets: ticketsTexts,
  resellerWebhook: resellerWebhookTexts,
  webhooks: webhooksTexts,
  billing: billingTexts,
  legacy: legacyTexts,
}

/**
 * Path parameters the service reads as typed values: an id or a UUID. The others (a cPanel username,
 * a package name, a webhook id) it looks up as given, while the SDK checks their form before sending.
 */
const TYPED_PARAMS: ReadonlySet<unknown> = new Set([Id, Uuid])

/** The typed path parameters of `ep`, by their name on the wire. */
function typedParams(ep: AnyEndpoint): Record<string, z.ZodMiniType> | undefined {
  const shape = (ep.params as { shape?: Record<string, z.ZodMiniType> } | undefined)?.shape ?? {}
  const typed = Object.entries(shape).filter(([, schema]) => TYPED_PARAMS.has(schema))
  if (typed.length === 0) return undefined
  return Object.fromEntries(typed.map(([name, schema]) => [ep.wireNames?.[name] ?? name, schema]))
}

/** The spec of one operation: its declaration and its texts. */
export function operationSpec(ep: AnyEndpoint, text: OperationText): OperationSpec {
  const pathParams = typedParams(ep)
  return {
    method: ep.method,
    path: API_BASE + wirePath(ep),
    auth: 'key',
    ...(ep.access.scope ? { scope: ep.access.scope } : {}),
    ...(ep.access.sandbox ? { sandbox: ep.access.sandbox } : {}),
    ...(ep.successor ? { successor: API_BASE + wirePath(ep.successor) } : {}),
    operationId: text.operationId,
    summary: text.summary,
    ...(text.description ? { description: text.description } : {}),
    ...(pathParams ? { pathParams } : {}),
    ...(ep.body ? { body: ep.body, ...(ep.bodyOptional ? { bodyOptional: true } : {}) } : {}),
    answer:
      ep.kind === 'list'
        ? { status: ep.status, page: ep.item, description: text.answer.description }
        : { status: ep.status, data: ep.data, description: text.answer.description },
    ...(text.errors ? { errors: text.errors } : {}),
    example: text.example,
    ...(text.errorExamples ? { errorExamples: text.errorExamples } : {}),
  }
}

/** Every operation of the service with its texts, area by area. */
export function serviceSpecs(): OperationSpec[] {
  return Object.entries(operations).flatMap(([area, declarations]) =>
    Object.entries(declarations as Record<string, AnyEndpoint>).map(([key, ep]) =>
      operationSpec(ep, (texts as Record<string, Record<string, OperationText>>)[area]![key]!),
    ),
  )
}

/**
 * The published document: the service's operations with the frozen example answers `examples`, and
 * its events under `webhooks` with the frozen example deliveries `options.eventExamples` (by entry
 * key: `packages/sdk/openapi/webhook-examples.json`).
 */
export function buildServiceDocument(
  examples: Record<string, CapturedExample>,
  options: Pick<OperationOptions, 'strict'> & { eventExamples?: Record<string, EventExample> } = {},
): OpenApiDocument {
  const { eventExamples = {}, ...rest } = options
  return serviceDocument(serviceSpecs(), VERSION, {
    names: schemas,
    examples,
    events: { specs: eventSpecs(), examples: eventExamples },
    ...rest,
  })
}
