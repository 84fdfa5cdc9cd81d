/**
 * The OpenAPI drift test (vitest setup file of the SDK's tests): after each test file, every answer
 * the mock gave in it (recorded by `recording-mock.ts`) must validate, with ajv, against the
 * document's schema for its path, method and status. The document is generated here from the
 * current sources, as the build generates `@reseller-api/sdk/openapi.json` (minus the examples),
 * so no build is needed and a schema change shows at once.
 */
import { afterAll, expect } from 'vitest'
import { routes } from '../../../mock/src/handlers/index.js'
import { schemaNames } from '../../../mock/src/openapi/build.js'
import { generateOpenApi } from '../../../mock/src/openapi/document.js'
import { operations, serverOnlyOperations } from '../../../mock/src/openapi/operations.js'
import { createAnswerChecker, type RecordedAnswer } from '../../../mock/test/helpers/answer-check.js'
import { recordedAnswers } from './recording-mock.js'

let checker: ReturnType<typeof createAnswerChecker> | undefined

afterAll(async () => {
  const answers = (await Promise.all(recordedAnswers.splice(0))).filter(
    (a): a is RecordedAnswer => a !== undefined,
  )
  if (answers.length === 0) return
  checker ??= createAnswerChecker(
    generateOpenApi({
      routes,
      operations,
      serverOnly: serverOnlyOperations,
      names: schemaNames,
      version: '0',
    }) as never,
  )
  const violations = answers.flatMap((answer) => checker!.check(answer))
  expect(violations, `answers of the mock that the OpenAPI document does not describe`).toEqual([])
})
