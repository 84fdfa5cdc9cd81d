/**
 * Builds OpenAPI 3.1 documents from {@link OperationSpec}s and the zod schemas (zod 4's
 * `toJSONSchema`, which reads `zod/mini` schemas as well): `serviceDocument` for the service's
 * operations (`service.ts` makes their specs from the declarations of `src/operations/`), and
 * `withOperations`, which adds more operations to a document (the mock adds its control
 * endpoints to the one it serves this way).
 *
 * Pure: no I/O, no clock. The example answers come from `packages/sdk/openapi/examples.json`,
 * captured from a demo mock (docs/openapi.md, "How it is made").
 */
import { SCOPES } from '../schemas/common.js'
import { buildOperation, type Operation, SERVICE_TAGS } from './operation.js'
import { SchemaBook } from './schema-book.js'
import type { CapturedExample, OperationSpec } from './spec.js'
import { buildWebhooks, EVENT_TAGS, type EventExample, type EventSpec, eventNames } from './webhooks.js'

/** @internal An OpenAPI document (loosely typed: it is written out as JSON). */
export type OpenApiDocument = {
  openapi: string
  info: { description?: string } & Record<string, unknown>
  paths: Record<string, Record<string, Operation>>
  tags: { name: string; description: string }[]
  components: { schemas: Record<string, Record<string, unknown>> } & Record<string, unknown>
} & Record<string, unknown>

/** @internal What the operations of a document are built with. */
export interface OperationOptions {
  /** Schemas worth a name in `components.schemas`, by name (e.g. the SDK's exports). */
  names: Record<string, unknown>
  /** Captured answers by operationId (success) or `operationId status`. */
  examples?: Record<string, CapturedExample>
  /**
   * Answers closed to fields the SDK does not know (`additionalProperties: false`, as zod writes
   * them): the drift test's reading. The published document is open (default).
   */
  strict?: boolean
  /**
   * The events the service sends, written under `webhooks` (each with its example delivery, by
   * entry key): the published document has them; the mock's additions have none.
   */
  events?: { specs: readonly EventSpec[]; examples: Record<string, EventExample> }
}

/** Paths and components of `specs`. Throws on two operations with one operationId or one route. */
function build(specs: readonly OperationSpec[], options: OperationOptions) {
  const events = options.events
  const names = events ? { ...options.names, ...eventNames(events.specs) } : options.names
  const schemas = new SchemaBook(names, options.strict ?? false)
  const paths: Record<string, Record<string, Operation>> = {}
  const ids = new Set<string>()
  for (const spec of specs) {
    if (ids.has(spec.operationId)) throw new Error(`OpenAPI: operationId ${spec.operationId} is used twice`)
    ids.add(spec.operationId)
    const method = spec.method.toLowerCase()
    paths[spec.path] ??= {}
    if (paths[spec.path]![method]) throw new Error(`OpenAPI: ${spec.method} ${spec.path} is declared twice`)
    paths[spec.path]![method] = buildOperation(spec, schemas, options.examples ?? {})
  }
  const webhooks = events ? buildWebhooks(events.specs, schemas, events.examples) : undefined
  return { paths, webhooks, schemas: schemas.components() }
}

/** @internal The document of the service's operations `specs` (`version`: the SDK's). */
export function serviceDocument(
  specs: readonly OperationSpec[],
  version: string,
  options: OperationOptions,
): OpenApiDocument {
  const { paths, webhooks, schemas } = build(specs, options)
  const eventTags = webhooks ? Object.values(EVENT_TAGS) : []
  return {
    openapi: '3.1.1',
    info: {
      title: 'Reseller hosting, support and webhook API',
      version,
      summary: 'Hosting provisioning, WHM access, support tickets and webhooks of a hosting provider',
      description:
        'Generated from the operation declarations and zod schemas of `@reseller-api/sdk`. ' +
        'Every `/api/` answer carries `X-Request-Id`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: 'http://127.0.0.1:4010',
        description: 'The standalone mock (`reseller-mock`, its default port)',
      },
      {
        url: 'https://api.reseller.test',
        description: 'The in-process mock (`createMockApi()`): reached through `mock.fetch` or MSW only',
      },
    ],
    tags: [
      ...Object.entries(SERVICE_TAGS).map(([name, description]) => ({ name, description })),
      ...eventTags,
    ],
    security: [{ bearerAuth: [] }],
    paths,
    ...(webhooks ? { webhooks } : {}),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key: `svc_live_…` acts for real, `svc_test_…` (sandbox) simulates and is refused ' +
            "(403 `sandbox_read_only`) by the support API's writes. An operation lists the scope its key needs " +
            'in its security requirement (an empty list: any valid key). Scopes: `reseller:hosting` ' +
            'provisioning, hosting suspend/unsuspend/delete and all `/reseller/whm/*`; `reseller:webhooks` the ' +
            '`/reseller/webhook` and `/webhooks` endpoints; `support:read` ticket list and detail; ' +
            '`support:write` create ticket, add message, close, reopen.',
          'x-scopes': SCOPES,
          // The demo seed's key with every scope: the examples' requests are sent with it.
          'x-example-key': 'svc_live_acme_full',
        },
      },
      headers: {
        'X-Request-Id': {
          description:
            'Id of the request, `req_…`; names its entry in the mock journal (`GET /__mock/requests`)',
          schema: { type: 'string', pattern: '^req_' },
        },
        Deprecation: { description: 'Always `true` on a deprecated route', schema: { const: 'true' } },
        Link: { description: '`<successor path>; rel="successor-version"`', schema: { type: 'string' } },
      },
      schemas,
    },
  }
}

/**
 * @internal `document` with the operations `specs` added under the tag `tag` (appended to the
 * document's tags) and the components they use; `note` is appended to `info.description`.
 * Throws when an operation or a component would replace one of `document`'s.
 */
export function withOperations(
  document: OpenApiDocument,
  specs: readonly OperationSpec[],
  added: { tag: { name: string; description: string }; note: string },
  options: OperationOptions,
): OpenApiDocument {
  const { paths, schemas } = build(
    specs.map((spec) => ({ ...spec, tag: added.tag.name })),
    options,
  )
  const merged: OpenApiDocument['paths'] = { ...document.paths }
  for (const [path, item] of Object.entries(paths)) {
    for (const method of Object.keys(item)) {
      if (merged[path]?.[method])
        throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} is already documented`)
    }
    merged[path] = { ...merged[path], ...item }
  }
  const components: Record<string, Record<string, unknown>> = { ...document.components.schemas }
  for (const [name, schema] of Object.entries(schemas)) {
    const known = components[name]
    if (known && JSON.stringify(known) !== JSON.stringify(schema))
      throw new Error(`OpenAPI: the component ${name} differs from the document's`)
    components[name] = schema
  }
  const sorted = Object.fromEntries(
    Object.keys(components)
      .sort()
      .map((name) => [name, components[name]!]),
  )
  return {
    ...document,
    info: { ...document.info, description: `${document.info.description ?? ''} ${added.note}`.trim() },
    tags: [...document.tags, added.tag],
    paths: merged,
    components: { ...document.components, schemas: sorted },
  }
}

/** @internal `/a/:b/c` → `/a/{b}/c`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]\w*)/g, '{$1}')
}
