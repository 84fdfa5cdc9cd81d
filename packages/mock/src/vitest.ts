/**
 * `@reseller-api/mock/vitest`: a vitest `test` with a fresh mock and an SDK client per test.
 *
 * ```ts
 * import { expect, test } from '@reseller-api/mock/vitest'
 *
 * test('provisions', async ({ api, mock }) => {
 *   await api.hosting.create(501, { domain: 'shop.example', whm_package: 'starter' })
 *   expect((await mock.state()).tables.accounts).toHaveLength(3)
 * })
 * ```
 *
 * In process (the default), `mock` is `createMockApi(options)`, new for each test (tests may run
 * concurrently), its clock stopped after the test; `api` is a `ResellerApi` wired to `mock.fetch`
 * (no network, nothing global patched). With the environment variable `RESELLER_MOCK_URL` set to
 * a running standalone server (`reseller-mock`, its binary or its image), `mock` is a new
 * namespace of that server for each test (`connectMock(url).namespaces.create()`, deleted after
 * the test, passed or failed) and `api` a `ResellerApi` at its URL. Tests that await every call of
 * `mock` run both ways (docs/parallel-tests.md). Your own seed and key:
 * `const test = createMockTest({ seed, apiKey })`, or per `describe` with
 * `test.override({ mockOptions: { seed, apiKey } })`. Needs vitest 4 or later (an optional peer
 * dependency: only this entry loads it).
 *
 * @packageDocumentation
 */
import { ResellerApi, type ResellerApiOptions } from '@reseller-api/sdk'
import { test as vitestTest } from 'vitest'
import { connectMock, type MockNamespace } from './control/connect.js'
import { createMockApi, type MockApi, type MockApiOptions } from './node.js'
import { demoSeed } from './seed/demo.js'
import type { SeedInput } from './seed/schema.js'

/** The environment variable that turns on remote mode: the URL of a running standalone server. */
export const MOCK_URL_VARIABLE = 'RESELLER_MOCK_URL'

/** What {@link createMockTest} and the `mockOptions` fixture take. */
export interface MockTestOptions extends MockApiOptions {
  /**
   * The key `api` uses. Default: the first key of the seed's first reseller (with the demo seed,
   * `svc_live_acme_full`: live, every scope); in remote mode without a `seed`, the first key of
   * the server's own seed.
   */
  apiKey?: string
  /** Other options of the `ResellerApi` (`maxRetries`, `timeoutMs`, `logger`…); default: the SDK's. */
  client?: Omit<ResellerApiOptions, 'apiKey' | 'baseUrl' | 'fetch'>
}

/**
 * A test's mock: in process a {@link MockApi}; in remote mode (`RESELLER_MOCK_URL` set) a
 * {@link MockNamespace} of the server, whose methods resolve what `MockApi`'s return. Code that
 * awaits each call (`await mock.state()`, `await mock.faults.add(…)`) runs both ways; `mock.db`,
 * `mock.fetch` and `mock.handlers` are in process only (`'db' in mock` tells them apart).
 */
export type TestMock = MockApi | MockNamespace

/** The fixtures a test gets. */
export interface MockFixtures {
  /** The options `mock` and `api` are built from; override per `describe` with `test.override({ mockOptions })`. */
  mockOptions: MockTestOptions
  /** A fresh mock for this test: in process, or a new namespace of the server at `RESELLER_MOCK_URL`. */
  mock: TestMock
  /** A `ResellerApi` answered by `mock`. */
  api: ResellerApi
}

/** The key `api` uses when none is given: the first key of the first reseller of the seed. */
function defaultKey(seed: SeedInput | undefined): string {
  const key = (seed ?? demoSeed).resellers?.[0]?.api_keys?.[0]?.key
  if (typeof key !== 'string') throw new TypeError('createMockTest: the seed has no API key: give apiKey')
  return key
}

/** The server of remote mode, or `undefined` in process. Read per test: a setup file may set it. */
function remoteUrl(): string | undefined {
  const url = process.env[MOCK_URL_VARIABLE]?.trim()
  return url === undefined || url === '' ? undefined : url
}

/** A label naming the test in the server's namespace list and inspector. */
function labelOf(name: string): string {
  const label = `vitest: ${name}`
  return label.length > 100 ? `${label.slice(0, 99)}…` : label
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
    mock: async ({ mockOptions, task }, use) => {
      const url = remoteUrl()
      if (url !== undefined) {
        // The server's flags (--insecure-webhooks, --journal-limit) hold for its namespaces; the
        // seed and the id generator's seed are each namespace's own.
        const namespace = await connectMock(url).namespaces.create({
          ...(mockOptions.seed !== undefined && { seed: mockOptions.seed }),
          ...(mockOptions.randomSeed !== undefined && { randomSeed: mockOptions.randomSeed }),
          label: labelOf(task.name),
        })
        // vitest runs what follows `use` when the test ends, passed or failed.
        await use(namespace)
        await namespace.delete()
        return
      }
      const { apiKey: _key, client: _client, ...mockApiOptions } = mockOptions
      const mock = createMockApi(mockApiOptions)
      await use(mock)
      // Pending retries must not fire after the test.
      mock.clock.stop()
    },
    api: async ({ mock, mockOptions }, use) => {
      const namespaceKey = 'keys' in mock && mockOptions.seed === undefined ? mock.keys[0]?.key : undefined
      await use(
        new ResellerApi({
          ...mockOptions.client,
          apiKey: mockOptions.apiKey ?? namespaceKey ?? defaultKey(mockOptions.seed),
          baseUrl: mock.baseUrl,
          ...('fetch' in mock && { fetch: mock.fetch }),
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
