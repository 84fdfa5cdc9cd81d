/**
 * The OpenAPI drift test (vitest setup file of the SDK's tests): after each test file, every answer
 * the mock gave in it (recorded by `recording-mock.ts`) must validate, with ajv, against the
 * document's schema for its path, method and status, in two readings:
 * - the published document (`@reseller-api/sdk/openapi.json`, as built), read as a user's response
 *   validator reads it: answers open to added fields;
 * - its strict variant, generated here from the current sources: every field the mock answers is
 *   one the SDK's schemas know, so a schema change shows at once.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { afterAll, expect } from 'vitest'
import { routes } from '../../../mock/src/handlers/index.js'
import { schemaNames } from '../../../mock/src/openapi/build.js'
import { generateOpenApi } from '../../../mock/src/openapi/document.js'
import { operations, serverOnlyOperations } from '../../../mock/src/openapi/operations.js'
import { createAnswerChecker, type RecordedAnswer } from '../../../mock/test/helpers/answer-check.js'
import { recordedAnswers } from './recording-mock.js'

let checkers: ReturnType<typeof createAnswerChecker>[] | undefined

function publishedDocument(): never {
  const file = createRequire(import.meta.url).resolve('@reseller-api/sdk/openapi.json')
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as never
  } catch {
    throw new Error(`${file} is missing: run pnpm build first (the drift test reads the published document)`)
  }
}

afterAll(async () => {
  const answers = (await Promise.all(recordedAnswers.splice(0))).filter(
    (a): a is RecordedAnswer => a !== undefined,
  )
  if (answers.length === 0) return
  checkers ??= [
    createAnswerChecker(publishedDocument()),
    createAnswerChecker(
      generateOpenApi({
        routes,
        operations,
        serverOnly: serverOnlyOperations,
        names: schemaNames,
        version: '0',
        strict: true,
      }) as never,
    ),
  ]
  const violations = [
    ...new Set(answers.flatMap((answer) => checkers!.flatMap((checker) => checker.check(answer)))),
  ]
  expect(violations, `answers of the mock that the OpenAPI document does not describe`).toEqual([])
})
