/**
 * The core: one {@link MockHandler} that answers every request of the mock. It matches the route,
 * checks access in the order of docs/spec-decisions.md, "Mock: keys, sandbox and check order" (401 `unauthenticated`, 403 `insufficient_scope`,
 * 403 `sandbox_read_only`), runs the route inside one store transaction (a throw undoes every write
 * of the request), and renders any thrown error into the envelope. The MSW handlers, `mock.fetch`
 * and the node:http server all call this function, so the instruments (journal, faults, clock) live here
 * too: every API request (`/api/…`) gets a journal entry and an `X-Request-Id`, and meets the faults.
 */
import type { MockContext } from '../context.js'
import type { Caller } from '../domain/caller.js'
import { ApiError, errors, isApiError } from '../errors.js'
import type { ActiveFault } from '../faults/registry.js'
import { type JournalRecord, journalAnswer } from '../journal/journal.js'
import type { Store } from '../state/store.js'
import { renderError } from './errors.js'
import { createCall, type Route } from './route.js'
import { compileRoutes, type Matched } from './router.js'
import type { MockHandler, MockRequest, MockResponse } from './types.js'

const BEARER = /^Bearer +(\S+) *$/i

/**
 * The deliveries a request caused (comma-separated ids, on any answer, API or control, that queued
 * one): `reseller-mock trigger` follows them, a curl user finds them in `GET /__mock/deliveries`.
 */
export const DELIVERIES_HEADER = 'x-mock-deliveries'

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

/** Who sent a request the route did not accept or never saw (a fault): the owner of a known key. */
function identify(store: Store, request: MockRequest, record: JournalRecord): void {
  const match = BEARER.exec(request.headers.get('authorization') ?? '')
  const key = match ? store.apiKeys.get(match[1]!) : undefined
  if (key === undefined || store.resellers.get(key.reseller_id) === undefined) return
  record.keyMode = key.mode
  record.resellerId = key.reseller_id
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as Promise<T>)?.then === 'function'
}

const API_PREFIX = '/api/'

/** The answer of a dropped request: none at all. */
function noAnswer(): MockResponse {
  return { status: 0, headers: {}, body: '', noAnswer: true }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Builds the core handler of the mock from its route table. */
export function createHandle(routes: readonly Route[], mock: MockContext): MockHandler {
  const match = compileRoutes(routes)

  /** Runs the matched route; fills the caller and error code of `record` when given. */
  const serve = async (
    request: MockRequest,
    matched: Matched | undefined,
    record: JournalRecord | undefined,
  ): Promise<MockResponse> => {
    if (!matched) {
      if (record) record.errorCode = 'not_found'
      return renderError(errors.routeNotFound(request.method, request.path))
    }
    const { route, params } = matched
    let response: MockResponse
    const queued: string[] = []
    try {
      const caller = route.auth === 'none' ? undefined : authenticate(mock.store, request, route)
      if (record && caller) {
        record.keyMode = caller.key.mode
        record.resellerId = caller.reseller.id
      }
      const call = createCall(request, params, mock, caller, route.operation)
      const result = mock.dispatcher.collectQueued(queued, () =>
        route.transaction === false ? route.resolve(call) : mock.store.transact(() => route.resolve(call)),
      )
      response = isPromise(result) ? await result : result
    } catch (error) {
      if (record) {
        record.errorCode = isApiError(error) ? error.code : 'internal_error'
        // A known key refused for its scope or mode (403) still names its owner; a 401 names none.
        if (record.keyMode === null && route.auth !== 'none') identify(mock.store, request, record)
      }
      response = renderError(error)
    }
    const saving = mock.durable?.()
    if (saving !== undefined) {
      try {
        await saving
      } catch (error) {
        if (record) record.errorCode = 'internal_error'
        return renderError(
          new ApiError(
            500,
            'internal_error',
            `the change could not be saved to the state file: ${(error as Error)?.message ?? error}`,
          ),
        )
      }
    }
    if (queued.length > 0) response.headers[DELIVERIES_HEADER] = queued.join(', ')
    if (route.successor !== undefined) {
      response.headers.deprecation = 'true'
      response.headers.link = `<${route.successor}>; rel="successor-version"`
    }
    return response
  }

  /** An API request: journaled, given an id, and exposed to the faults. */
  const serveApi = async (request: MockRequest): Promise<MockResponse> => {
    const matched = match(request.method, request.path)
    const id = mock.journal.nextId()
    const route = matched ? matched.route.path : null
    // Recorded on arrival, so the journal lists requests in the order they came (a delayed one
    // included, with `status: null` until it is answered); the fields below are filled in as known.
    const record: JournalRecord = {
      id,
      atMs: mock.clock.nowMs(),
      method: request.method,
      path: request.path,
      search: request.search ?? (request.query.size === 0 ? '' : `?${request.query}`),
      route,
      keyMode: null,
      resellerId: null,
      status: null,
      errorCode: null,
      body: request.body,
      fault: null,
      response: null,
    }
    mock.journal.record(record)
    const fault: ActiveFault | undefined = mock.faults.take(request.method, request.path, route)
    let response: MockResponse
    if (fault === undefined) {
      response = await serve(request, matched, record)
    } else {
      record.fault = fault.id
      if (fault.delayMs !== undefined && fault.delayMs > 0) await sleep(fault.delayMs)
      if (fault.drop === 'before') {
        identify(mock.store, request, record)
        return noAnswer()
      }
      if (fault.respond !== undefined) {
        identify(mock.store, request, record)
        const { status, code, message, retryAfter } = fault.respond
        record.errorCode = code
        response = renderError(
          new ApiError(
            status,
            code as ApiError['code'],
            message,
            undefined,
            retryAfter === undefined ? undefined : { 'retry-after': String(retryAfter) },
          ),
        )
      } else {
        response = await serve(request, matched, record)
        if (fault.drop === 'after') return noAnswer()
      }
    }
    record.status = response.status
    response.headers['x-request-id'] = id
    if (mock.journal.limit > 0) record.response = journalAnswer(response)
    mock.journal.answered()
    return response
  }

  return (request) =>
    request.path.startsWith(API_PREFIX)
      ? serveApi(request)
      : serve(request, match(request.method, request.path), undefined)
}
