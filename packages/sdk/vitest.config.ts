import { fileURLToPath } from 'node:url'
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * The SDK's tests (the root vitest.config.ts runs them too): `sdk:unit` (test/*.test.ts: the client
 * against fake fetches, schemas, webhooks). The SDK against the mock lives in
 * packages/contract-tests.
 */
export const projects: TestProjectInlineConfiguration[] = [
  // `isolate: false`: one module graph per worker (see packages/mock/vitest.config.ts); a test
  // restores what it changes (fake timers, stubbed globals).
  { test: { name: 'sdk:unit', root, include: ['test/*.test.ts'], isolate: false } },
]

export default defineConfig({ test: { projects } })
