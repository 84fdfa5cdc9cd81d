/**
 * `@reseller-api/sdk/schemas`: the zod (`zod/mini`) schemas of every resource, request body, event
 * and error envelope of the API, and the helpers that turn their failures into field errors
 * (`validate`, `fieldErrors`). The single source of truth: the client parses answers with them and
 * the mock validates requests, stores records and renders answers with them.
 *
 * ```ts
 * import { TicketCreateBody, validate } from '@reseller-api/sdk/schemas'
 * const result = validate(TicketCreateBody, input) // { success: true, data } or { success: false, fields }
 * ```
 *
 * @packageDocumentation
 */

// For the mock (all `@internal`): the declaration of every service operation, which its handlers
// bind to, and the OpenAPI generator, with which it adds its control endpoints to the document.
// This entry sits outside `schemas/` because of them: the schemas are the SDK's bottom layer and
// import nothing above them (.dependency-cruiser.cjs), while the declarations are built on `core/`.
export { type AnyEndpoint, API_BASE, type Endpoint, type ListEndpoint, wirePath } from './core/endpoint.js'
export {
  type OpenApiDocument,
  type OperationOptions,
  openApiPath,
  withOperations,
} from './openapi/document.js'
export {
  atPointer,
  type ErrorExampleRequestOf,
  type ExampleRequestOf,
  errorExampleRequests,
  exampleRequests,
} from './openapi/example-requests.js'
export type { AnswerSpec, CapturedExample, ExampleRequest, OperationSpec } from './openapi/spec.js'
export { operations } from './operations/index.js'
export * from './schemas/wire.js'
