import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'example-browser-app',
    include: ['test/**/*.test.ts'],
    // The page in Chromium: `pnpm test:browser` at the repository root (vitest.browser.config.ts).
    exclude: ['test/**/*.browser.test.ts'],
  },
})
