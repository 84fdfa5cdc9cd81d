/**
 * Builds the OpenAPI 3.1 document from the route table, the operation texts of `operations.ts` and
 * the zod schemas (zod 4's `toJSONSchema`, which reads `zod/mini` schemas as well). The list of
 * operations is the route table: a route without an entry in `operations` is an error here, and
 * the error answers of each operation follow from its access rules (key → 401, scope → 403
 * `insufficient_scope`, sandbox refusal → 403 `sandbox_read_only`, path parameters → 404, body or
 * query or page → 422 `validation_error`, the WHM area → 422 `no_reseller_service` and 503
 * `whm_unavailable`), in the order of contract §5.
 *
 * Pure: no I/O, no clock. The build (`scripts/openapi.mjs`) adds the examples it captured from a
 * demo mock (`examples.ts`) and writes the file.
 */
import { ErrorBody, Id, PageNumber, SCOPES, Uuid } from '@reseller-api/sdk/schemas'
import * as z from 'zod/mini'
import type { Route } from '../routing/route.js'
import type { Answer, OperationDoc } from './operations.js'

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
}

const REF = (id: string) => `#/components/schemas/${id}`
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
  hosting: "Provisioning of cPanel accounts for the reseller's clients (spec §4.1)",
  whm: "Direct access to the reseller's WHM account (spec §4.2)",
  tickets: 'Support tickets (spec §4.3)',
  'reseller webhook': 'The reseller-style webhook (spec §4.4)',
  webhooks: 'General webhooks and their delivery history (spec §4.5)',
  billing: 'Services and invoices (spec §4.6)',
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

  const schemas = new SchemaBook(input.names)
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
      { url: 'https://api.reseller.test', description: 'The in-process mock (`createMockApi()`)' },
      { url: 'http://127.0.0.1:4010', description: 'The standalone mock (`reseller-mock`)' },
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
            'in its security requirement (an empty list: any valid key). Scopes (spec §5): `reseller:hosting` ' +
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
    schema: PARAMS[name] ? schemas.input(PARAMS[name]) : { type: 'string' },
  }))
  if ('page' in doc.answer) {
    parameters.push({
      name: 'page',
      in: 'query',
      required: false,
      description: 'Page number, from 1; 20 items per page (spec §8). A page beyond the end is empty.',
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
    ...success(doc.answer, schemas, captured?.status === doc.answer.status ? captured.body : undefined),
  }

  for (const [status, codes] of errorsOf(route, doc, params.length > 0)) {
    const example = examples[`${key} ${status}`]
    result.responses[String(status)] = {
      description: `Error: ${codes.map((code) => `\`${code}\``).join(', ')}`,
      ...(isApi ? { headers: { 'X-Request-Id': headers['X-Request-Id'] } } : {}),
      content: {
        'application/json': {
          schema: schemas.error(codes),
          ...(example ? { example: example.body } : {}),
        },
      },
    }
  }
  result.responses.default = {
    description: isApi
      ? 'Any other status, with the same envelope: what a fault set on the mock answers (408, 429, 5xx…; ' +
        'contract §6.2), or the standalone server refusing a foreign `Host` (403 `forbidden_host`)'
      : 'The standalone server refusing a foreign `Host` (403 `forbidden_host`) or a cross-site browser ' +
        'request (403 `cross_origin`), with the error envelope',
    ...(isApi ? { headers: { 'X-Request-Id': headers['X-Request-Id'] } } : {}),
    content: { 'application/json': { schema: { $ref: REF('ErrorBody') } } },
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
        : answer.schema
  return { content: { [answer.media]: { schema } } }
}

/** The error statuses of a route and their codes, in the order of contract §5. */
export function errorsOf(route: Route, doc: OperationDoc, hasParams: boolean): Map<number, string[]> {
  const out = new Map<number, string[]>()
  const add = (status: number, ...codes: string[]) => {
    const list = out.get(status) ?? []
    for (const code of codes) if (!list.includes(code)) list.push(code)
    out.set(status, list)
  }
  if (route.auth !== 'none') add(401, 'unauthenticated')
  if (route.scope) add(403, 'insufficient_scope')
  if (route.sandbox === 'refuse') add(403, 'sandbox_read_only')
  if (hasParams) add(404, 'not_found')
  if (doc.body || doc.query || 'page' in doc.answer) add(422, 'validation_error')
  if (route.scope === 'reseller:hosting') {
    add(422, 'no_reseller_service')
    add(503, 'whm_unavailable')
  }
  for (const [status, codes] of Object.entries(doc.errors ?? {})) add(Number(status), ...codes)
  return new Map([...out].sort(([a], [b]) => a - b))
}

function isZod(value: unknown): value is z.ZodMiniType {
  return typeof value === 'object' && value !== null && '_zod' in value
}

/**
 * Turns zod schemas into JSON Schema for the document. Answers are converted in one registry pass
 * (`io: 'output'`) in which every named schema is a component, so a `Ticket` inside a page is a
 * `$ref`; request bodies and parameters are converted alone (`io: 'input'`: defaults make fields
 * optional, pipes show their input side) and inlined. Unused components are dropped.
 */
class SchemaBook {
  private readonly outputs = z.registry<{ id: string }>()
  private readonly names = new Map<z.ZodMiniType, string>()
  private readonly pending = new Map<string, Json>()
  /** Named schemas an operation refers to directly. */
  private readonly referenced = new Set<string>()
  private next = 0

  constructor(named: Record<string, unknown>) {
    for (const [name, value] of Object.entries(named)) {
      if (isZod(value) && !this.names.has(value) && !this.outputs.has(value)) {
        this.names.set(value, name)
        this.outputs.add(value, { id: name })
      }
    }
    if (!this.outputs.has(ErrorBody)) this.outputs.add(ErrorBody, { id: 'ErrorBody' })
  }

  /** A placeholder filled in by `components()` (the registry is converted once, at the end). */
  private later(schema: z.ZodMiniType): Json {
    const name = this.names.get(schema)
    if (name) {
      this.referenced.add(name)
      return { $ref: REF(name) }
    }
    const id = `__inline${this.next++}`
    this.outputs.add(schema, { id })
    const slot: Json = { $inline: id }
    this.pending.set(id, slot)
    return slot
  }

  envelope(data: z.ZodMiniType): Json {
    return this.later(z.object({ success: z.literal(true), data }))
  }

  page(item: z.ZodMiniType): Json {
    return this.later(
      z.object({
        success: z.literal(true),
        data: z.array(item),
        meta: this.namedSchema('PageMeta'),
      }),
    )
  }

  output(schema: z.ZodMiniType): Json {
    return this.later(schema)
  }

  error(codes: string[]): Json {
    return {
      allOf: [
        { $ref: REF('ErrorBody') },
        { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } },
      ],
    }
  }

  input(schema: z.ZodMiniType): Json {
    return clean(
      z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Json,
    )
  }

  private namedSchema(name: string): z.ZodMiniType {
    for (const [schema, n] of this.names) if (n === name) return schema
    throw new Error(`OpenAPI: no schema named ${name}`)
  }

  /** Converts the registry, fills the inline slots, and returns the components in use. */
  components(): Record<string, Json> {
    const { schemas } = z.toJSONSchema(this.outputs, {
      target: 'draft-2020-12',
      io: 'output',
      unrepresentable: 'any',
      uri: (id) => REF(id),
    }) as { schemas: Record<string, Json> }
    for (const [id, slot] of this.pending) {
      delete slot.$inline
      Object.assign(slot, clean(schemas[id]!))
    }
    // Keep the components reachable from the operations (and from each other).
    const used = new Set<string>()
    const visit = (value: unknown) => {
      if (Array.isArray(value)) for (const item of value) visit(item)
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          if (k === '$ref' && typeof v === 'string' && v.startsWith(REF(''))) {
            const name = v.slice(REF('').length)
            if (!used.has(name)) {
              used.add(name)
              visit(schemas[name])
            }
          } else visit(v)
        }
      }
    }
    for (const slot of this.pending.values()) visit(slot)
    for (const name of [...this.referenced, 'ErrorBody']) visit({ $ref: REF(name) })
    const out: Record<string, Json> = {}
    for (const name of [...used].sort()) out[name] = clean(schemas[name]!)
    return out
  }
}

/** Drops `$schema` and `$id` (the document is the scope), recursively copies nothing else. */
function clean(schema: Json): Json {
  const { $schema: _schema, $id: _id, ...rest } = schema
  return rest
}
