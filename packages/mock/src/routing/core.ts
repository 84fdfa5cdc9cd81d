/**
 * The core: one {@link MockHandler} that answers every request of the mock. It matches the route,
 * checks access in the contract's order (401 `unauthenticated`, 403 `insufficient_scope`,
 * 403 `sandbox_read_only`), runs the route inside one store transaction (a throw undoes every write
 * of the request), and renders any thrown error into the envelope. The MSW handlers, `mock.fetch`
 * and the node:http server all call this function.
 */
import type { MockContext } from '../context.js'
import type { Store } from '../state/store.js'
import { errors, renderError } from './errors.js'
import { type Caller, createCall, type Route } from './route.js'
import { compileRoutes } from './router.js'
import type { MockHandler, MockRequest, MockResponse } from './types.js'

const BEARER = /^Bearer +(\S+) *$/i

/** Checks key, scope and sandbox rules of `route` for `request`; returns the caller. */
export function authenticate(store: Store, request: MockRequest, route: Route): Caller {
  const header = request.headers.get('authorization')
  if (header === null || header === '') {
    throw errors.unauthenticated('missing Authorization header: send "Authorization: Bearer <API key>"')
  }
  const match = BEARER.exec(header)
  if (!match) throw errors.unauthenticated('malformed Authorization header: expected "Bearer <API key>"')
  const key = store.apiKeys.get(match[1]!)
  if (!key) throw errors.unauthenticated('unknown API key')
  const reseller = store.resellers.get(key.reseller_id)
  if (!reseller) throw errors.unauthenticated('unknown API key')
  if (route.scope !== undefined && !key.scopes.includes(route.scope))
    throw errors.insufficientScope(route.scope)
  const sandbox = key.mode === 'sandbox'
  if (sandbox && route.sandbox === 'refuse') throw errors.sandboxReadOnly(route.method, route.path)
  return { reseller, key, sandbox }
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as Promise<T>)?.then === 'function'
}

/** Builds the core handler of the mock from its route table. */
export function createHandle(routes: readonly Route[], mock: MockContext): MockHandler {
  const match = compileRoutes(routes)
  return async (request) => {
    const matched = match(request.method, request.path)
    if (!matched) return renderError(errors.routeNotFound(request.method, request.path))
    const { route, params } = matched
    let response: MockResponse
    try {
      const caller = route.auth === 'none' ? undefined : authenticate(mock.store, request, route)
      const call = createCall(request, params, mock, caller)
      const result =
        route.transaction === false ? route.resolve(call) : mock.store.transact(() => route.resolve(call))
      response = isPromise(result) ? await result : result
    } catch (error) {
      response = renderError(error)
    }
    if (route.successor !== undefined) {
      response.headers.deprecation = 'true'
      response.headers.link = `<${route.successor}>; rel="successor-version"`
    }
    return response
  }
}
