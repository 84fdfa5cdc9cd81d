/**
 * The OpenAPI document as the mock serves it (`GET /__mock/openapi.json`), read from an in-process
 * mock: `record` checks exchanges against it and `replay` hands it to the comparison engine, with
 * no network and whatever builds the document.
 */
import type { MockApi } from '../mock-api.js'
import { createMockApi } from '../node.js'
import type { OpenApiDocumentLike } from './openapi-check.js'

/** The document served by `mock` (default: a fresh demo mock). */
export async function servedOpenApiDocument(mock: MockApi = createMockApi()): Promise<OpenApiDocumentLike> {
  const response = await mock.fetch(`${mock.baseUrl.replace(/\/+$/, '')}/__mock/openapi.json`)
  if (!response.ok) throw new Error(`the mock did not serve its OpenAPI document (${response.status})`)
  return (await response.json()) as OpenApiDocumentLike
}
