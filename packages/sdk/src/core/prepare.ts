/**
 * A call's request, checked and built before anything is sent: path parameters, query and body
 * validated (every failing field reported at once), the URL filled in. What depends on the
 * endpoint alone (its path template split at the placeholders, a quick test of each path
 * parameter, its name in reports) is derived on its first call and kept.
 */
import type * as z from 'zod/mini'
import { type FieldErrors, PageParams } from '../schemas/common.js'
import { validate } from '../schemas/issues.js'
import type { Endpoint, HttpMethod, ListEndpoint } from './endpoint.js'
import { requestValidationError } from './error-factory.js'
import { type Accept, leafAcceptor } from './leaf.js'
import { compilePath, type PathFiller } from './path.js'

/** What a method passes to the request layer. */
export interface CallInput {
  readonly params?: Record<string, unknown>
  readonly body?: unknown
  readonly query?: unknown
}

/** A request ready to send. */
export interface Prepared {
  readonly method: HttpMethod
  /** The full URL, query included. */
  readonly url: string
  /** The validated body, `undefined` for none. */
  readonly json: unknown
  /** `GET /support/tickets/{uuid}`: the endpoint, for reports. */
  readonly endpoint: string
}

type AnyEndpoint = Endpoint<unknown> | ListEndpoint<unknown>

/** What is derived once per endpoint. */
interface Plan {
  readonly endpoint: string
  readonly fill: PathFiller
  /** A quick test per path parameter, when every one has one; else zod reads them. */
  readonly quick: readonly (readonly [string, Accept])[] | undefined
}

const plans = new WeakMap<AnyEndpoint, Plan>()

function quickParams(params: z.ZodMiniType | undefined): Plan['quick'] {
  const shape = (params?._zod.def as { shape?: Record<string, z.ZodMiniType> } | undefined)?.shape
  if (!shape) return undefined
  const tests: (readonly [string, Accept])[] = []
  for (const [name, schema] of Object.entries(shape)) {
    const accept = leafAcceptor(schema)
    if (!accept) return undefined
    tests.push([name, accept])
  }
  return tests
}

function planOf(ep: AnyEndpoint): Plan {
  let plan = plans.get(ep)
  if (!plan) {
    plan = { endpoint: `${ep.method} ${ep.path}`, fill: compilePath(ep.path), quick: quickParams(ep.params) }
    plans.set(ep, plan)
  }
  return plan
}

/** Whether every quick test accepts its parameter: the values are then zod's output already. */
function quickAccepts(plan: Plan, values: Record<string, unknown> | undefined): boolean {
  if (!plan.quick || !values) return false
  for (const [name, accept] of plan.quick) if (!accept(values[name])) return false
  return true
}

/** Checks everything that can be checked before sending; throws {@link ValidationError} with every failing field. */
export function prepare(ep: AnyEndpoint, input: CallInput, apiUrl: string): Prepared {
  const plan = planOf(ep)
  // Spread, not Object.assign: a field named `__proto__` must stay a field, not become the prototype.
  let fields: FieldErrors | undefined
  let path = ep.path
  if (ep.params) {
    const params = quickAccepts(plan, input.params)
      ? { success: true as const, data: input.params as Record<string, string | number> }
      : validate(ep.params, input.params)
    if (params.success) {
      const built = plan.fill(params.data)
      if (built.success) path = built.path
      else fields = built.fields
    } else fields = params.fields
  }
  if (ep.kind === 'list' && input.query !== undefined) {
    const query = validate(PageParams, input.query)
    // `page` is a validated integer: it needs no encoding, and ky no `searchParams` pass.
    if (query.success) {
      if (query.data.page !== undefined) path += `?page=${query.data.page}`
    } else fields = { ...fields, ...query.fields }
  }
  let json: unknown
  if (ep.body) {
    const body = validate(ep.body, input.body)
    if (body.success) json = body.data
    else fields = { ...fields, ...body.fields }
  }
  const url = `${apiUrl}${path}`
  if (fields) throw requestValidationError(ep.method, url, fields)
  return { method: ep.method, url, json, endpoint: plan.endpoint }
}
