/**
 * The faults of one mock: checked when added, matched against every API request in
 * the order added (first match wins), used up after `times` requests. The core applies what
 * {@link FaultRegistry.take} returns; this module only decides which fault a request meets.
 */
import { type FieldErrors, validate } from '@reseller-api/sdk/schemas'
import { type FaultJson, FaultSpec } from './schema.js'

/** A route of the mock as the registry sees it. */
export interface RouteTemplate {
  method: string
  path: string
}

/** A fault ready to apply. */
export interface ActiveFault {
  readonly id: string
  readonly delayMs: number | undefined
  readonly respond:
    | Readonly<{ status: number; code: string; message: string; retryAfter?: number }>
    | undefined
  readonly drop: 'before' | 'after' | undefined
}

/** A fault as stored: `applied` counts up as requests meet it. */
export interface StoredFault extends ActiveFault {
  readonly match: { method?: string; route?: string; path?: string }
  readonly times: number | undefined
  applied: number
}

/** The result of checking a fault spec: the fault to store, or the failing fields. */
export type FaultCheck =
  | { success: true; fault: Omit<StoredFault, 'id' | 'applied'> }
  | { success: false; fields: FieldErrors }

/** The faults of one mock. */
export interface FaultRegistry {
  /** Checks `input` against the spec and the route table. */
  check(input: unknown): FaultCheck
  /** Stores a checked fault under a new id (`flt_…`, never reused within the mock). */
  add(fault: Omit<StoredFault, 'id' | 'applied'>): StoredFault
  /** Every fault, in the order added. */
  list(): readonly StoredFault[]
  /** Removes a fault; returns it, or `undefined` when there was none (removed, used up, unknown). */
  remove(id: string): StoredFault | undefined
  /** Removes every fault; returns how many there were. */
  clear(): number
  /**
   * The first fault matching a request, counted as applied (a fault with `times` leaves the list
   * once used up), or `undefined`. `route` is the matched template, `null` for none.
   */
  take(method: string, path: string, route: string | null): ActiveFault | undefined
}

// Default codes by status (docs/faults-and-journal.md, "Faults in detail"); 401 and 404 take the codes the mock itself answers for those statuses.
const DEFAULT_CODES: Record<number, string> = {
  401: 'unauthenticated',
  404: 'not_found',
  408: 'request_timeout',
  429: 'rate_limited',
  503: 'service_unavailable',
}

const REASONS: Record<number, string> = {
  400: 'bad request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not found',
  408: 'request timeout',
  409: 'conflict',
  422: 'unprocessable request',
  429: 'too many requests',
  500: 'internal server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
}

/** The default `error.code` of a fault answering `status`. */
export function defaultFaultCode(status: number): string {
  return DEFAULT_CODES[status] ?? (status >= 500 ? 'internal_error' : 'client_error')
}

function shapeOf(template: string): string {
  return template.replace(/:[^/]+/g, ':')
}

/** Whether a concrete `path` fits `template` (segment by segment, `:name` takes any non-empty segment). */
function fits(path: string, template: string): boolean {
  const a = path.split('/')
  const b = template.split('/')
  if (a.length !== b.length) return false
  return b.every((segment, i) => (segment.startsWith(':') ? a[i] !== '' : segment === a[i]))
}

const API = '/api/'
const API_ONLY = 'must be under /api/: faults apply to API requests only, never to /__mock/ control requests'

/** A stored fault as listed over HTTP. */
export function faultJson(f: StoredFault): FaultJson {
  return {
    id: f.id,
    match: { ...f.match },
    ...(f.times === undefined ? {} : { times: f.times }),
    ...(f.delayMs === undefined ? {} : { delayMs: f.delayMs }),
    ...(f.respond === undefined ? {} : { respond: { ...f.respond } }),
    ...(f.drop === undefined ? {} : { drop: f.drop }),
    applied: f.applied,
    remaining: f.times === undefined ? null : f.times - f.applied,
  }
}

