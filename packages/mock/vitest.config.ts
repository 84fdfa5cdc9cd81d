import { fileURLToPath } from 'node:url'
import { defineProject } from 'vitest/config'

const sdkSource = (path: string) => fileURLToPath(new URL(`../sdk/src/${path}`, import.meta.url))

export default defineProject({
  resolve: {
    // Test the mock against the SDK's source, so a schema change shows up without a rebuild.
    alias: [
      { find: /^@reseller-api\/sdk\/webhooks$/, replacement: sdkSource('webhooks/index.ts') },
      { find: /^@reseller-api\/sdk$/, replacement: sdkSource('index.ts') },
    ],
  },
  test: {
    name: 'mock',
    include: ['test/**/*.test.ts'],
    // Chromium tests: pnpm test:browser (vitest.browser.config.ts at the root).
    exclude: ['test/browser/**'],
  },
})
