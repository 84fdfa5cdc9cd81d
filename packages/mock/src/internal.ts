/**
 * What the standalone server and the CLI reach inside a mock made by `createMockApi`, without
 * widening its public type: the context (store, clock, reset) and the webhook dispatcher.
 * Not exported from the package entry.
 */
import type { MockContext } from './context.js'
import type { MockDispatcher } from './webhooks/index.js'

/** The inside of one mock. */
export interface MockInternals {
  context: MockContext
  dispatcher: MockDispatcher
}

const registry = new WeakMap<object, MockInternals>()

/** Records the inside of `mock` (called by `createMockApi`). */
export function registerInternals(mock: object, internals: MockInternals): void {
  registry.set(mock, internals)
}

/** The inside of a mock made by `createMockApi`. */
export function internalsOf(mock: object): MockInternals {
  const internals = registry.get(mock)
  if (!internals) throw new TypeError('not a mock created by createMockApi')
  return internals
}