/** Creates the fault registry of a mock whose route table is `routes`. */
export function createFaultRegistry(routes: readonly RouteTemplate[]): FaultRegistry {
  const apiRoutes = routes.filter((r) => r.path.startsWith(API))
  const templates = new Map<string, Set<string>>()
  for (const r of apiRoutes) {
    const methods = templates.get(r.path) ?? new Set<string>()
    methods.add(r.method)
    templates.set(r.path, methods)
  }
  let faults: StoredFault[] = []
  let counter = 0

  /** Rules beyond the schema: the match must be able to hit an API route, and the fault must do something. */
  const checkRules = (spec: ReturnType<typeof FaultSpec.parse>): FieldErrors => {
    const fields = new Map<string, string[]>()
    const fail = (field: string, message: string) => {
      const messages = fields.get(field)
      if (messages) messages.push(message)
      else fields.set(field, [message])
    }
    const { method, route, path } = spec.match ?? {}
    if (path !== undefined && !path.startsWith(API)) fail('match.path', API_ONLY)
    if (route !== undefined) {
      if (!route.startsWith(API)) {
        fail('match.route', API_ONLY)
      } else if (!templates.has(route)) {
        const near = [...templates.keys()].find((t) => shapeOf(t) === shapeOf(route))
        fail(
          'match.route',
          near === undefined
            ? `matches no route of the mock: give a template such as /api/v1/support/tickets/:ticket_uuid`
            : `matches no route of the mock: did you mean ${near}?`,
        )
      } else {
        const methods = templates.get(route)!
        if (method !== undefined && !methods.has(method)) {
          fail('match.method', `no route ${route} answers ${method}; it answers ${[...methods].join(', ')}`)
        }
        if (path?.startsWith(API) && !fits(path, route)) {
          fail('match.path', `cannot match the route ${route} given in match.route`)
        }
      }
    }
    if (spec.respond !== undefined && spec.drop !== undefined) {
      fail('drop', 'cannot be combined with respond: a dropped request gets no answer')
    }
    if (spec.respond === undefined && spec.drop === undefined && spec.delayMs === undefined) {
      fail('respond', 'a fault needs respond, drop or delayMs: without any of them it would change nothing')
    }
    return Object.fromEntries(fields)
  }

  return {
    check(input) {
      const parsed = validate(FaultSpec, input)
      if (!parsed.success) return { success: false, fields: parsed.fields }
      const spec = parsed.data
      const fields = checkRules(spec)
      if (Object.keys(fields).length > 0) return { success: false, fields }
      const match: StoredFault['match'] = {}
      if (spec.match?.method !== undefined) match.method = spec.match.method
      if (spec.match?.route !== undefined) match.route = spec.match.route
      if (spec.match?.path !== undefined) match.path = spec.match.path
      const respond = spec.respond && {
        status: spec.respond.status,
        code: spec.respond.code ?? defaultFaultCode(spec.respond.status),
        message:
          spec.respond.message ??
          `${REASONS[spec.respond.status] ?? (spec.respond.status >= 500 ? 'server error' : 'request refused')} (answered by a fault of the mock)`,
        ...(spec.respond.retryAfter === undefined ? {} : { retryAfter: spec.respond.retryAfter }),
      }
      return {
        success: true,
        fault: { match, times: spec.times, delayMs: spec.delayMs, respond, drop: spec.drop },
      }
    },
    add(fault) {
      const stored: StoredFault = { ...fault, id: `flt_${++counter}`, applied: 0 }
      faults.push(stored)
      return stored
    },
    list: () => faults,
    remove(id) {
      const index = faults.findIndex((f) => f.id === id)
      if (index === -1) return undefined
      return faults.splice(index, 1)[0]
    },
    clear() {
      const cleared = faults.length
      faults = []
      return cleared
    },
    take(method, path, route) {
      if (faults.length === 0) return undefined
      for (let i = 0; i < faults.length; i++) {
        const f = faults[i]!
        const m = f.match
        if (m.method !== undefined && m.method !== method) continue
        if (m.route !== undefined && m.route !== route) continue
        if (m.path !== undefined && m.path !== path) continue
        f.applied++
        if (f.times !== undefined && f.applied >= f.times) faults.splice(i, 1)
        return f
      }
      return undefined
    },
  }
}
