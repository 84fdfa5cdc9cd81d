/**
 * The example answers of the OpenAPI documents are frozen: the service's in the published document
 * (from `packages/sdk/openapi/examples.json`), the control endpoints' in
 * `src/openapi/control-examples.json` (docs/openapi.md, "How it is made"). This test runs every
 * example request, as the documents state it, on a demo mock again and fails, naming the
 * operation, when the mock answers something else than the documents say.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { CapturedExample, OpenApiDocument } from '@reseller-api/sdk/schemas'
import { describe, expect, it } from 'vitest'
import { captureControlExamples, captureServiceExamples } from '../../src/openapi/capture.js'
import frozenControl from '../../src/openapi/control-examples.json' with { type: 'json' }

const file = createRequire(import.meta.url).resolve('@reseller-api/sdk/openapi.json')
const published = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument
const FIX = 'the frozen examples are stale: run `pnpm run openapi:examples` and commit what it writes'

/**
 * The answers the published document holds, keyed as the capture keys them: the success, the 401
 * and the statuses of its error example requests (`x-error-examples`).
 */
function documented(document: OpenApiDocument): Record<string, CapturedExample> {
  const out: Record<string, CapturedExample> = {}
  for (const item of Object.values(document.paths)) {
    for (const op of Object.values(item)) {
      const captured = new Set([
        '401',
        ...((op['x-error-examples'] ?? []) as { status: number }[]).map((e) => String(e.status)),
      ])
      for (const [status, response] of Object.entries(op.responses)) {
        const example = (response.content as Record<string, { example?: unknown }> | undefined)?.[
          'application/json'
        ]?.example
        if (example === undefined || !(/^2\d\d$/.test(status) || captured.has(status))) continue
        out[/^2\d\d$/.test(status) ? op.operationId : `${op.operationId} ${status}`] = {
          status: Number(status),
          body: example,
        }
      }
    }
  }
  return out
}

describe('the frozen examples of the OpenAPI documents', () => {
  it('are what the mock answers today, operation by operation', async () => {
    const service = await captureServiceExamples(published)
    const inDocument = documented(published)
    for (const key of new Set([...Object.keys(service), ...Object.keys(inDocument)])) {
      expect(inDocument[key], `${key}: ${FIX}`).toEqual(service[key])
    }
    expect(Object.keys(service).length).toBeGreaterThan(55)

    const control = await captureControlExamples(published)
    const committed = frozenControl as Record<string, CapturedExample>
    for (const key of new Set([...Object.keys(control), ...Object.keys(committed)])) {
      expect(committed[key], `${key}: ${FIX}`).toEqual(control[key])
    }
    expect(Object.keys(control).length).toBeGreaterThan(10)
  })

  it('capture the same answers twice (one commit, one document)', async () => {
    const [first, second] = [await captureServiceExamples(published), await captureServiceExamples(published)]
    expect(JSON.stringify(second)).toBe(JSON.stringify(first))
  })
})
