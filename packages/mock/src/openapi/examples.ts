/**
 * Example answers for the OpenAPI document, captured from a real mock on the demo seed: each
 * operation's example request (`operations.ts`) runs on a freshly reset mock, and its answer is
 * the example. An example that does not answer the documented success status fails the capture
 * (`pnpm run openapi:examples`, which freezes the answers in `packages/sdk/openapi/examples.json`);
 * `test/api/openapi-examples.test.ts` fails while that file differs from what the mock answers.
 * For API routes, the same request without a key gives the 401 example.
 *
 * The mock runs on a fixed time (`EXAMPLE_TIME`), not the machine's clock: one commit builds one
 * document, byte for byte.
 */
import { createMockApi } from '../index.js'
import type { Route } from '../routing/route.js'
import type { CapturedExample } from './document.js'
import type { OperationDoc } from './operation-doc.js'

const DEMO_KEY = 'svc_live_acme_full'
/** The mock time the examples are captured at. */
export const EXAMPLE_TIME = Date.UTC(2026, 0, 15, 9, 30)

/** Runs every example request; the answers keyed like `operations` (`… 401` for the unauthenticated one). */
export async function captureExamples(
  routes: readonly Route[],
  operations: Record<string, OperationDoc>,
): Promise<Record<string, CapturedExample>> {
  // The clock reads Date.now (state/clock.ts): stand it still while the examples run.
  const realNow = Date.now
  Date.now = () => EXAMPLE_TIME
  // A base URL of its own: nothing else answers there.
  const mock = createMockApi({ baseUrl: 'https://openapi-examples.reseller.test' })
  const out: Record<string, CapturedExample> = {}
  const send = async (method: string, path: string, key: string | undefined, body?: unknown) => {
    const headers: Record<string, string> = {}
    if (key) headers.authorization = `Bearer ${key}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await mock.fetch(`${mock.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    const text = await response.text()
    return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) }
  }
  try {
    for (const route of routes) {
      const key = `${route.method} ${route.path}`
      const example = operations[key]?.example
      if (!example) continue
      mock.reset()
      const apiKey = route.auth === 'none' ? undefined : (example.key ?? DEMO_KEY)
      const before: unknown[] = []
      for (const step of example.before ?? []) {
        const answer = await send(step.method, step.path, apiKey ?? DEMO_KEY, step.body)
        if (answer.status >= 400)
          throw new Error(`OpenAPI example of ${key}: ${step.method} ${step.path} answered ${answer.status}`)
        before.push(answer.body)
      }
      const params =
        typeof example.params === 'function' ? example.params(mock.state(), before) : (example.params ?? {})
      const path =
        route.path.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
          const value = params[name]
          if (value === undefined) throw new Error(`OpenAPI example of ${key}: no value for :${name}`)
          return encodeURIComponent(value)
        }) + (example.query ? `?${example.query}` : '')
      const answer = await send(route.method, path, apiKey, example.body)
      const expected = operations[key]!.answer.status
      if (answer.status !== expected) {
        throw new Error(
          `OpenAPI example of ${key} answered ${answer.status}, not ${expected}: ${JSON.stringify(answer.body)}`,
        )
      }
      out[key] = answer
      if (apiKey) {
        mock.reset()
        out[`${key} 401`] = await send(route.method, path, undefined, example.body)
      }
    }
  } finally {
    mock.reset() // drops the delivery attempts the examples scheduled
    Date.now = realNow
  }
  return out
}
