import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'

const root = fileURLToPath(new URL('.', import.meta.url))

// The webhook tests that go through `src/webhooks/index.ts`, whose HMAC comes from `#crypto`.
const BOUND_WEBHOOK_TESTS = [
  'test/webhooks.test.ts',
  'test/webhooks-adapters.test.ts',
  'test/webhooks-test-delivery.test.ts',
  'test/webhooks-growing-service.test.ts',
  'test/webhooks-dedupe.test.ts',
]
// Only meaningful where Web Crypto is the backend: a page without `crypto.subtle`.
const WEB_CRYPTO_ONLY_TESTS = ['test/webhooks-secure-context.test.ts']

/**
 * The SDK's tests (the root vitest.config.ts runs them too):
 * - `sdk:unit` (test/*.test.ts: the client against fake fetches, schemas, webhooks). Vitest resolves
 *   `#crypto` through package.json "imports" under the `node` condition: node:crypto.
 * - `sdk:webcrypto`: the webhook tests again with `#crypto` bound to Web Crypto, the backend of the
 *   `default` build (browsers, edge runtimes).
 * The SDK against the mock lives in packages/contract-tests.
 */
export const projects: TestProjectInlineConfiguration[] = [
  {
    test: {
      name: 'sdk:unit',
      root,
      include: ['test/*.test.ts'],
      exclude: [...configDefaults.exclude, ...WEB_CRYPTO_ONLY_TESTS],
      provide: { webhooksBinding: 'node' },
      // One module graph per worker (why: the root vitest.config.ts).
      isolate: false,
    },
  },
  {
    resolve: {
      alias: [
        {
          find: /^#crypto$/,
          replacement: fileURLToPath(new URL('src/webhooks/crypto-web.ts', import.meta.url)),
        },
      ],
    },
    test: {
      name: 'sdk:webcrypto',
      root,
      include: [...BOUND_WEBHOOK_TESTS, ...WEB_CRYPTO_ONLY_TESTS],
      provide: { webhooksBinding: 'web' },
      isolate: false,
    },
  },
]

export default defineConfig({ test: { projects } })
