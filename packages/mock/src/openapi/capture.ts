/**
 * Example answers for the OpenAPI documents, captured from a real mock on the demo seed: each
 * operation's example request, as the document itself states it (`exampleRequests` of the SDK:
 * parameter `example`s, the body's `example`, `x-example-setup`), runs on a freshly reset mock, and
 * its answer is the example. An example that does not answer the documented success status fails
 * the capture. For operations that need a key, the same request without one gives the 401 example.
 * Each error example request (`x-error-examples`) gives the example of its status (the first one
 * of a status, where two share it), and fails the capture unless it gets its status and code.
 *
 * `pnpm run openapi:examples` freezes the answers (`packages/sdk/openapi/examples.json` for the
 * service, `control-examples.json` for the control endpoints); `test/api/openapi-examples.test.ts`
 * fails while the documents hold other answers than the mock gives.
 *
 * The mock runs on a fixed time (`EXAMPLE_TIME`), not the machine's clock: one commit builds one
 * document, byte for byte.
 */
import {
  atPointer,
  type CapturedExample,
  type ExampleRequestOf,
  errorExampleRequests,
  exampleRequests,
  type OpenApiDocument,
} from '@reseller-api/sdk/schemas'
import { createMockApi } from '../index.js'
import { controlSpecs, servedDocument, serverOnlyOperationIds } from './served.js'

/** The mock time the examples are captured at. */
export const EXAMPLE_TIME = Date.UTC(2026, 0, 15, 9, 30)

/** Whether an in-process mock answers the example: JSON, and not one of the server's own endpoints. */
function capturable(request: ExampleRequestOf): boolean {
  serverOnly ??= serverOnlyOperationIds()
  return request.media === 'application/json' && !serverOnly.has(request.operationId)
}
let serverOnly: Set<string> | undefined

/**
 * Runs the example request of every operation of `document` whose operationId `capture` accepts
 * (default: every one whose answer is JSON); the answers by operationId (`… 401` for the
 * request without a key).
 */
export async function captureExamples(
  document: OpenApiDocument,
  capture: (request: ExampleRequestOf) => boolean = capturable,
): Promise<Record<string, CapturedExample>> {
  const requests = exampleRequests(document)
  const byId = new Map(requests.map((request) => [request.operationId, request]))
  // The clock reads Date.now (state/clock.ts): stand it still while the examples run.
  const realNow = Date.now
  Date.now = () => EXAMPLE_TIME
  // A base URL of its own: nothing else answers there.
  const mock = createMockApi({ baseUrl: 'https://openapi-examples.reseller.test' })
  const send = async (request: ExampleRequestOf, path: string, key: string | undefined) => {
    const headers: Record<string, string> = {}
    if (key) headers.authorization = `Bearer ${key}`
    if (request.body !== undefined) headers['content-type'] = 'application/json'
    const response = await mock.fetch(`${mock.baseUrl}${path}`, {
      method: request.method,
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    })
    const text = await response.text()
    return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) }
  }
  /** On a freshly reset mock: runs the setup of `request` if any, and gives its path filled in. */
  const prepare = async (request: ExampleRequestOf, name: string) => {
    mock.reset()
    let path = request.path
    if (request.setup) {
      const setup = byId.get(request.setup.operationId)
      if (!setup) throw new Error(`${name}: no operation ${request.setup.operationId} to set up with`)
      const answer = await send(setup, setup.path, setup.key)
      if (answer.status !== setup.status)
        throw new Error(`${name}: its setup ${setup.operationId} answered ${answer.status}`)
      for (const [param, pointer] of Object.entries(request.setup.params ?? {})) {
        const value = atPointer(answer.body, pointer)
        path = path.replace(`{${param}}`, encodeURIComponent(String(value)))
      }
    }
    if (/\{\w+\}/.test(path)) throw new Error(`${name}: no example value for a path parameter of ${path}`)
    return path
  }
  const out: Record<string, CapturedExample> = {}
  try {
    for (const request of requests) {
      if (!capture(request)) continue
      const name = `the example of ${request.operationId}`
      const path = await prepare(request, name)
      const answer = await send(request, path, request.key)
      if (answer.status !== request.status) {
        throw new Error(
          `${name} answered ${answer.status}, not ${request.status}: ${JSON.stringify(answer.body)}`,
        )
      }
      out[request.operationId] = answer
      if (request.key) {
        mock.reset()
        out[`${request.operationId} 401`] = await send(request, path, undefined)
      }
    }
    for (const request of errorExampleRequests(document)) {
      if (!capture(request)) continue
      const name = `the ${request.code} example of ${request.operationId}`
      const answer = await send(request, await prepare(request, name), request.key)
      const code = (answer.body as { error?: { code?: unknown } } | null)?.error?.code
      if (answer.status !== request.status || code !== request.code) {
        throw new Error(
          `${name} answered ${answer.status} ${String(code)}, not ${request.status} ${request.code}: ${JSON.stringify(answer.body)}`,
        )
      }
      out[`${request.operationId} ${request.status}`] ??= answer
    }
  } finally {
    mock.reset() // drops the delivery attempts the examples scheduled
    Date.now = realNow
  }
  return out
}

/** The example answers of the service's operations, from the requests of `service` (the published document). */
export function captureServiceExamples(service: OpenApiDocument): Promise<Record<string, CapturedExample>> {
  return captureExamples(service)
}

/** The example answers of the control endpoints that have an example request (the others have a static one). */
export function captureControlExamples(service: OpenApiDocument): Promise<Record<string, CapturedExample>> {
  // The server's own endpoints (namespaces) keep their static examples: no in-process mock answers
  // them; prism-check sends their example requests to the built server.
  const serverOnly = serverOnlyOperationIds()
  const ids = new Set(
    controlSpecs().flatMap((spec) =>
      spec.example && !serverOnly.has(spec.operationId) ? [spec.operationId] : [],
    ),
  )
  return captureExamples(servedDocument(service, {}), (request) => ids.has(request.operationId))
}
