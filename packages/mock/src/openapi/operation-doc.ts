/** What the OpenAPI document says about one route: the types of `operations.ts`. */
import type * as z from 'zod/mini'
import type { MockState } from '../controls.js'

/** The success answer of an operation. */
export type Answer =
  /** `{ success: true, data }` with `data` through `schema`. */
  | { status: number; data: z.ZodMiniType; description: string }
  /** `{ success: true, data: [...], meta }`, 20 per page, `page` query parameter. */
  | { status: number; page: z.ZodMiniType; description: string }
  /** Not the envelope: a body of this media type (`schema` for JSON). */
  | { status: number; media: string; schema?: z.ZodMiniType | object; description: string }

/** A request the build sends to a fresh demo mock to capture this operation's example answer. */
export interface ExampleRequest {
  /** API key (default: the demo's live key with every scope). */
  key?: string
  /**
   * Path parameters, read from the demo state or from the answers of `before` (their bodies, in
   * order) when they depend on them.
   */
  params?: Record<string, string> | ((state: MockState, before: unknown[]) => Record<string, string>)
  query?: string
  body?: unknown
  /** Requests to send first (same key), e.g. to create what the example reads. */
  before?: { method: string; path: string; body?: unknown }[]
}

/** What the document says about one route. */
export interface OperationDoc {
  /** Unique, camelCase: code generators name methods after it. */
  operationId: string
  summary: string
  description?: string
  /** JSON request body, as the route parses it (`call.body(schema)`). */
  body?: z.ZodMiniType
  /** The route reads an empty body as `{}`. */
  bodyOptional?: true
  /** Query parameters (an object schema), as the route parses them (`call.query(schema)`). */
  query?: z.ZodMiniType
  answer: Answer
  /** Business-rule error codes by status, beyond those the route's access and area imply. */
  errors?: Record<number, string[]>
  example?: ExampleRequest
  /** The success answer's example where no request can capture one (its body). */
  staticExample?: unknown
}
