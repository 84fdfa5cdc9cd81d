/**
 * The OpenAPI drift check (vitest setup file of this package): every answer a mock gives in a test
 * file must validate, with ajv, against the published document (`@reseller-api/sdk/openapi.json`)
 * for its path, method and status, read as a user's response validator reads it.
 *
 * The answers come from the mock's public request journal (docs/faults-and-journal.md, "Request
 * journal"): every mock the tests create through `createMockApi` is tracked, and its journal is
 * read after each test, whichever way the requests came (`mock.fetch`, MSW handlers, `listen()`).
 * What a test empties itself (`mock.reset()` or `mock.requests.clear()` in the middle of a test) or
 * what passes the journal's limit is not seen; control requests (`/__mock/…`) are not journaled.
 * The SDK's own strict reading (`strictResponses: true` in `sdk()` of integration/helpers.ts) refuses
 * a field its schemas do not know.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { JournalEntry, MockApi } from '@reseller-api/mock'
import { afterAll, afterEach, expect, vi } from 'vitest'
import { createAnswerChecker, type RecordedAnswer } from './answer-check.js'

const mocks = new Set<MockApi>()
const seen = new Set<string>()
const answers: RecordedAnswer[] = []

vi.mock('@reseller-api/mock', async (importOriginal) => {
  const real = await importOriginal<typeof import('@reseller-api/mock')>()
  return {
    ...real,
    createMockApi: (...args: Parameters<typeof real.createMockApi>) => {
      const mock = real.createMockApi(...args)
      mocks.add(mock)
      return mock
    },
  }
})

/** The answer of a journal entry; undefined for a dropped request or one still waiting. */
export function answerOf(entry: JournalEntry): RecordedAnswer | undefined {
  const { response } = entry
  if (!response) return undefined
  const body = response.body
  const truncated =
    body !== null && typeof body === 'object' && 'truncated' in body && body.truncated === true
  return {
    method: entry.method,
    path: entry.path.split('?')[0]!,
    status: response.status,
    contentType: response.headers['content-type'] ?? null,
    // An answer over the journal's limit keeps its status and type, not its body.
    body: truncated ? undefined : body === null ? '' : JSON.stringify(body),
    fault: entry.fault !== null,
  }
}

afterEach(() => {
  for (const mock of mocks) {
    for (const entry of mock.requests.list()) {
      if (seen.has(entry.id)) continue
      const answer = answerOf(entry)
      if (!answer) continue
      seen.add(entry.id)
      answers.push(answer)
    }
  }
})

function publishedDocument(): never {
  const file = createRequire(import.meta.url).resolve('@reseller-api/sdk/openapi.json')
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as never
  } catch {
    throw new Error(`${file} is missing: run pnpm build first (the drift check reads the published document)`)
  }
}

afterAll(() => {
  mocks.clear()
  if (answers.length === 0) return
  const checker = createAnswerChecker(publishedDocument())
  const violations = [...new Set(answers.splice(0).flatMap((answer) => checker.check(answer)))]
  expect(violations, 'answers of the mock that the OpenAPI document does not describe').toEqual([])
})
