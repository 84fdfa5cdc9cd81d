/**
 * `createMockApi`: a mock with all a test in the same process uses, `mock.handlers` (MSW) and
 * `mock.db` (@msw/data) included. msw and @msw/data come in here only: the standalone server
 * assembles its mock without them (`mock-api.ts`), and never loads either.
 */
import {
  assembleMock,
  type ListenImpl,
  listenUnavailable,
  type MockApi,
  type MockApiOptions,
  type MockViews,
} from './mock-api.js'
import { createMswHandlers } from './routing/msw.js'
import { createDb } from './state/db.js'

const VIEWS: MockViews = { handlers: createMswHandlers, db: createDb }

/** Creates a mock of the API with its own state, loaded from `seed` (default: the demo seed). */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  return buildMockApi(options, listenUnavailable)
}

/** {@link createMockApi} with a given `listen` (the `node` entry passes the node:http server). @internal */
export function buildMockApi(options: MockApiOptions, listenImpl: ListenImpl): MockApi {
  return assembleMock(options, listenImpl, VIEWS).mock
}
