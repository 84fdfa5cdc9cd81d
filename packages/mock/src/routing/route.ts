/**
 * Route definitions. A route binds `resolve` to the declaration of its operation: the SDK's for a
 * service route (method, path, access, deprecation: `operations` of `@reseller-api/sdk/schemas`),
 * the mock's for a control route (`control` of `control/operations.ts`: no key needed). It reads
 * its body and query and answers through it (`call.body()`, `call.query()`, `call.answer…`). The core checks
 * access in the documented order (401, 403 scope, 403 sandbox) before `resolve` runs, and `resolve`
 * continues it: look up the resources of the path first (404), then read the body or query (422),
 * then apply business rules.
 */
import {
  type AnyEndpoint,
  API_BASE,
  type Endpoint,
  type ListEndpoint,
  PageQuery,
  type Scope,
  validate,
  wirePath,
} from '@reseller-api/sdk/schemas'
import type * as z from 'zod/mini'
import type { MockContext } from '../context.js'
import { type AnyControlEndpoint, type ControlEndpoint, isControlEndpoint } from '../control/endpoint.js'
import type { Caller } from '../domain/caller.js'
import { errors } from '../errors.js'
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js'
import { data, page, record, serializerOf } from './reply.js'
import type { MockRequest, MockResponse } from './types.js'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** Who may call a route. */
export interface Access {
  /** `'none'`: no key needed (the `/__mock/` control endpoints). Default: a valid key. */
  auth?: 'key' | 'none'
  /** Scope the key must hold; absent: any valid key. */
  scope?: Scope
  /** `'refuse'`: sandbox keys get 403 `sandbox_read_only` (checked after the scope). Default: allowed. */
  sandbox?: 'refuse' | 'allow'
}

/** The output of the body schema `E` declares (`never` for a route that declares none). */
type DeclaredBody<E> = E extends { readonly body: infer B }
  ? B extends z.ZodMiniType
    ? z.output<B>
    : never
  : never

/** The output of the query schema `E` declares (`never` for a route that declares none). */
type DeclaredQuery<E> = E extends { readonly query: infer Q }
  ? Q extends z.ZodMiniType
    ? z.output<Q>
    : never
  : never

/** What the bound declaration `E` answers in `data` (`never` for a list or a raw answer). */
type DeclaredData<E> =
  E extends Endpoint<infer T, infer _B>
    ? T
    : E extends ControlEndpoint<infer D, infer _B, infer _Q, infer _P>
      ? z.output<D>
      : never

/** One item of the page the bound declaration `E` answers (`never` unless it is a list). */
type DeclaredItem<E> = E extends ListEndpoint<infer T> ? T : never

/** What a route's `resolve` gets; `E`: the SDK's declaration the route is bound to. */
export interface Call<E = undefined> {
  readonly request: MockRequest
  /** Path parameters, URI-decoded. */
  readonly params: Readonly<Record<string, string>>
  /** The mock this request is for. */
  readonly mock: MockContext
  /** The authenticated caller; throws on a route with `auth: 'none'`. */
  readonly caller: Caller
  /**
   * The JSON body validated with `schema` (422 `validation_error` with `fields` otherwise;
   * malformed JSON → `fields.body`). With `optional`, an empty body reads as `{}`.
   */
  body<S extends z.ZodMiniType>(schema: S, options?: { optional?: boolean }): z.output<S>
  /** The JSON body validated with the body schema of the bound declaration (empty reads as `{}` where it is optional). */
  body(): DeclaredBody<E>
  /** The query string validated with `schema` (422 `validation_error` otherwise). */
  query<S extends z.ZodMiniType>(schema: S): z.output<S>
  /** The query string validated with the query schema of the bound declaration. */
  query(): DeclaredQuery<E>
  /** The `page` query parameter (default 1), validated with the SDK's `PageQuery`. */
  page(): number
  /**
   * The success answer of the bound declaration: `{ success: true, data }` with `value` through
   * its `data` schema (storage-only fields are dropped), at its status (201 where it creates).
   */
  answer(value: DeclaredData<E>): MockResponse
  /**
   * {@link Call.answer} for a stored record, serialized once per version of the record and cached;
   * with `project`, the answer is `project()` (derived from `row` and from records whose every
   * visible change also updates `row`), cached under `row`'s version.
   */
  answerRecord(row: DeclaredData<E> & object): MockResponse
  answerRecord(row: object, project: () => DeclaredData<E>): MockResponse
  /**
   * The page `pageNumber` (default: the request's {@link Call.page}) of a list declaration, newest
   * first; `rows` oldest first, as the store's group indexes keep them.
   */
  answerPage(rows: readonly (DeclaredItem<E> & object)[], pageNumber?: number): MockResponse
}

