/**
 * The build's entry for the OpenAPI document (bundled and run by `scripts/openapi.mjs` after the
 * SDK's build): the route table, the operation texts, every schema the SDK and the mock export
 * (named components), and the example answers frozen in `packages/sdk/openapi/examples.json`.
 * That file is written by `pnpm run openapi:examples` (`scripts/openapi-examples.mjs`, which runs
 * `captureAllExamples` on a demo mock), never by the build: the build runs no mock, so one commit
 * builds one document.
 */

import { VERSION } from '@reseller-api/sdk'
import * as sdk from '@reseller-api/sdk/schemas'
import * as emit from '../domain/events.js'
import * as faults from '../faults/schema.js'
import * as clock from '../handlers/clock.js'
import * as control from '../handlers/control.js'
import * as deliveries from '../handlers/deliveries.js'
import { routes } from '../handlers/index.js'
import * as journal from '../journal/schema.js'
import { type CapturedExample, generateOpenApi, type OpenApiDocument } from './document.js'
import { captureExamples } from './examples.js'
import { operations, serverOnlyOperations } from './operations.js'

/** Schemas that get a name in `components.schemas`: the SDK's exports, then the mock's control schemas. */
export const schemaNames: Record<string, unknown> = {
  ...sdk,
  ...control,
  ...clock,
  ...journal,
  ...faults,
  ...emit,
  ...deliveries,
}

/** Every operation's example answer, captured from a demo mock (the content of `examples.json`). */
export function captureAllExamples(): Promise<Record<string, CapturedExample>> {
  return captureExamples(routes, operations)
}

/** The whole document, with the frozen example answers `examples` (the content of `examples.json`). */
export function buildOpenApi(examples: Record<string, CapturedExample>): OpenApiDocument {
  return generateOpenApi({
    routes,
    operations,
    serverOnly: serverOnlyOperations,
    names: schemaNames,
    examples,
    version: VERSION,
  })
}
