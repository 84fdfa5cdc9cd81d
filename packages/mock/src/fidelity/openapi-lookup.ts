/**
 * Reads the OpenAPI document the mock serves (`GET /__mock/openapi.json`) for the comparison
 * engine: the schema of one answer, the schemas of a field inside it, and the enum a field allows.
 * Unions (`oneOf`, `anyOf`, `allOf`) are kept as lists of candidate schemas.
 */

type Json = Record<string, unknown>

/** An OpenAPI document, as `GET /__mock/openapi.json` serves it. */
export interface OpenApiLike {
  paths?: Record<string, Record<string, unknown>>
  components?: { schemas?: Record<string, unknown> }
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Compiled path templates of a document, longest literal first so that `/x/usage` beats `/x/{id}`. */
const templates = new WeakMap<object, { template: string; pattern: RegExp }[]>()

function templatesOf(doc: OpenApiLike) {
  let list = templates.get(doc)
  if (!list) {
    list = Object.keys(doc.paths ?? {})
      .map((template) => ({
        template,
        literal: template.replace(/\{[^}]+\}/g, '').length,
        pattern: new RegExp(
          `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`,
        ),
      }))
      .sort((a, b) => b.literal - a.literal)
    templates.set(doc, list)
  }
  return list
}

/** The path template of the document that `path` (query ignored) matches, if any. */
export function pathTemplate(doc: OpenApiLike, path: string): string | undefined {
  const bare = path.split('?')[0]!
  return templatesOf(doc).find((t) => t.pattern.test(bare))?.template
}

/** Follows `$ref`s inside the document. */
export function resolveRef(doc: OpenApiLike, schema: unknown): Json | undefined {
  let current = schema
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 32; hops++) {
    const parts = current.$ref.replace(/^#\//, '').split('/')
    let target: unknown = doc
    for (const part of parts)
      target = isObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined
    current = target
  }
  return isObject(current) ? current : undefined
}

/** A schema with its unions spread: the candidates a value may match. */
function candidates(doc: OpenApiLike, schema: unknown): Json[] {
  const resolved = resolveRef(doc, schema)
  if (!resolved) return []
  const branches = [resolved.oneOf, resolved.anyOf, resolved.allOf].find(Array.isArray) as
    | unknown[]
    | undefined
  return branches ? branches.flatMap((branch) => candidates(doc, branch)) : [resolved]
}

/**
 * The JSON schema of an answer: `method path` with that status (or `default`), as the document
 * writes it, and a key naming that answer (`get /x/{id} 200`); `undefined` when it has none.
 */
export function responseSchema(
  doc: OpenApiLike,
  method: string,
  path: string,
  status: number | null,
): { key: string; schema: unknown } | undefined {
  const template = pathTemplate(doc, path)
  if (template === undefined || status === null) return undefined
  const verb = method.toLowerCase()
  const operation = doc.paths?.[template]?.[verb]
  if (!isObject(operation) || !isObject(operation.responses)) return undefined
  const listed = String(status) in operation.responses ? String(status) : 'default'
  const content = resolveRef(doc, operation.responses[listed])?.content
  const json = isObject(content) ? content['application/json'] : undefined
  if (!isObject(json) || json.schema === undefined) return undefined
  return { key: `${verb} ${template} ${listed}`, schema: json.schema }
}

/** The schemas of an answer: `method path` with that status (or `default`), JSON content. */
export function responseSchemas(
  doc: OpenApiLike,
  method: string,
  path: string,
  status: number | null,
): Json[] {
  const found = responseSchema(doc, method, path, status)
  return found ? candidates(doc, found.schema) : []
}

/** The schemas of member `key` (a property name, or an array index) of a value matching `schemas`. */
export function childSchemas(doc: OpenApiLike, schemas: Json[], key: string | number): Json[] {
  const out: Json[] = []
  for (const schema of schemas) {
    if (typeof key === 'number') {
      if (schema.items !== undefined) out.push(...candidates(doc, schema.items))
      continue
    }
    const properties = isObject(schema.properties) ? schema.properties : undefined
    if (properties && key in properties) out.push(...candidates(doc, properties[key]))
    else if (isObject(schema.additionalProperties)) out.push(...candidates(doc, schema.additionalProperties))
  }
  return out
}

/**
 * The string values `schemas` allow, when every candidate is an enum or a constant; `undefined`
 * when any candidate takes free text (or nothing is known of the field).
 */
export function allowedStrings(schemas: Json[]): Set<string> | undefined {
  if (schemas.length === 0) return undefined
  const allowed = new Set<string>()
  for (const schema of schemas) {
    if (Array.isArray(schema.enum)) for (const value of schema.enum) allowed.add(String(value))
    else if (typeof schema.const === 'string') allowed.add(schema.const)
    else return undefined
  }
  return allowed
}
