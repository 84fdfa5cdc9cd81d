/**
 * `@reseller-api/mock/vitest`: a vitest `test` with a fresh mock and an SDK client per test.
 *
 * ```ts
 * import { expect, test } from '@reseller-api/mock/vitest'
 *
 * test('provisions', async ({ api, mock }) => {
 *   await api.hosting.create(501, { domain: 'shop.example', whm_package: 'starter' })
 *   expect(mock.state().tables.accounts).toHaveLength(3)
 * })
 * ```
 *
 * `mock` is `createMockApi(options)`, new for each test (tests may run concurrently), its clock
 * stopped after the test; `api` is a `ResellerApi` wired to `mock.fetch` (no network, nothing
 * global patched). Your own seed and key: `const test = createMockTest({ seed, apiKey })`, or per
 * `describe` with `test.override({ mockOptions: { seed, apiKey } })`. Needs vitest 4 or later (an
 * optional peer dependency: only this entry loads it).
 *
 * @packageDocumentation
 */
import { ResellerApi, type ResellerApiOptions } from '@reseller-api/sdk'
import { test as vitestTest } from 'vitest'
import { createMockApi, type MockApi, type MockApiOptions } from './index.js'
import { demoSeed } from './seed/demo.js'
import type { SeedInput } from './seed/schema.js'

/** What {@link createMockTest} and the `mockOptions` fixture take. */
export interface MockTestOptions extends MockApiOptions {
  /**
   * The key `api` uses. Default: the first key of the seed's first reseller (with the demo seed,
   * `svc_live_acme_full`: live, every scope).
   */
  apiKey?: string
  /** Other options of the `ResellerApi` (`maxRetries`, `timeoutMs`, `logger`…); default: the SDK's. */
  client?: Omit<ResellerApiOptions, 'apiKey' | 'baseUrl' | 'fetch'>
}

/** The fixtures a test gets. */
export interface MockFixtures {
  /** The options `mock` and `api` are built from; override per `describe` with `test.override({ mockOptions })`. */
  mockOptions: MockTestOptions
  /** A fresh mock for this test. */
  mock: MockApi
  /** A `ResellerApi` answered by `mock.fetch`. */
  api: ResellerApi
}

/** The key `api` uses when none is given: the first key of the first reseller of the seed. */
function defaultKey(seed: SeedInput | undefined): string {
  const key = (seed ?? demoSeed).resellers?.[0]?.api_keys?.[0]?.key
  if (typeof key !== 'string') throw new TypeError('createMockTest: the seed has no API key: give apiKey')
  return key
}

/**
 * Makes a vitest `test` whose tests get `{ mock, api }` built from `options`.
 *
 * ```ts
 * const test = createMockTest({ seed, apiKey: 'svc_test_acme' })
 * ```
 */
export function createMockTest(options: MockTestOptions = {}) {
  return vitestTest.extend<MockFixtures>({
    mockOptions: options,
    mock: async ({ mockOptions }, use) => {
      const { apiKey: _key, client: _client, ...mockApiOptions } = mockOptions
      const mock = createMockApi(mockApiOptions)
      await use(mock)
      // Pending retries must not fire after the test.
      mock.clock.stop()
    },
    api: async ({ mock, mockOptions }, use) => {
      await use(
        new ResellerApi({
          ...mockOptions.client,
          apiKey: mockOptions.apiKey ?? defaultKey(mockOptions.seed),
          baseUrl: mock.baseUrl,
          fetch: mock.fetch,
        }),
      )
    },
  })
}

/** vitest's `test` with `{ mock, api }`: the demo seed and its full live key. */
export const test = createMockTest()
/** The same as {@link test}. */
export const it = test
export { describe, expect } from 'vitest'
