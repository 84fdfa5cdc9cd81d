/**
 * Endpoint declarations: what the resource classes call and how the transport reads the answer.
 * Declarations only; `transport.ts` sends them.
 */
import * as z from 'zod/mini'
import { envelope, type PageMeta, pageEnvelope } from '../schemas/common.js'

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

type ParamShape = Record<string, z.ZodMiniType<string | number>>

/** @internal One endpoint returning one resource: how to call it and how to read its answer. */
export interface Endpoint<T> {
  readonly kind: 'one'
  readonly method: HttpMethod
  readonly path: string
  readonly params: z.ZodMiniType<Record<string, string | number>> | undefined
  readonly body: z.ZodMiniType | undefined
  readonly envelope: z.ZodMiniType<{ data: T }>
}

/** @internal One endpoint returning a paginated list (always GET). */
export interface ListEndpoint<T> {
  readonly kind: 'list'
  readonly method: 'GET'
  readonly path: string
  readonly params: z.ZodMiniType<Record<string, string | number>> | undefined
  readonly body: undefined
  readonly envelope: z.ZodMiniType<{ data: T[]; meta: PageMeta }>
}

/**
 * @internal Declares an endpoint returning one resource: method, path template with `{name}`
 * placeholders, the schema of each path parameter, of the body, and of the answer's `data`.
 */
export function endpoint<R extends z.ZodMiniType>(
  method: HttpMethod,
  path: string,
  spec: { params?: ParamShape; body?: z.ZodMiniType; data: R },
): Endpoint<z.output<R>> {
  return {
    kind: 'one',
    method,
    path,
    params: spec.params && z.object(spec.params),
    body: spec.body,
    // zod's types are invariant (`check` takes the output): widen once, here, where it is known to hold.
    envelope: envelope(spec.data) as unknown as z.ZodMiniType<{ data: z.output<R> }>,
  }
}

/** @internal Declares a paginated list endpoint by the schema of one item. */
export function listEndpoint<R extends z.ZodMiniType>(
  path: string,
  spec: { params?: ParamShape; item: R },
): ListEndpoint<z.output<R>> {
  return {
    kind: 'list',
    method: 'GET',
    path,
    params: spec.params && z.object(spec.params),
    body: undefined,
    envelope: pageEnvelope(spec.item) as unknown as z.ZodMiniType<{ data: z.output<R>[]; meta: PageMeta }>,
  }
}
