/**
 * Endpoint declarations: one per operation of the service, read by the resource classes (through
 * the transport), by the OpenAPI generator (`src/openapi/`) and by the mock's handlers, which bind
 * a handler to a declaration (docs/openapi.md, "How it is made"). Declarations
 * only; `transport.ts` sends them. The operations' texts live beside them in `src/operations/`,
 * in exports the resources do not import, so that no document text reaches the client bundle.
 */
import * as z from 'zod/mini'
import { envelope, type PageMeta, pageEnvelope, type Scope } from '../schemas/common.js'

/** @internal The base path of the API below the server's URL: declarations' paths are below it. */
export const API_BASE = '/api/v1'

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

type ParamShape = Record<string, z.ZodMiniType<string | number>>

/** @internal Who may call an operation: any valid key unless `scope`; sandbox keys unless refused. */
export interface Access {
  /** Scope the key must hold; absent: any valid key. */
  readonly scope?: Scope
  /** `'refuse'`: sandbox keys get 403 `sandbox_read_only` (checked after the scope). */
  readonly sandbox?: 'refuse'
}

/** @internal What every declaration carries besides its answer. */
interface Declared {
  readonly method: HttpMethod
  /** Path below the API base (`/api/v1`), with `{name}` placeholders named as the SDK's arguments. */
  readonly path: string
  readonly params: z.ZodMiniType<Record<string, string | number>> | undefined
  /** Names of path parameters on the wire (in the document and the mock's routes), where they differ. */
  readonly wireNames: Readonly<Record<string, string>> | undefined
  readonly access: Access
  /** A deprecated operation: the one that replaces it. */
  readonly successor: AnyEndpoint | undefined
}

/**
 * @internal One endpoint returning one resource: how to call it and how to read its answer (`B`:
 * the schema of its body, which the mock's handler reads the request with).
 */
export interface Endpoint<T, B extends z.ZodMiniType | undefined = z.ZodMiniType | undefined>
  extends Declared {
  readonly kind: 'one'
  readonly body: B
  /** The body may be left out (an empty body reads as `{}`). */
  readonly bodyOptional: boolean
  /** The schema of the answer's `data`. */
  readonly data: z.ZodMiniType
  /** The status of a success: 201 where the call creates something, else 200. */
  readonly status: SuccessStatus
  readonly envelope: z.ZodMiniType<{ data: T }>
}

/** @internal One endpoint returning a paginated list (always GET, `page` query parameter). */
export interface ListEndpoint<T> extends Declared {
  readonly kind: 'list'
  readonly method: 'GET'
  readonly body: undefined
  readonly bodyOptional: false
  /** The schema of one item of the answer's `data`. */
  readonly item: z.ZodMiniType
  readonly status: 200
  readonly envelope: z.ZodMiniType<{ data: T[]; meta: PageMeta }>
}

/** @internal The status of a success answer. */
export type SuccessStatus = 200 | 201

/** @internal Any declaration. */
export type AnyEndpoint = Endpoint<unknown> | ListEndpoint<unknown>

/** @internal What both kinds of declaration take besides their answer. */
export interface DeclarationSpec {
  /** Schema of each path parameter, by the SDK's name for it. */
  params?: ParamShape
  /** Names of path parameters on the wire, by the SDK's name, where they differ. */
  wireNames?: Record<string, string>
  access?: Access
  /** Marks a deprecated operation, replaced by `successor`. */
  successor?: AnyEndpoint
}

function declared(method: HttpMethod, path: string, spec: DeclarationSpec): Declared {
  return {
    method,
    path,
    params: spec.params && z.object(spec.params),
    wireNames: spec.wireNames,
    access: spec.access ?? {},
    successor: spec.successor,
  }
}

/**
 * @internal Declares an endpoint returning one resource: method, path template with `{name}`
 * placeholders, the schema of each path parameter, of the body, and of the answer's `data`, and
 * the status of a success (`status`, default 200).
 */
export function endpoint<R extends z.ZodMiniType, B extends z.ZodMiniType | undefined = undefined>(
  method: HttpMethod,
  path: string,
  spec: DeclarationSpec & { body?: B; bodyOptional?: boolean; data: R; status?: SuccessStatus },
): Endpoint<z.output<R>, B> {
  return {
    kind: 'one',
    ...declared(method, path, spec),
    body: spec.body as B,
    bodyOptional: spec.bodyOptional ?? false,
    data: spec.data,
    status: spec.status ?? 200,
    // zod's types are invariant (`check` takes the output): widen once, here, where it is known to hold.
    envelope: envelope(spec.data) as unknown as z.ZodMiniType<{ data: z.output<R> }>,
  }
}

/** @internal Declares a paginated list endpoint by the schema of one item. */
export function listEndpoint<R extends z.ZodMiniType>(
  path: string,
  spec: DeclarationSpec & { item: R },
): ListEndpoint<z.output<R>> {
  return {
    kind: 'list',
    ...declared('GET', path, spec),
    method: 'GET',
    body: undefined,
    bodyOptional: false,
    item: spec.item,
    status: 200,
    envelope: pageEnvelope(spec.item) as unknown as z.ZodMiniType<{ data: z.output<R>[]; meta: PageMeta }>,
  }
}

/** @internal The path of `ep` with its parameters named as on the wire: `/support/tickets/{ticket_uuid}`. */
export function wirePath(ep: AnyEndpoint): string {
  const names = ep.wireNames
  return names ? ep.path.replace(/\{(\w+)\}/g, (_, name: string) => `{${names[name] ?? name}}`) : ep.path
}
