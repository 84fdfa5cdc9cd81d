/**
 * The `node` entry of `@reseller-api/mock` (export condition `node`: Node, Deno, Bun): everything
 * the default entry has, with a `mock.listen()` that serves over `node:http`. Browser and edge
 * bundles resolve the default entry and never meet `node:http`.
 *
 * @packageDocumentation
 */
import { buildMockApi } from './create-mock-api.js'
import type { MockApi, MockApiOptions } from './mock-api.js'
import { serveMock } from './server/http/serve.js'

export { ControlError as MockControlError } from './control/client.js'
export { connectMock } from './control/connect.js'
export { ApiError as MockApiError, isApiError as isMockApiError } from './errors.js'
export { defaultFaultCode } from './faults/registry.js'
export { FaultJson, FaultMatch, FaultSpec } from './faults/schema.js'
// The default entry's values, named one by one rather than `export * from './index.js'`: a module
// of re-exports that two entries share becomes an empty chunk of its own in the build (esbuild).
// Its types come with `export type *`, which the build erases. test/unit/entries.test.ts checks
// that the two entries export the same values.
export type * from './index.js'
export { JournalEntry, JournalFilter, JournalResponse } from './journal/schema.js'
export { DEFAULT_BASE_URL } from './mock-api.js'
export { demoSeed } from './seed/demo.js'
export { parseSeed, SeedError, seedSchema } from './seed/schema.js'

/** Creates a mock of the API with its own state, loaded from `seed` (default: the demo seed). */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  return buildMockApi(options, serveMock)
}
