import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * The black-box suite (test/blackbox): the same HTTP and lifecycle tests against the npm CLI, the
 * single executable and the OCI image, as processes. Not a project of the root vitest.config.ts
 * (`pnpm test` does not build the binary or the image): `pnpm run test:blackbox` runs it after
 * `pnpm run build:binary` and `pnpm run build:image`; `BLACKBOX_TARGETS=npm,binary` picks targets.
 * A target that is not built fails its tests rather than being skipped.
 */
export default defineConfig({
  test: {
    name: 'mock:blackbox',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['test/blackbox/**/*.test.ts'],
    globalSetup: ['test/blackbox/global-setup.ts'],
    setupFiles: ['test/blackbox/setup.ts'],
    // A ceiling for a hung test: several processes start in one test on a loaded 2-core machine.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // The targets compete for the same two cores: one file at a time keeps start times honest.
    fileParallelism: false,
  },
})
