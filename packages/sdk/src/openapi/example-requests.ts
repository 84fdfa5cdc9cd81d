/**
 * The example request of every operation, read back from a document: path parameters from their
 * `example`s, query parameters that have one, the request body's `example`, the operation to run
 * first (`x-example-setup`) and the key (`x-example-key` of the bearer scheme). The mock captures
 * its example answers from these, and `scripts/prism-check.mjs` sends them through Prism: a new
 * operation with its example is in both without an edit there.
 */
import type { OpenApiDocument } from './document.js'

/** @internal One operation's example request. */
export interface ExampleRequestOf {
  operationId: string
  method: string
  /** The document's path template, e.g. `/api/v1/support/tickets/{ticket_uuid}`. */
  template: string
  /** Path (parameters filled in, URI-encoded) and query string. */
  path: string
  /** The API key to send, or `undefined` for an operation without security. */
  key: string | undefined
  body: unknown
  /** The documented success status. */
  status: number
  /** Media type of the success answer. */
  media: string
  /** The operation to run first, and which path parameters to take from its answer (JSON pointers). */
  setup: { operationId: string; params?: Record<string, string> } | undefined
  /** Path parameters without an `example` (to be taken from the setup's answer). */
  missing: string[]
}

type Json = Record<string, unknown>

/** @internal The example request of every operation of `document`, in the document's order. */
export function exampleRequests(document: OpenApiDocument): ExampleRequestOf[] {
  const scheme = (document.components as Json).securitySchemes as Json | undefined
  const exampleKey = (scheme?.bearerAuth as Json | undefined)?.['x-example-key'] as string | undefined
  const out: ExampleRequestOf[] = []
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const parameters = (op.parameters ?? []) as { name: string; in: string; example?: unknown }[]
      const missing: string[] = []
      const path = template.replace(/\{(\w+)\}/g, (whole, name: string) => {
        const value = parameters.find((p) => p.in === 'path' && p.name === name)?.example
        if (value === undefined) {
          missing.push(name)
          return whole
        }
        return encodeURIComponent(String(value))
      })
      const query = new URLSearchParams()
      for (const p of parameters)
        if (p.in === 'query' && p.example !== undefined) query.set(p.name, String(p.example))
      const success = Object.keys(op.responses).find((status) => /^2\d\d$/.test(status)) ?? '200'
      const content = (op.responses[success]?.content ?? {}) as Json
      const requestBody = op.requestBody as
        | { content: { 'application/json': { example?: unknown } } }
        | undefined
      const secured = Array.isArray(op.security) ? op.security.length > 0 : true
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        template,
        path: `${path}${query.size > 0 ? `?${query}` : ''}`,
        key: secured ? exampleKey : undefined,
        body: requestBody?.content['application/json'].example,
        status: Number(success),
        media: Object.keys(content)[0] ?? 'application/json',
        setup: op['x-example-setup'] as ExampleRequestOf['setup'],
        missing,
      })
    }
  }
  return out
}

/** @internal The value at a JSON pointer (`/data/id`) of `value`, or `undefined`. */
export function atPointer(value: unknown, pointer: string): unknown {
  let at = value
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    if (at === null || typeof at !== 'object') return undefined
    at = (at as Record<string, unknown>)[key]
  }
  return at
}
