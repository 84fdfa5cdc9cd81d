import { fileURLToPath } from 'node:url'
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * The SDK against the mock, both as built (their package entries, no alias): `pnpm test` builds
 * first. `contract:integration` (test/integration) checks every answer against the published
 * OpenAPI document (test/openapi-drift.ts).
 */
export const projects: TestProjectInlineConfiguration[] = [
  {
    test: {
      name: 'contract:integration',
      root,
      include: ['test/integration/**/*.test.ts'],
      setupFiles: ['test/openapi-drift.ts'],
      // After-hooks in the order they are registered: the drift check reads each mock's journal
      // after a test before the test file's own afterEach resets the mock (which empties it).
      sequence: { hooks: 'list' },
      // One module graph per worker (why: the root vitest.config.ts).
      isolate: false,
    },
  },
]

export default defineConfig({ test: { projects } })
