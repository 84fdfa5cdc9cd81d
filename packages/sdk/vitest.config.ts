import { fileURLToPath } from 'node:url'
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'

const root = fileURLToPath(new URL('.', import.meta.url))
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// The integration tests (test/integration) run the SDK against the mock's source (its Node entry,
// as Node resolves it), and the mock's own imports of the SDK resolve to this package's source: one
// copy of every class (instanceof holds across the two), no build needed.
const alias = [
  // The mock's Node entry, recording its answers for the OpenAPI drift test (test/helpers/openapi-drift.ts).
  { find: /^@reseller-api\/mock$/, replacement: source('./test/helpers/recording-mock.ts') },
  { find: /^@reseller-api\/sdk\/webhooks$/, replacement: source('./src/webhooks/index.ts') },
  { find: /^@reseller-api\/sdk\/schemas$/, replacement: source('./src/schemas/index.ts') },
  { find: /^@reseller-api\/sdk$/, replacement: source('./src/index.ts') },
]

/**
 * The SDK's tests by level, one vitest project each (the root vitest.config.ts runs them too):
 * `sdk:unit` (test/*.test.ts: the client against fake fetches, schemas, webhooks) and
 * `sdk:integration` (test/integration: the client against the mock).
 */
export const projects: TestProjectInlineConfiguration[] = [
  { name: 'sdk:unit', include: ['test/*.test.ts'] },
  { name: 'sdk:integration', include: ['test/integration/**/*.test.ts'] },
].map((test) => ({
  resolve: { alias },
  test: { ...test, root, setupFiles: ['test/helpers/openapi-drift.ts'] },
}))

export default defineConfig({ test: { projects } })
