/**
 * The build's entry for the OpenAPI document (bundled and run by `scripts/openapi.mjs` after the
 * SDK's build): the route table, the operation texts, every schema the SDK and the mock export
 * (named components), and examples captured from a demo mock.
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
import { generateOpenApi, type OpenApiDocument } from './document.js'
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

/** The whole document, examples included. */
export async function buildOpenApi(): Promise<OpenApiDocument> {
  const examples = await captureExamples(routes, operations)
  return generateOpenApi({
    routes,
    operations,
    serverOnly: serverOnlyOperations,
    names: schemaNames,
    examples,
    version: VERSION,
  })
}
