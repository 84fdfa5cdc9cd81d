/**
 * The `node` entry of `@reseller-api/mock` (export condition `node`: Node, Deno, Bun): everything
 * the default entry has, with a `mock.listen()` that serves over `node:http`. Browser and edge
 * bundles resolve the default entry and never meet `node:http`.
 *
 * @packageDocumentation
 */
import { buildMockApi, type MockApi, type MockApiOptions } from './mock-api.js'
import { serveMock } from './server/serve.js'

export * from './index.js'

/** Creates a mock of the API with its own state, loaded from `seed` (default: the demo seed). */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  return buildMockApi(options, serveMock)
}
