import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * The image under a real container engine (test/container): started by Testcontainers through a
 * Docker-compatible socket (DOCKER_HOST). Not a project of the root vitest.config.ts: it needs the
 * built image loaded into the engine and the engine's socket, which scripts/container-check.sh
 * provides (podman) before it runs this config.
 */
export default defineConfig({
  test: {
    name: 'mock:container',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['test/container/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
})
