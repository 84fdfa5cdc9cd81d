/**
 * Builds the OpenAPI 3.1 document from the route table, the operation texts of `operations.ts` and
 * the zod schemas (zod 4's `toJSONSchema`, which reads `zod/mini` schemas as well). The list of
 * operations is the route table: a route without an entry in `operations` is an error here, and
 * the error answers of each operation follow from its access rules (`errors.ts`).
 *
 * Pure: no I/O, no clock. The build (`scripts/openapi.mjs`) adds the examples frozen in
 * `packages/sdk/openapi/examples.json` (captured from a demo mock by `examples.ts`) and writes the file.
 */
import { Id, PageNumber, SCOPES, Uuid } from '@reseller-api/sdk/schemas'
import type * as z from 'zod/mini'
import type { Route } from '../routing/route.js'
import { errorExample, errorSchema, errorsOf, FAULT_EXAMPLE } from './errors.js'
import type { Answer, OperationDoc } from './operation-doc.js'
import { isZod, REF, SchemaBook } from './schema-book.js'

/** An OpenAPI document (loosely typed: it is written out as JSON). */
export type OpenApiDocument = {
  openapi: string
  info: object
  paths: Record<string, Record<string, Operation>>
} & Record<string, unknown>
type Json = Record<string, unknown>
type Operation = Json & { operationId: string; responses: Record<string, Json> }

/** An answer captured from the demo mock for one operation (see `examples.ts`). */
export interface CapturedExample {
  status: number
  body: unknown
}

/** What `generateOpenApi` needs. */
export interface OpenApiInput {
  routes: readonly Route[]
  /** Text of each route, keyed `METHOD path`. */
  operations: Record<string, OperationDoc>
  /** Endpoints outside the route table (the standalone server's inspector). */
  serverOnly?: Record<string, OperationDoc>
  /** Schemas worth a name in `components.schemas`, by name (e.g. the SDK's exports). */
  names: Record<string, unknown>
  /** Captured answers, keyed like `operations` (success) or `METHOD path 401`. */
  examples?: Record<string, CapturedExample>
  version: string
  /**
   * Answers closed to fields the SDK does not know (`additionalProperties: false`, as zod writes
   * them): the drift test's and Prism's reading. The published document is open (default).
   */
  strict?: boolean
}
const API_PREFIX = '/api/'

/** Tags by path prefix, first match wins; the control endpoints are all `mock`. */
const TAGS: [prefix: string, tag: string][] = [
  ['/api/v1/reseller/clients', 'hosting'],
  ['/api/v1/reseller/accounts', 'whm'],
  ['/api/v1/reseller/packages', 'whm'],
  ['/api/v1/reseller/usage', 'whm'],
  ['/api/v1/reseller/whm', 'whm'],
  ['/api/v1/support', 'tickets'],
  ['/api/v1/reseller/webhook', 'reseller webhook'],
  ['/api/v1/webhooks', 'webhooks'],
  ['/api/v1/services', 'billing'],
  ['/api/v1/invoices', 'billing'],
  ['/__mock', 'mock'],
]

const TAG_TEXT: Record<string, string> = {
  hosting: "Provisioning of cPanel accounts for the reseller's clients",
  whm: "Direct access to the reseller's WHM account",
  tickets: 'Support tickets',
  'reseller webhook': 'The reseller-style webhook',
  webhooks: 'General webhooks and their delivery history',
  billing: 'Services and invoices',
  mock: 'Control endpoints of the mock (`/__mock/`): no key needed; not part of the real API',
}

/** Path parameters that have a wire schema; the others are plain strings. */
const PARAMS: Record<string, z.ZodMiniType> = { client_id: Id, ticket_uuid: Uuid, uuid: Uuid }

/** The document for `input`. Throws when a route has no text, or a text names no route. */
export function generateOpenApi(input: OpenApiInput): OpenApiDocument {
  const { operations } = input
  const keys = new Set(input.routes.map((r) => `${r.method} ${r.path}`))
  const missing = [...keys].filter((key) => !(key in operations))
  const unknown = Object.keys(operations).filter((key) => !keys.has(key))
  if (missing.length > 0 || unknown.length > 0) {
    throw new Error(
      `OpenAPI: ${missing.length > 0 ? `routes without an entry in openapi/operations.ts: ${missing.join(', ')}. ` : ''}` +
        `${unknown.length > 0 ? `entries naming no route: ${unknown.join(', ')}` : ''}`,
    )
  }

  const schemas = new SchemaBook(input.names, input.strict ?? false)
  const paths: Record<string, Record<string, Operation>> = {}
  const add = (route: Route, doc: OperationDoc, key: string) => {
    const path = openApiPath(route.path)
    paths[path] ??= {}
    paths[path][route.method.toLowerCase()] = operation(route, doc, key, schemas, input.examples ?? {})
  }
  for (const route of input.routes)
    add(route, operations[`${route.method} ${route.path}`]!, `${route.method} ${route.path}`)
  for (const [key, doc] of Object.entries(input.serverOnly ?? {})) {
    const [method, path] = key.split(' ') as [Route['method'], string]
    add(
      { method, path, auth: 'none', resolve: () => Promise.reject(new Error('documentation only')) },
      doc,
      key,
    )
  }

  const document: OpenApiDocument = {
    openapi: '3.1.1',
    info: {
      title: 'Reseller hosting, support and webhook API',
      version: input.version,
      summary: 'Hosting provisioning, WHM access, support tickets and webhooks of a hosting provider',
      description:
        'Generated from the zod schemas of `@reseller-api/sdk` and the route table of `@reseller-api/mock`; ' +
        'the endpoints tagged `mock` exist only in the mock. Every `/api/` answer carries `X-Request-Id`.',
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
    tags: [...new Set(TAGS.map(([, tag]) => tag))].map((name) => ({ name, description: TAG_TEXT[name] })),
    security: [{ bearerAuth: [] }],
    paths,
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
      schemas: schemas.components(),
    },
  }
  return document
}