/** What a helper shared by several routes reads of a call: its request, path parameters, mock and caller. */
export type CallContext = Pick<Call, 'request' | 'params' | 'mock' | 'caller'>

/** One route of the table. */
export interface Route extends Access {
  method: HttpMethod
  /** Path below the base URL with `:name` parameters, e.g. `/api/v1/support/tickets/:uuid`. */
  path: string
  resolve(call: Call): MockResponse | Promise<MockResponse>
  /** Marks a deprecated route: answers carry `Deprecation: true` and a `Link` to this successor path. */
  successor?: string
  /** `false`: run outside a store transaction (routes that reset or restore the whole state). */
  transaction?: false
  /** The declaration this route answers: the SDK's (service routes) or the mock's (control routes). */
  operation?: AnyEndpoint | AnyControlEndpoint
}

/** `{name}` placeholders → the router's `:name`. */
const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1')

/**
 * Binds `resolve` to a declaration: the SDK's of a service operation (its method, its path below
 * `/api/v1` with parameters named as on the wire, its access rules and its successor if
 * deprecated), or the mock's of a control endpoint (its method and path; no key needed).
 */
export function route<E extends AnyEndpoint | AnyControlEndpoint>(
  operation: E,
  resolve: (call: Call<E>) => MockResponse | Promise<MockResponse>,
  extra?: Pick<Route, 'transaction'>,
): Route
/** Defines a route without a declaration (tests of the route table). */
export function route(
  method: HttpMethod,
  path: string,
  access: Access,
  resolve: Route['resolve'],
  extra?: Pick<Route, 'transaction'>,
): Route
export function route(
  ...args:
    | [AnyEndpoint | AnyControlEndpoint, Route['resolve'], Pick<Route, 'transaction'>?]
    | [HttpMethod, string, Access, Route['resolve'], Pick<Route, 'transaction'>?]
): Route {
  if (typeof args[0] === 'string') {
    const [method, path, access, resolve, extra] = args as [
      HttpMethod,
      string,
      Access,
      Route['resolve'],
      Pick<Route, 'transaction'>?,
    ]
    return { method, path, ...access, ...extra, resolve }
  }
  const [operation, resolve, extra] = args as [
    AnyEndpoint | AnyControlEndpoint,
    Route['resolve'],
    Pick<Route, 'transaction'>?,
  ]
  if (isControlEndpoint(operation)) {
    return {
      method: operation.method,
      path: routerPath(operation.path),
      auth: 'none',
      ...extra,
      resolve,
      operation,
    }
  }
  const { scope, sandbox } = operation.access
  return {
    method: operation.method,
    path: routerPath(API_BASE + wirePath(operation)),
    ...(scope ? { scope } : {}),
    ...(sandbox ? { sandbox } : {}),
    ...(operation.successor ? { successor: API_BASE + wirePath(operation.successor) } : {}),
    ...extra,
    resolve,
    operation,
  }
}

/** Parses a JSON body; malformed or too deeply nested JSON is a validation error of the field `body`. */
function parseJson(text: string, optional: boolean): unknown {
  if (text.trim() === '') return optional ? {} : undefined
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    throw errors.field('body', `must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`)
  try {
    return JSON.parse(text)
  } catch {
    throw errors.field('body', 'must be valid JSON')
  }
}

