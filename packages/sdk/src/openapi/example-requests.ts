/**
 * The example request of every operation, read back from a document: path parameters from their
 * `example`s, query parameters that have one, the request body's `example`, the operation to run
 * first (`x-example-setup`) and the key (`x-example-key` of the bearer scheme); and the requests
 * that get a documented error code (`x-error-examples`). The mock captures its example answers
 * from these, and `scripts/prism-check.mjs` sends them through Prism: a new operation with its
 * examples is in both without an edit there.
 */
import type { OpenApiDocument } from './document.js'
import type { ErrorExample } from './spec.js'

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

/** @internal A request that gets the documented error `code` (under `status`). */
export interface ErrorExampleRequestOf extends ExampleRequestOf {
  code: string
}

type Json = Record<string, unknown>

/** The document's path template with `params` filled in (URI-encoded), and the names left without one. */
function fillPath(template: string, params: (name: string) => unknown): { path: string; missing: string[] } {
  const missing: string[] = []
  const path = template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params(name)
    if (value === undefined) {
      missing.push(name)
      return whole
    }
    return encodeURIComponent(String(value))
  })
  return { path, missing }
}

/** `path` with the query string of `query` (its defined values), if any. */
function withQuery(path: string, query: Iterable<[string, unknown]>): string {
  const search = new URLSearchParams()
  for (const [name, value] of query) if (value !== undefined) search.set(name, String(value))
  return `${path}${search.size > 0 ? `?${search}` : ''}`
}

/** The example key of `document` (the bearer scheme's `x-example-key`). */
function exampleKeyOf(document: OpenApiDocument): string | undefined {
  const scheme = (document.components as Json).securitySchemes as Json | undefined
  return (scheme?.bearerAuth as Json | undefined)?.['x-example-key'] as string | undefined
}

/** @internal The example request of every operation of `document`, in the document's order. */
export function exampleRequests(document: OpenApiDocument): ExampleRequestOf[] {
  const exampleKey = exampleKeyOf(document)
  const out: ExampleRequestOf[] = []
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const parameters = (op.parameters ?? []) as { name: string; in: string; example?: unknown }[]
      const { path, missing } = fillPath(
        template,
        (name) => parameters.find((p) => p.in === 'path' && p.name === name)?.example,
      )
      const query = parameters
        .filter((p) => p.in === 'query')
        .map((p): [string, unknown] => [p.name, p.example])
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
        path: withQuery(path, query),
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

/**
 * @internal The requests of `document` that get a documented error code (each operation's
 * `x-error-examples`), in the document's order.
 */
export function errorExampleRequests(document: OpenApiDocument): ErrorExampleRequestOf[] {
  const exampleKey = exampleKeyOf(document)
  const out: ErrorExampleRequestOf[] = []
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const { code, status, request } of (op['x-error-examples'] ?? []) as ErrorExample[]) {
        const { path, missing } = fillPath(template, (name) => request.params?.[name])
        out.push({
          operationId: op.operationId,
          code,
          method: method.toUpperCase(),
          template,
          path: withQuery(path, Object.entries(request.query ?? {})),
          key: request.key ?? exampleKey,
          body: request.body,
          status,
          media: 'application/json',
          setup: request.setup,
          missing,
        })
      }
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
