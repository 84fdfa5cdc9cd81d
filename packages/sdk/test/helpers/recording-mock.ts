/**
 * `@reseller-api/mock` as the SDK's tests see it (vitest.config.ts aliases it here): the mock's
 * Node entry, except that every mock it creates records the answers it gives through `mock.fetch`,
 * `mock.handle` (the standalone server of `mock.listen()`) and `mock.handlers` (MSW: rebuilt here
 * around the recording `handle`, as `buildMockApi` builds them). `openapi-drift.ts` checks
 * them against the OpenAPI document after each test file.
 */

import { routes } from '../../../mock/src/handlers/index.js'
import {
  createMockApi as createRealMockApi,
  type MockApi,
  type MockApiOptions,
} from '../../../mock/src/node.js'
import { parseBaseUrl } from '../../../mock/src/routing/base-url.js'
import { createMswHandlers } from '../../../mock/src/routing/msw.js'
import type { RecordedAnswer } from '../../../mock/test/helpers/answer-check.js'

export * from '../../../mock/src/node.js'

/** Answers recorded in this test file (read asynchronously: a body is read off a clone). */
export const recordedAnswers: Promise<RecordedAnswer | undefined>[] = []

/** `createMockApi` of the mock, recording. */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  const mock = createRealMockApi(options)
  const basePath = new URL(mock.baseUrl).pathname.replace(/\/$/, '')
  const below = (pathname: string) =>
    pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname

  const fetch = mock.fetch
  const handle = mock.handle
  // Any fault set may answer instead of the route (its answer is the operation's `default`).
  const faultSet = () => mock.faults.list().length > 0
  const recordingHandle: MockApi['handle'] = async (request) => {
    const fault = faultSet()
    const response = await handle(request)
    if (!response.noAnswer) {
      recordedAnswers.push(
        Promise.resolve({
          method: request.method,
          path: request.path,
          status: response.status,
          contentType: response.headers['content-type'] ?? null,
          body: response.body,
          fault,
        }),
      )
    }
    return response
  }
  // `handlers` is a getter (built on first use): define it again around the recording handle.
  let handlers: MockApi['handlers'] | undefined
  Object.defineProperty(mock, 'handlers', {
    get: () => (handlers ??= createMswHandlers(routes, parseBaseUrl(mock.baseUrl), recordingHandle)),
  })
  Object.assign(mock, {
    handle: recordingHandle,
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      const fault = faultSet()
      const response = await fetch(request.clone())
      recordedAnswers.push(
        response
          .clone()
          .text()
          .then((body) => ({
            method: request.method,
            path: below(new URL(request.url).pathname),
            status: response.status,
            contentType: response.headers.get('content-type'),
            body,
            fault,
          })),
      )
      return response
    },
  } satisfies Partial<MockApi>)
  return mock
}
