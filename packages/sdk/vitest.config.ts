import { fileURLToPath } from 'node:url'
import { defineProject } from 'vitest/config'

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineProject({
  resolve: {
    // The integration tests (test/integration) run the SDK against the mock's source (its Node entry, as Node resolves it), and the mock's
    // own imports of the SDK resolve to this package's source: one copy of every class (instanceof
    // holds across the two), no build needed, and no workspace dependency from the SDK on the mock.
    alias: [
      // The mock's Node entry, recording its answers for the OpenAPI drift test (test/helpers/openapi-drift.ts).
      { find: /^@reseller-api\/mock$/, replacement: source('./test/helpers/recording-mock.ts') },
      { find: /^@reseller-api\/sdk\/webhooks$/, replacement: source('./src/webhooks/index.ts') },
      { find: /^@reseller-api\/sdk$/, replacement: source('./src/index.ts') },
    ],
  },
  test: {
    name: 'sdk',
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/openapi-drift.ts'],
  },
})
