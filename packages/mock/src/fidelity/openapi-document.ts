/**
 * The OpenAPI document as the mock serves it (`GET /__mock/openapi.json`), read from an in-process
 * mock through the control client over `mock.fetch`: `record` checks exchanges against it and
 * `replay` hands it to the comparison engine, with no network and whatever builds the document.
 */
import { createControlClient } from '../control/client.js'
import type { MockApi } from '../mock-api.js'
import { createMockApi } from '../node.js'
import type { OpenApiDocumentLike } from './openapi-check.js'

/** The document served by `mock` (default: a fresh demo mock). */
export async function servedOpenApiDocument(mock: MockApi = createMockApi()): Promise<OpenApiDocumentLike> {
  const controls = createControlClient({ baseUrl: mock.baseUrl, fetch: mock.fetch })
  return (await controls.openapi()) as OpenApiDocumentLike
}