/** `application/json`, or any `+json` type (`application/merge-patch+json`), parameters aside. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/**
 * A body sent under another media type (`text/plain`, a form) is refused with 415 before it is read:
 * the API reads JSON only. A request without `Content-Type` is read as JSON.
 */
function refuseNonJson(request: MockRequest): void {
  const type = request.headers.get('content-type')
  if (request.body.trim() === '' || type === null || JSON_MEDIA_TYPE.test(type)) return
  throw errors.unsupportedMediaType(type)
}

/**
 * Query parameters as an object; a repeated name keeps its last value. `fromEntries` defines every
 * name as an own property, so `?__proto__=x` is an unknown parameter rather than a prototype write.
 */
function queryObject(query: URLSearchParams): Record<string, string> {
  return Object.fromEntries(query)
}

type AnyDeclaration = AnyEndpoint | AnyControlEndpoint

/** The declaration of the route, of the kind its answer needs (a programming error otherwise). */
function declared<K extends 'one' | 'list'>(
  operation: AnyDeclaration | undefined,
  kind: K,
): Extract<AnyDeclaration, { kind: K }> {
  if (operation?.kind !== kind) {
    throw new Error(
      `this route is not bound to a declaration that answers ${kind === 'one' ? 'one resource' : 'a page'}`,
    )
  }
  return operation as Extract<AnyDeclaration, { kind: K }>
}

/**
 * The {@link Call} of one request: a class, so that a request costs one object and its methods are
 * shared, not seven closures built for every request.
 */
class RequestCall {
  readonly request: MockRequest
  readonly params: Record<string, string>
  readonly mock: MockContext
  private readonly who: Caller | undefined
  private readonly declaration: AnyDeclaration | undefined

  constructor(
    request: MockRequest,
    params: Record<string, string>,
    mock: MockContext,
    caller: Caller | undefined,
    operation: AnyDeclaration | undefined,
  ) {
    this.request = request
    this.params = params
    this.mock = mock
    this.who = caller
    this.declaration = operation
  }

  get caller(): Caller {
    if (!this.who) throw new Error('this route has no authenticated caller')
    return this.who
  }

  body(schema?: z.ZodMiniType, options?: { optional?: boolean }): unknown {
    const operation = this.declaration
    const declared = schema ?? operation?.body
    if (!declared) throw new Error('this route declares no body: name the schema to read it with')
    const optional = schema ? (options?.optional ?? false) : (operation?.bodyOptional ?? false)
    refuseNonJson(this.request)
    const result = validate(declared, parseJson(this.request.body, optional))
    if (!result.success) throw errors.validation(result.fields)
    return result.data
  }

  query(schema?: z.ZodMiniType): unknown {
    const operation = this.declaration
    const declared = schema ?? (operation && isControlEndpoint(operation) ? operation.query : undefined)
    if (!declared) throw new Error('this route declares no query: name the schema to read it with')
    const result = validate(declared, queryObject(this.request.query))
    if (!result.success) throw errors.validation(result.fields)
    return result.data
  }

  page(): number {
    const raw = this.request.query.get('page')
    if (raw === null) return 1
    const result = validate(PageQuery, { page: raw })
    if (!result.success) throw errors.validation(result.fields)
    return result.data.page ?? 1
  }

  answer(value: unknown): MockResponse {
    const one = declared(this.declaration, 'one')
    return data(one.data, value, one.status)
  }

  answerRecord(row: object, project?: () => unknown): MockResponse {
    const one = declared(this.declaration, 'one')
    return record(serializerOf(one, one.data), row, one.status, project)
  }

  answerPage(rows: readonly object[], pageNumber?: number): MockResponse {
    const list = declared(this.declaration, 'list')
    // Through `this`, so that a wrapper of the call (a test watching what routes read) sees it.
    return page(serializerOf(list, list.item), rows, pageNumber ?? this.page())
  }
}

/** Builds the {@link Call} of a request. */
export function createCall(
  request: MockRequest,
  params: Record<string, string>,
  mock: MockContext,
  caller: Caller | undefined,
  operation?: AnyDeclaration,
): Call {
  return new RequestCall(request, params, mock, caller, operation) as unknown as Call
}
