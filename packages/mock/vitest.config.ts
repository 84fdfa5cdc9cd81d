import { fileURLToPath } from 'node:url'
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'

const root = fileURLToPath(new URL('.', import.meta.url))
const sdkSource = (path: string) => fileURLToPath(new URL(`../sdk/src/${path}`, import.meta.url))

// Test the mock against the SDK's source, so a schema change shows up without a rebuild.
const alias = [
  { find: /^@reseller-api\/sdk\/webhooks$/, replacement: sdkSource('webhooks/index.ts') },
  { find: /^@reseller-api\/sdk\/schemas$/, replacement: sdkSource('schemas.ts') },
  { find: /^@reseller-api\/sdk$/, replacement: sdkSource('index.ts') },
]

/**
 * The mock's tests by level, one vitest project each (the root vitest.config.ts runs them too):
 * - `mock:unit`: one module on its own (store, table, clock, router, parsers), no server, no child process;
 * - `mock:api`: the mock through its public surface (createMockApi, mock.fetch, MSW handlers, listen());
 * - `mock:process`: tests that start the CLI or another child process.
 * The Chromium tests (test/browser) run with `pnpm test:browser` (vitest.browser.config.ts at the root),
 * the black-box suite (test/blackbox) with `pnpm test:blackbox`, the image under podman
 * (test/container) with scripts/container-check.sh (vitest.container.config.ts).
 */
export const projects: TestProjectInlineConfiguration[] = ['unit', 'api', 'process'].map((level) => ({
  resolve: { alias },
  test: {
    name: `mock:${level}`,
    root,
    include: [`test/${level}/**/*.test.ts`],
    // A ceiling for a hung test, not a speed target: starting a process or bundling takes seconds
    // on a loaded 2-core machine, where vitest's default of 5 s failed healthy tests.
    testTimeout: level === 'process' ? 30_000 : 15_000,
    // `@msw/data`'s entry loads all of es-toolkit (over 500 modules); bundled once by vitest, each
    // test file imports one module instead (the published build inlines it: tsup.config.ts).
    deps: { optimizer: { ssr: { enabled: true, include: ['@msw/data'] } } },
    // One module graph per worker (why: the root vitest.config.ts).
    isolate: false,
  },
}))

export default defineConfig({ test: { projects } })
