/**
 * Checks answers of the mock against the OpenAPI document with ajv (JSON Schema 2020-12), not with
 * the zod schemas the document came from: the drift test of the SDK's integration tests and the
 * tests of the document use it.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'

/** One answer the mock gave. */
export interface RecordedAnswer {
  method: string
  /** Path below the base URL, without the query. */
  path: string
  status: number
  contentType: string | null
  body: string
  /**
   * A fault was set on the mock when the request came: the answer may be the fault's, which the
   * operation's `default` response describes. Without it, a status the operation does not list is
   * a violation: `default` would otherwise accept any error the route forgot to document.
   */
  fault?: boolean
}

type Json = Record<string, unknown>
interface Document {
  paths: Record<string, Record<string, { responses: Record<string, Json> }>>
  components: Json
}

const DOC_ID = 'https://reseller.test/openapi.json'

/** A checker of answers against `document`; `check` returns the violations (empty: conforms). */
export function createAnswerChecker(document: Document) {
  // Formats are asserted by the patterns zod writes next to them; unknown keywords (example) are ignored.
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true })
  ajv.addSchema({ $id: DOC_ID, components: document.components })
  const compiled = new Map<string, ValidateFunction>()
  // Keyed by the schema's text: operations that answer alike (most error answers) share one.
  const validator = (schema: Json) => {
    // The document's refs are relative to its root: aim them at the schema added above.
    const text = JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`)
    let validate = compiled.get(text)
    if (!validate) {
      validate = ajv.compile(JSON.parse(text) as Json)
      compiled.set(text, validate)
    }
    return validate
  }
  // Templates as regular expressions, static paths first (`/faults` before `/faults/{id}`).
  const templates = Object.keys(document.paths)
    .map((template) => ({
      template,
      pattern: new RegExp(
        `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
      ),
      params: (template.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.params - b.params)

  /** The operation's template for `method path`, or undefined. */
  function operationOf(method: string, path: string): string | undefined {
    return templates.find(
      (t) => t.pattern.test(path) && document.paths[t.template]?.[method.toLowerCase()] !== undefined,
    )?.template
  }

  function check(answer: RecordedAnswer): string[] {
    const where = `${answer.method} ${answer.path} → ${answer.status}`
    const template = operationOf(answer.method, answer.path)
    if (!template) {
      // An unknown route: the mock's 404 (or 405) has no operation to conform to.
      return answer.status === 404 || answer.status === 405 ? [] : [`${where}: no operation in the document`]
    }
    const operation = document.paths[template]![answer.method.toLowerCase()]!
    const statusKey = String(answer.status) in operation.responses ? String(answer.status) : 'default'
    if (statusKey === 'default' && !answer.fault)
      return [`${where}: status ${answer.status} not documented for ${answer.method} ${template}`]
    const response = operation.responses[statusKey]
    if (!response) return [`${where}: status not documented for ${answer.method} ${template}`]
    const content = response.content as Record<string, { schema?: Json }> | undefined
    const mediaType = (answer.contentType ?? '').split(';')[0]!.trim()
    if (!content) return answer.body === '' ? [] : [`${where}: a body where the document has none`]
    const media = content[mediaType]
    if (!media)
      return [`${where}: content type "${mediaType}" not documented (${Object.keys(content).join(', ')})`]
    if (mediaType !== 'application/json' || !media.schema) return []
    let body: unknown
    try {
      body = JSON.parse(answer.body)
    } catch {
      return [`${where}: body is not JSON`]
    }
    const validate = validator(media.schema)
    if (validate(body)) return []
    return (validate.errors ?? []).map(
      (error) =>
        `${where} (${template}): ${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`,
    )
  }

  return { check, operationOf }
}

/** A ticket detail as the service answers it (`GET /support/tickets/{uuid}`), for checker tests. */
export const sampleTicketDetail = Object.freeze({
  id: 1,
  uuid: '4fe3237f-9484-4187-acbd-9e63a5d1a40a',
  user_id: 1,
  subject: 'Hi',
  department: 'sales',
  status: 'open',
  priority: 'low',
  messages_count: 1,
  created_at: '2026-11-23T17:42:16.868013Z',
  updated_at: '2026-11-23T17:42:16.868013Z',
  service_id: null,
  messages: [],
})
