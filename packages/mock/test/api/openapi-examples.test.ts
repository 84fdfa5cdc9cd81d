/**
 * The example answers of the OpenAPI document are frozen in `packages/sdk/openapi/examples.json`,
 * which the SDK's build reads without running a mock (docs/openapi.md, "How it is made"). This
 * test runs every example request on a demo mock again and fails, naming the operation, when the
 * mock answers something else than the committed file says.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { captureAllExamples } from '../../src/openapi/build.js'
import type { CapturedExample } from '../../src/openapi/document.js'

const examplesFile = fileURLToPath(new URL('../../../sdk/openapi/examples.json', import.meta.url))
const FIX = 'packages/sdk/openapi/examples.json is stale: run `pnpm run openapi:examples` and commit it'

describe('the frozen examples of the OpenAPI document', () => {
  it('are what the mock answers today, operation by operation', async () => {
    const committed = JSON.parse(readFileSync(examplesFile, 'utf8')) as Record<string, CapturedExample>
    const captured = await captureAllExamples()
    for (const key of new Set([...Object.keys(committed), ...Object.keys(captured)])) {
      expect(committed[key], `${key}: ${FIX}`).toEqual(captured[key])
    }
    expect(Object.keys(captured).length).toBeGreaterThan(60)
  })

  it('capture the same answers twice (one commit, one document)', async () => {
    const [first, second] = [await captureAllExamples(), await captureAllExamples()]
    expect(JSON.stringify(second)).toBe(JSON.stringify(first))
  })
})
