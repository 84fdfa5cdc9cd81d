/**
 * Control endpoint declarations: one per endpoint under `/__mock/`, as the SDK declares each
 * operation of the service (its `src/operations/`). The handlers bind to them
 * (`route(control.clock.advance, resolve)`), `openapi/served.ts` documents them, and the control
 * client (`client.ts`) calls them: method, path and schemas are written once, here.
 *
 * Declarations only: no text (that is `openapi/control-texts.ts`, read by the document alone) and
 * nothing of the running mock, so the client carries neither.
 */
import type * as z from 'zod/mini'

/** Where every control endpoint lives, below the mock's base URL. */
export const CONTROL_BASE = '/__mock'

/** HTTP methods the control endpoints use. */
export type ControlMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** The schema of each path parameter, by its name in the path. */
export type ControlParams = Readonly<Record<string, z.ZodMiniType<string>>>

/** What every control declaration carries besides its answer. */
interface ControlDeclared<P extends ControlParams | undefined> {
  /** Tells a control declaration from one of the SDK's (the router binds both). */
  readonly control: true
  readonly method: ControlMethod
  /** Path below the mock's base URL (`/__mock/…`), with `{name}` parameters. */
  readonly path: string
  /** The path parameters: names as in `path`; a string the router reads as given. */
  readonly params: P
}

/**
 * One control endpoint that answers `{ success: true, data }` with `data` through the schema `D`
 * (`B`: the schema its body is read with; `Q`: the schema of its query string).
 */
export interface ControlEndpoint<
  D extends z.ZodMiniType = z.ZodMiniType,
  B extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  Q extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  P extends ControlParams | undefined = ControlParams | undefined,
> extends ControlDeclared<P> {
  readonly kind: 'one'
  readonly body: B
  /** The body may be left out (an empty body reads as `{}`). */
  readonly bodyOptional: boolean
  readonly query: Q
  /** The schema of the answer's `data`. */
  readonly data: D
  /** The status of a success: 201 where the call creates something, else 200. */
  readonly status: 200 | 201
  /** Who answers: the route table (every transport), or the standalone server alone (its namespaces). */
  readonly servedBy: 'routes' | 'server'
}

/**
 * One control endpoint whose answer no zod schema of the mock states (the store's snapshot, the
 * OpenAPI document, an event stream): the document describes it with `schema`, a JSON Schema.
 */
export interface RawControlEndpoint extends ControlDeclared<ControlParams | undefined> {
  readonly kind: 'raw'
  readonly body: undefined
  readonly bodyOptional: false
  readonly query: undefined
  readonly status: 200
  /** Media type of the answer. */
  readonly media: string
  /** JSON Schema of the answer, when it is JSON. */
  readonly schema: object | undefined
  /** Who answers: the route table (every transport), or the standalone server alone. */
  readonly servedBy: 'routes' | 'server'
}

/** Any control declaration. */
export type AnyControlEndpoint = ControlEndpoint | RawControlEndpoint

/** Declares a control endpoint answering `data` through `spec.data` (status 200 unless `status`). */
export function controlEndpoint<
  D extends z.ZodMiniType,
  B extends z.ZodMiniType | undefined = undefined,
  Q extends z.ZodMiniType | undefined = undefined,
  P extends ControlParams | undefined = undefined,
>(
  method: ControlMethod,
  path: string,
  spec: {
    params?: P
    body?: B
    bodyOptional?: boolean
    query?: Q
    data: D
    status?: 200 | 201
    servedBy?: 'routes' | 'server'
  },
): ControlEndpoint<D, B, Q, P> {
  return {
    control: true,
    kind: 'one',
    method,
    path: checkedPath(path),
    params: spec.params as P,
    body: spec.body as B,
    bodyOptional: spec.bodyOptional ?? false,
    query: spec.query as Q,
    data: spec.data,
    status: spec.status ?? 200,
    servedBy: spec.servedBy ?? 'routes',
  }
}

/** Declares a GET control endpoint whose answer a JSON Schema describes (`media`: its type). */
export function rawControlEndpoint(
  path: string,
  spec: { media: string; schema?: object; servedBy?: 'routes' | 'server' },
): RawControlEndpoint {
  return {
    control: true,
    kind: 'raw',
    method: 'GET',
    path: checkedPath(path),
    params: undefined,
    body: undefined,
    bodyOptional: false,
    query: undefined,
    status: 200,
    media: spec.media,
    schema: spec.schema,
    servedBy: spec.servedBy ?? 'routes',
  }
}

function checkedPath(path: string): string {
  if (!path.startsWith(`${CONTROL_BASE}/`)) throw new Error(`a control path starts ${CONTROL_BASE}/: ${path}`)
  return path
}

/**
 * The path of a request to `declaration`: its `{name}` placeholders filled with `params`, each
 * URI-encoded. A TypeError, naming the parameter, for a value that would match no route or move the
 * request to another path (`''`, `.`, `..`).
 */
export function controlPath(
  declaration: Pick<AnyControlEndpoint, 'path'>,
  params: Readonly<Record<string, string>> = {},
): string {
  return declaration.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
      throw new TypeError(
        `${name} must be a non-empty string other than "." and ".." (got ${JSON.stringify(value)})`,
      )
    }
    return encodeURIComponent(value)
  })
}

/** Whether `declaration` is a control endpoint's (not one of the SDK's operations). */
export function isControlEndpoint(declaration: object): declaration is AnyControlEndpoint {
  return (declaration as { control?: unknown }).control === true
}
