// The browser tests: Debian's Chromium driven by playwright-core, against the built packages
// (`pnpm test:browser` builds first). Kept apart from `pnpm test`, which needs no browser.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['packages/*/test/browser/**/*.browser.test.ts', 'examples/*/test/**/*.browser.test.ts'],
    // One browser at a time on a small CI machine; each file starts its own.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
})
