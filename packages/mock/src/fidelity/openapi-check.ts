/**
 * Checks one recorded exchange against the OpenAPI document the mock serves
 * (`GET /__mock/openapi.json`): is the operation in the document, is the status one it lists, is
 * the answer JSON where the document says so and does it match the schema, do declared headers hold
 * values of their schema, and (for a request the service accepted) does the request body match.
 *
 * The schemas are the document's own JSON Schemas, turned into validators by zod's
 * `fromJSONSchema`: zod is already a dependency, and the document was written from the SDK's zod
 * schemas, so the round trip adds nothing to install.
 */
import { fromJSONSchema, type ZodType } from 'zod'

type Json = Record<string, unknown>

/** The part of an OpenAPI document the checker reads. */
export interface OpenApiDocumentLike {
  paths?: Record<string, Record<string, unknown>>
  components?: { schemas?: Record<string, unknown>; headers?: Record<string, unknown> }
}

/** One exchange, as the checker needs it. Header names in lower case; bodies as text. */
export interface ExchangeToCheck {
  method: string
  /** Path below the base URL, query included. */
  path: string
  requestHeaders: Record<string, string>
  requestBody: string | null
  status: number
  headers: Record<string, string>
  body: string | null
}

/**
 * Statuses a service may answer to any request (time-outs, rate limits, server errors): they match
 * the operation's `default` answer without being listed.
 */
const TRANSIENT = (status: number) => status === 408 || status === 429 || status >= 500

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const isJsonType = (contentType: string | undefined) =>
  contentType !== undefined && /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType)

/** The document's `#/components/schemas/X` refs aimed at the `$defs` of a standalone schema. */
function standalone(schema: unknown, defs: unknown): Json {
  const text = JSON.stringify({ ...(schema as Json), $defs: defs }).replaceAll(
    '"#/components/schemas/',
    '"#/$defs/',
  )
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...(JSON.parse(text) as Json) }
}

/** A validator of `schema`, a schema of the document whose components are `defs`. */
export function compileSchema(schema: unknown, defs: unknown): ZodType {
  return fromJSONSchema(standalone(schema, defs) as never)
}

function pointerOf(path: PropertyKey[]): string {
  return path.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')
}

/** A checker of exchanges against `document`; `check` returns the violations (empty: conforms). */
export function createExchangeChecker(document: OpenApiDocumentLike) {
  const paths = document.paths ?? {}
  const defs = document.components?.schemas ?? {}
  const compiled = new Map<string, ZodType>()
  const validator = (cacheKey: string, schema: unknown): ZodType => {
    let validate = compiled.get(cacheKey)
    if (!validate) {
      validate = compileSchema(schema, defs)
      compiled.set(cacheKey, validate)
    }
    return validate
  }
  // Static templates before parameterised ones: `/whm/usage` before `/whm/{name}`.
  const templates = Object.keys(paths)
    .map((template) => ({
      template,
      params: (template.match(/\{/g) ?? []).length,
      pattern: new RegExp(
        `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}|\{[^}]+\}/g, '[^/]+')}$`,
      ),
    }))
    .sort((a, b) => a.params - b.params)

  const resolve = (value: unknown): Json | undefined => {
    if (isObject(value) && typeof value.$ref === 'string') {
      const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(value.$ref) ?? []
      const target = (document.components as Record<string, Json> | undefined)?.[section ?? '']?.[name ?? '']
      return isObject(target) ? target : undefined
    }
    return isObject(value) ? value : undefined
  }

  function schemaViolations(where: string, key: string, schema: unknown, text: string): string[] {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return [`${where}: the body is not JSON`]
    }
    const result = validator(key, schema).safeParse(value)
    if (result.success) return []
    return result.error.issues.map((issue) => `${where} ${pointerOf(issue.path) || '/'}: ${issue.message}`)
  }

  function check(exchange: ExchangeToCheck): string[] {
    const bare = exchange.path.split('?')[0]!
    const method = exchange.method.toLowerCase()
    const where = `${exchange.method} ${bare} → ${exchange.status}`
    const template = templates.find((t) => t.pattern.test(bare) && isObject(paths[t.template]?.[method]))
    if (!template) {
      // An unknown route answered 404 or 405 agrees with a document that does not list it.
      return exchange.status === 404 || exchange.status === 405
        ? []
        : [`${where}: the document has no operation ${exchange.method} ${bare}`]
    }
    const operation = paths[template.template]![method] as Json
    const responses = isObject(operation.responses) ? operation.responses : {}
    const violations: string[] = []
    const listed = String(exchange.status) in responses
    if (!listed && !(TRANSIENT(exchange.status) && 'default' in responses)) {
      violations.push(
        `${where}: status ${exchange.status} is not one the document lists for ${exchange.method} ${template.template} (${Object.keys(responses).join(', ')})`,
      )
    }
    const statusKey = listed ? String(exchange.status) : 'default'
    const response = resolve(responses[statusKey])
    const json = isObject(response?.content) ? resolve(response.content['application/json']) : undefined
    if (json?.schema !== undefined) {
      if (!isJsonType(exchange.headers['content-type'])) {
        violations.push(
          `${where}: Content-Type is ${exchange.headers['content-type'] ?? 'missing'}, the document says application/json`,
        )
      } else {
        const key = `${method} ${template.template} ${statusKey}`
        violations.push(...schemaViolations(`${where}: answer`, key, json.schema, exchange.body ?? ''))
      }
    }
    for (const [name, declared] of Object.entries(isObject(response?.headers) ? response.headers : {})) {
      const value = exchange.headers[name.toLowerCase()]
      const schema = resolve(declared)?.schema
      if (value === undefined || schema === undefined) continue
      const result = validator(`header ${name}`, schema).safeParse(value)
      if (!result.success)
        violations.push(
          `${where}: header ${name} ${JSON.stringify(value)}: ${result.error.issues[0]?.message}`,
        )
    }
    // A request the service refused is the client's mistake, answered as documented; one it
    // accepted against the document is a disagreement of the service's.
    const requestJson = resolve(resolve(operation.requestBody)?.content as unknown)
    const requestSchema = resolve(requestJson?.['application/json'])?.schema
    if (
      exchange.status < 300 &&
      requestSchema !== undefined &&
      exchange.requestBody !== null &&
      isJsonType(exchange.requestHeaders['content-type'])
    ) {
      const key = `${method} ${template.template} request`
      violations.push(...schemaViolations(`${where}: request body`, key, requestSchema, exchange.requestBody))
    }
    return violations
  }

  return { check }
}
