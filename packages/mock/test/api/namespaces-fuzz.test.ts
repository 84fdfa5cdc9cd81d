/**
 * Any JSON at `POST /__mock/namespaces`, the keys named like built-in object properties included,
 * gets one clear answer: 201, or 422 `validation_error` with `fields`; never a 500. Nothing is left
 * of a refused creation.
 */
import { ErrorBody } from '@reseller-api/sdk/schemas'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Standalone, startStandalone } from '../../src/server/host/standalone.js'

let server: Standalone
beforeAll(async () => {
  server = await startStandalone({ port: 0 })
})
afterAll(() => server?.close())

const keys = fc.constantFrom(
  'id',
  'seed',
  'random_seed',
  'ttl_seconds',
  'label',
  '__proto__',
  'constructor',
  'toString',
  'resellers',
)
const body = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(keys, fc.jsonValue(), { maxKeys: 5 }),
  fc.record({
    seed: fc.dictionary(fc.constantFrom('resellers', 'domain_price', '__proto__'), fc.jsonValue()),
  }),
)

describe('POST /__mock/namespaces', () => {
  test('answers any JSON with 201 or a 422 naming fields, never a 500; a refusal leaves nothing', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const response = await fetch(`${server.url}/__mock/namespaces`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(value),
        })
        const answer = (await response.json()) as { error?: { fields?: object } }
        if (response.status === 201) {
          await fetch(`${server.url}/__mock/namespaces`, { method: 'DELETE' })
          return
        }
        expect(response.status, JSON.stringify(value)).toBe(422)
        const parsed = ErrorBody.parse(answer)
        expect(parsed.error.code).toBe('validation_error')
        // Read from the JSON as sent: a field named `__proto__` is an own key there.
        expect(Object.keys(answer.error?.fields ?? {}).length).toBeGreaterThan(0)
        expect(server.namespaces.size).toBe(0)
      }),
      { numRuns: 300 },
    )
  })
})
