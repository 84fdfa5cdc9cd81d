import { fileURLToPath } from 'node:url'
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * The SDK's tests (the root vitest.config.ts runs them too): `sdk:unit` (test/*.test.ts: the client
 * against fake fetches, schemas, webhooks). The SDK against the mock lives in
 * packages/contract-tests.
 */
export const projects: TestProjectInlineConfiguration[] = [
  { test: { name: 'sdk:unit', root, include: ['test/*.test.ts'] } },
]

export default defineConfig({ test: { projects } })
