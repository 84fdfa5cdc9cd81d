/**
 * What the OpenAPI generator reads about one operation: the service's operations are made of an
 * endpoint declaration and its texts (`src/operations/`), the mock's control endpoints of its own
 * routes and texts. Types only.
 */
import type * as z from 'zod/mini'
import type { HttpMethod } from '../core/endpoint.js'
import type { Scope } from '../schemas/common.js'

/** @internal The success answer of an operation. */
export type AnswerSpec =
  /** `{ success: true, data }` with `data` through `schema`. */
  | { status: number; data: z.ZodMiniType; description: string }
  /** `{ success: true, data: [...], meta }`, 20 per page, `page` query parameter. */
  | { status: number; page: z.ZodMiniType; description: string }
  /** Not the envelope: a body of this media type (`schema` for JSON). */
  | { status: number; media: string; schema?: z.ZodMiniType | object; description: string }

/**
 * @internal The example request of an operation, written into the document (parameter `example`s,
 * the request body's `example`, `x-example-setup`): the mock's example answers are captured from
 * it and `scripts/prism-check.mjs` sends it. Values are those of the demo seed.
 */
export interface ExampleRequest {
  /** Path parameters, by their name in the document. */
  params?: Record<string, string | number>
  /** Query parameters. */
  query?: Record<string, string | number>
  body?: unknown
  /**
   * An operation whose example runs first (on the same fresh state), e.g. to create what this one
   * reads; `params` takes path parameters from its answer by JSON pointer (`/data/id`).
   */
  setup?: { operationId: string; params?: Record<string, string> }
}

/**
 * @internal A request that gets one documented error code, written as what it changes in the
 * operation's example request (`params`, `query`, `body`, `setup` and `key` each replace the
 * example's whole). The document holds it whole, in the operation's `x-error-examples`.
 */
export interface ErrorExampleRequest extends ExampleRequest {
  /** The API key to send instead of the document's `x-example-key` (another reseller's, e.g.). */
  key?: string
}

/** @internal One entry of an operation's `x-error-examples`: a request and the error it gets. */
export interface ErrorExample {
  code: string
  status: number
  request: ErrorExampleRequest
}

/** @internal The texts of one service operation, beside its declaration in `src/operations/`. */
export interface OperationText {
  /** Unique, camelCase: code generators name methods after it. */
  operationId: string
  summary: string
  description?: string
  /** The success answer: what it holds (its status is the declaration's). */
  answer: { description: string }
  /** Business-rule error codes by status, beyond those the access rules and the area imply. */
  errors?: Record<number, string[]>
  example: ExampleRequest
  /**
   * Requests of the demo seed that get a documented error code, by that code (an invalid state,
   * a reseller whose WHM is offline): the mock's answers to them become the examples of their
   * statuses, and the Prism check sends them.
   */
  errorExamples?: Record<string, ErrorExampleRequest>
}

/** @internal The texts of every declaration of an area, by the same keys: none can be left out. */
export type OperationTexts<Declarations> = { readonly [K in keyof Declarations]: OperationText }

/** @internal Everything the generator needs about one operation. */
export interface OperationSpec {
  method: HttpMethod
  /** Path in the document, from the server's root, with `{name}` parameters. */
  path: string
  /** `'none'`: no key needed (the mock's control endpoints). */
  auth: 'key' | 'none'
  scope?: Scope
  sandbox?: 'refuse'
  /** A deprecated operation: the document path of the one replacing it. */
  successor?: string
  /** Tag of the operation; by default the one of its path's area. */
  tag?: string
  operationId: string
  summary: string
  description?: string
  /**
   * Path parameters the server reads as typed values (an id, a UUID), by name; the others are
   * non-empty strings, which it looks up as given (an unknown one answers 404).
   */
  pathParams?: Record<string, z.ZodMiniType>
  /** JSON request body, as the server parses it. */
  body?: z.ZodMiniType
  /** The server reads an empty body as `{}`. */
  bodyOptional?: boolean
  /** Query parameters (an object schema), as the server parses them. */
  query?: z.ZodMiniType
  answer: AnswerSpec
  errors?: Record<number, string[]>
  example?: ExampleRequest
  /** Requests that get a documented error code, by code (see {@link OperationText}). */
  errorExamples?: Record<string, ErrorExampleRequest>
  /** The success answer's example where no request can capture one (its body). */
  staticExample?: unknown
}

/** @internal An answer captured from the demo mock for one operation's example request. */
export interface CapturedExample {
  status: number
  body: unknown
}
