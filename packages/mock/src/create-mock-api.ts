/**
 * `createMockApi` of the package's entries: a mock whose `mock.db` runs `@msw/data` queries. The
 * standalone server builds its mock with `assembleMockWith` directly and loads `@msw/data` only
 * if `mock.db` is used (`server/standalone.ts`).
 */
import { Query } from '@msw/data'
import {
  type AssembledMock,
  type AssembleOptions,
  assembleMockWith,
  type ListenImpl,
  listenUnavailable,
  type MockApi,
  type MockApiOptions,
} from './mock-api.js'
import { createDb } from './state/db.js'

/** Creates a mock of the API with its own state, loaded from `seed` (default: the demo seed). */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  return buildMockApi(options, listenUnavailable)
}

/** {@link createMockApi} with a given `listen` (the `node` entry passes the node:http server). @internal */
export function buildMockApi(options: MockApiOptions, listenImpl: ListenImpl): MockApi {
  return assembleMock(options, listenImpl).mock
}

/** `assembleMockWith` with `mock.db` over `@msw/data`'s `Query`: for tests of the inside. @internal */
export function assembleMock(
  options: AssembleOptions,
  listenImpl: ListenImpl = listenUnavailable,
): AssembledMock {
  return assembleMockWith(options, listenImpl, (tables) => createDb(tables, Query))
}