/** `/a/:b/c` → `/a/{b}/c`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]\w*)/g, '{$1}')
}

function tagOf(path: string): string {
  return TAGS.find(([prefix]) => path.startsWith(prefix))?.[1] ?? 'mock'
}

function operation(
  route: Route,
  doc: OperationDoc,
  key: string,
  schemas: SchemaBook,
  examples: Record<string, CapturedExample>,
): Operation {
  const isApi = route.path.startsWith(API_PREFIX)
  const params = [...route.path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]!)
  const parameters: Json[] = params.map((name) => ({
    name,
    in: 'path',
    required: true,
    // An empty segment matches no route: the router answers 404.
    schema: PARAMS[name] ? schemas.input(PARAMS[name]) : { type: 'string', minLength: 1 },
  }))
  if ('page' in doc.answer) {
    parameters.push({
      name: 'page',
      in: 'query',
      required: false,
      description: 'Page number, from 1; 20 items per page. A page beyond the end is empty.',
      schema: schemas.input(PageNumber),
    })
  }
  if (doc.query) {
    const query = schemas.input(doc.query) as { properties?: Record<string, Json> }
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({ name, in: 'query', required: false, schema })
    }
  }

  const successor = route.successor
  const description = [
    doc.description,
    route.scope ? `Needs the scope \`${route.scope}\`.` : isApi ? 'Needs any valid key.' : undefined,
    route.sandbox === 'refuse' ? 'Sandbox keys are refused (403 `sandbox_read_only`).' : undefined,
    successor ? `**Deprecated**: use \`${route.method} ${openApiPath(successor)}\`.` : undefined,
  ]
    .filter(Boolean)
    .join(' ')

  const result: Operation = {
    operationId: doc.operationId,
    summary: doc.summary,
    ...(description ? { description } : {}),
    tags: [tagOf(route.path)],
    ...(successor ? { deprecated: true, 'x-successor': openApiPath(successor) } : {}),
    security: route.auth === 'none' ? [] : [{ bearerAuth: route.scope ? [route.scope] : [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    responses: {},
  }
  if (doc.body) {
    result.requestBody = {
      required: !doc.bodyOptional,
      content: {
        'application/json': {
          schema: schemas.input(doc.body),
          ...(doc.example?.body !== undefined ? { example: doc.example.body } : {}),
        },
      },
    }
  }

  const headers: Json = isApi ? { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } } : {}
  if (successor) {
    headers.Deprecation = { $ref: '#/components/headers/Deprecation' }
    headers.Link = { $ref: '#/components/headers/Link' }
  }
  const withHeaders = Object.keys(headers).length > 0 ? { headers } : {}
  const captured = examples[key]
  result.responses[String(doc.answer.status)] = {
    description: doc.answer.description,
    ...withHeaders,
    ...success(
      doc.answer,
      schemas,
      captured?.status === doc.answer.status ? captured.body : doc.staticExample,
    ),
  }

  for (const [status, codes] of errorsOf(route, doc, params.length > 0)) {
    const example = examples[`${key} ${status}`]?.body ?? errorExample(route, codes)
    result.responses[String(status)] = {
      description: `Error: ${codes.map((code) => `\`${code}\``).join(', ')}`,
      ...(isApi ? { headers: { 'X-Request-Id': headers['X-Request-Id'] } } : {}),
      content: { 'application/json': { schema: errorSchema(codes), example } },
    }
  }
  result.responses.default = {
    description:
      'Any other status, with the same envelope: what a fault set on the mock answers (408, 429, 5xx…; ' +
      'docs/openapi.md, "Faults")',
    ...(isApi ? { headers: { 'X-Request-Id': headers['X-Request-Id'] } } : {}),
    content: { 'application/json': { schema: { $ref: REF('ErrorBody') }, example: FAULT_EXAMPLE } },
  }
  return result
}

function success(answer: Answer, schemas: SchemaBook, example: unknown): Json {
  const withExample = example !== undefined ? { example } : {}
  if ('data' in answer) {
    return { content: { 'application/json': { schema: schemas.envelope(answer.data), ...withExample } } }
  }
  if ('page' in answer) {
    return { content: { 'application/json': { schema: schemas.page(answer.page), ...withExample } } }
  }
  const schema =
    answer.schema === undefined
      ? { type: 'string' }
      : isZod(answer.schema)
        ? schemas.output(answer.schema)
        : schemas.answer(answer.schema as Json)
  return { content: { [answer.media]: { schema, ...withExample } } }
}
