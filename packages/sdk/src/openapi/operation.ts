/**
 * One operation of the document from its {@link OperationSpec}: parameters (with the example
 * request's values), request body, the success answer, the error answers its access rules imply
 * (`errors.ts`) and the `default` answer a fault of the mock may give.
 */
import { PageNumber } from '../schemas/common.js'
import { errorExample, errorSchema, errorsOf, FAULT_EXAMPLE } from './errors.js'
import { isZod, REF, type SchemaBook } from './schema-book.js'
import type { AnswerSpec, CapturedExample, ErrorExample, OperationSpec } from './spec.js'

type Json = Record<string, unknown>
/** @internal One operation object of the document. */
export type Operation = Json & { operationId: string; responses: Record<string, Json> }

const API_PREFIX = '/api/'

/** Tags by path prefix, first match wins. */
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
]

/** @internal The service's tags, in the document's order, with their texts. */
export const SERVICE_TAGS: Record<string, string> = {
  hosting: "Provisioning of cPanel accounts for the reseller's clients",
  whm: "Direct access to the reseller's WHM account",
  tickets: 'Support tickets',
  'reseller webhook': 'The reseller-style webhook',
  webhooks: 'General webhooks and their delivery history',
  billing: 'Services and invoices',
}

/** @internal The document's operation for `op`, with the captured answers `examples` (by operationId). */
export function buildOperation(
  op: OperationSpec,
  schemas: SchemaBook,
  examples: Record<string, CapturedExample>,
): Operation {
  const isApi = op.path.startsWith(API_PREFIX)
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
  const example = op.example
  const withExample = (value: unknown) => (value !== undefined ? { example: value } : {})
  const parameters: Json[] = names.map((name) => ({
    name,
    in: 'path',
    required: true,
    // An empty segment matches no route: the router answers 404.
    schema: op.pathParams?.[name] ? schemas.input(op.pathParams[name]) : { type: 'string', minLength: 1 },
    ...withExample(example?.params?.[name]),
  }))
  if ('page' in op.answer) {
    parameters.push({
      name: 'page',
      in: 'query',
      required: false,
      description: 'Page number, from 1; 20 items per page. A page beyond the end is empty.',
      schema: schemas.input(PageNumber),
      ...withExample(example?.query?.page),
    })
  }
  if (op.query) {
    const query = schemas.input(op.query) as { properties?: Record<string, Json> }
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({ name, in: 'query', required: false, schema, ...withExample(example?.query?.[name]) })
    }
  }

  const description = [
    op.description,
    op.scope ? `Needs the scope \`${op.scope}\`.` : isApi ? 'Needs any valid key.' : undefined,
    op.sandbox === 'refuse' ? 'Sandbox keys are refused (403 `sandbox_read_only`).' : undefined,
    op.successor ? `**Deprecated**: use \`${op.method} ${op.successor}\`.` : undefined,
  ]
    .filter(Boolean)
    .join(' ')

  const result: Operation = {
    operationId: op.operationId,
    summary: op.summary,
    ...(description ? { description } : {}),
    tags: [op.tag ?? TAGS.find(([prefix]) => op.path.startsWith(prefix))?.[1] ?? 'mock'],
    ...(op.successor ? { deprecated: true, 'x-successor': op.successor } : {}),
    security: op.auth === 'none' ? [] : [{ bearerAuth: op.scope ? [op.scope] : [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(example?.setup ? { 'x-example-setup': example.setup } : {}),
    responses: {},
  }
  const errors = errorsOf(op, names.length > 0)
  if (op.errorExamples) result['x-error-examples'] = errorExamples(op, errors)
  if (op.body) {
    result.requestBody = {
      required: !op.bodyOptional,
      content: { 'application/json': { schema: schemas.input(op.body), ...withExample(example?.body) } },
    }
  }

  const headers: Json = isApi ? { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } } : {}
  if (op.successor) {
    headers.Deprecation = { $ref: '#/components/headers/Deprecation' }
    headers.Link = { $ref: '#/components/headers/Link' }
  }
  const withHeaders = Object.keys(headers).length > 0 ? { headers } : {}
  const captured = examples[op.operationId]
  result.responses[String(op.answer.status)] = {
    description: op.answer.description,
    ...withHeaders,
    ...success(op.answer, schemas, captured?.status === op.answer.status ? captured.body : op.staticExample),
  }

  for (const [status, codes] of errors) {
    const answer = examples[`${op.operationId} ${status}`]?.body ?? errorExample(op, codes)
    result.responses[String(status)] = {
      description: `Error: ${codes.map((code) => `\`${code}\``).join(', ')}`,
      ...(isApi ? { headers: { 'X-Request-Id': headers['X-Request-Id'] } } : {}),
      content: { 'application/json': { schema: errorSchema(codes), example: answer } },
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

/**
 * The operation's error example requests, whole: each is its example request with what the error
 * example changes, under the status that documents its code. A code the operation does not
 * document fails the build.
 */
function errorExamples(op: OperationSpec, errors: Map<number, string[]>): ErrorExample[] {
  return Object.entries(op.errorExamples ?? {}).map(([code, change]) => {
    const status = [...errors].find(([, codes]) => codes.includes(code))?.[0]
    if (status === undefined) {
      throw new Error(`${op.operationId}: the error example ${code} is not an error code it documents`)
    }
    return { code, status, request: { ...op.example, ...change } }
  })
}

function success(answer: AnswerSpec, schemas: SchemaBook, example: unknown): Json {
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
