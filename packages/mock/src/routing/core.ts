/**
 * The core: one {@link CoreHandler} that answers every request of the mock. It matches the route,
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
import type { CoreHandler, MockRequest, MockResponse } from './types.js'

const BEARER = /^Bearer +(\S+) *$/i

/**
 * The key of an `Authorization: Bearer <key>` value, or `undefined` when it is not one: what
 * {@link BEARER} matches, read without the regular expression for the usual printable-ASCII value
 * (the standalone server reads one per request), through it otherwise.
 */
export function bearerKey(header: string): string | undefined {
  // A client sends the same header with every request: the last one read is read once.
  if (header === lastBearer.header) return lastBearer.key
  const key = readBearer(header)
  lastBearer = { header, key }
  return key
}

/**
 * The last header {@link bearerKey} read, and its key. Beyond the reading, its key is the very
 * string the key table was searched with before, whose hash the engine keeps: a load test's requests
 * (one key) then hash no string of their own to find their key.
 */
let lastBearer: { header: string; key: string | undefined } = { header: '', key: undefined }

function readBearer(header: string): string | undefined {
  const length = header.length
  // "Bearer" in any case: each letter's code with the lower-case bit set.
  if (
    length < 8 ||
    (header.charCodeAt(0) | 32) !== 98 ||
    (header.charCodeAt(1) | 32) !== 101 ||
    (header.charCodeAt(2) | 32) !== 97 ||
    (header.charCodeAt(3) | 32) !== 114 ||
    (header.charCodeAt(4) | 32) !== 101 ||
    (header.charCodeAt(5) | 32) !== 114 ||
    header.charCodeAt(6) !== 32
  ) {
    return BEARER.exec(header)?.[1]
  }
  let start = 7
  while (start < length && header.charCodeAt(start) === 32) start++
  let end = start
  for (; end < length; end++) {
    const code = header.charCodeAt(end)
    if (code === 32) break
    // Another blank or anything outside printable ASCII: the regular expression decides.
    if (code < 33 || code > 126) return BEARER.exec(header)?.[1]
  }
  if (end === start) return undefined
  for (let i = end; i < length; i++) {
    const code = header.charCodeAt(i)
    if (code !== 32) return code < 33 || code > 126 ? BEARER.exec(header)?.[1] : undefined
  }
  return header.slice(start, end)
}

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
  const token = bearerKey(header)
  if (token === undefined)
    throw errors.unauthenticated('malformed Authorization header: expected "Bearer <API key>"')
  const key = store.apiKeys.get(token)
  if (!key) throw errors.unauthenticated('unknown API key')
  // The key table's own string from now on: the next request's lookup finds its entry by identity
  // and compares no characters (a sliced string of the header compares in V8's slow path).
  if (lastBearer.key === token) lastBearer.key = key.key
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
  const token = bearerKey(request.headers.get('authorization') ?? '')
  const key = token === undefined ? undefined : store.apiKeys.get(token)
  if (key === undefined || store.resellers.get(key.reseller_id) === undefined) return
  record.keyMode = key.mode
  record.resellerId = key.reseller_id
}

/** Whether an answer (or a read body) is still to come. */
export function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as Promise<T>)?.then === 'function'
}

/** Where the API's paths start: journaled, given an id, exposed to faults. */
export const API_PREFIX = '/api/'

/** The answer of a dropped request: none at all. */
function noAnswer(): MockResponse {
  return { status: 0, headers: {}, body: '', noAnswer: true }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Builds the core handler of the mock from its route table. It answers synchronously when nothing
 * on the way waits (no delayed fault, no pending save, a synchronous route): the standalone server
 * then writes the answer in the same turn as the request arrived, with no promise per layer.
 */
export function createHandle(routes: readonly Route[], mock: MockContext): CoreHandler {
  const match = compileRoutes(routes)
  // A header that names a path names it on the server: below the base URL's own path (a namespace's).
  const basePath = new URL(mock.baseUrl).pathname.replace(/\/+$/, '')

  /** A route's error as an answer; fills the error code and caller of `record` when given. */
  const failed = (
    error: unknown,
    request: MockRequest,
    route: Route,
    record: JournalRecord | undefined,
  ): MockResponse => {
    if (record) {
      record.errorCode = isApiError(error) ? error.code : 'internal_error'
      // A known key refused for its scope or mode (403) still names its owner; a 401 names none.
      if (record.keyMode === null && route.auth !== 'none') identify(mock.store, request, record)
    }
    return renderError(error)
  }

  /** The headers every routed answer gets: the deliveries it queued, a deprecated route's successor. */
  const decorate = (response: MockResponse, route: Route, queued: string[]): MockResponse => {
    if (queued.length > 0) response.headers[DELIVERIES_HEADER] = queued.join(', ')
    if (route.successor !== undefined) {
      response.headers.deprecation = 'true'
      response.headers.link = `<${basePath}${route.successor}>; rel="successor-version"`
    }
    return response
  }

  /** Waits for the state file (when one is kept) before the answer leaves, then decorates it. */
  const settle = (
    response: MockResponse,
    route: Route,
    queued: string[],
    record: JournalRecord | undefined,
  ): MockResponse | Promise<MockResponse> => {
    const saving = mock.durable?.()
    if (saving === undefined) return decorate(response, route, queued)
    return saving.then(
      () => decorate(response, route, queued),
      (error: unknown) => {
        if (record) record.errorCode = 'internal_error'
        return renderError(
          new ApiError(
            500,
            'internal_error',
            `the change could not be saved to the state file: ${(error as Error)?.message ?? error}`,
          ),
        )
      },
    )
  }

  /** Runs the matched route; fills the caller and error code of `record` when given. */
  const serve = (
    request: MockRequest,
    matched: Matched | undefined,
    record: JournalRecord | undefined,
  ): MockResponse | Promise<MockResponse> => {
    if (!matched) {
      if (record) record.errorCode = 'not_found'
      return renderError(errors.routeNotFound(request.method, request.path))
    }
    const { route, params } = matched
    const queued: string[] = []
    let result: MockResponse | Promise<MockResponse>
    try {
      const caller = route.auth === 'none' ? undefined : authenticate(mock.store, request, route)
      if (record && caller) {
        record.keyMode = caller.key.mode
        record.resellerId = caller.reseller.id
      }
      const call = createCall(request, params, mock, caller, route.operation)
      result = mock.dispatcher.collectQueued(queued, () =>
        route.transaction === false
          ? route.resolve(call)
          : mock.store.transact(() => route.resolve(call), { refusable: true }),
      )
    } catch (error) {
      result = failed(error, request, route, record)
    }
    if (!isPromise(result)) return settle(result, route, queued, record)
    return result.then(
      (response) => settle(response, route, queued, record),
      (error: unknown) => settle(failed(error, request, route, record), route, queued, record),
    )
  }

  /** Completes the journal entry of an answered API request and gives the answer its id. */
  const complete = (record: JournalRecord, response: MockResponse): MockResponse => {
    record.status = response.status
    response.headers['x-request-id'] = record.id
    if (mock.journal.limit > 0) record.response = journalAnswer(response)
    mock.journal.answered()
    return response
  }

  /** An API request a fault matched: delayed, dropped or answered by the fault, or served. */
  const serveFaulted = async (
    request: MockRequest,
    matched: Matched | undefined,
    record: JournalRecord,
    fault: ActiveFault,
  ): Promise<MockResponse> => {
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
      return complete(
        record,
        renderError(
          new ApiError(
            status,
            code as ApiError['code'],
            message,
            undefined,
            retryAfter === undefined ? undefined : { 'retry-after': String(retryAfter) },
          ),
        ),
      )
    }
    const response = await serve(request, matched, record)
    if (fault.drop === 'after') return noAnswer()
    return complete(record, response)
  }

  /** An API request: journaled, given an id, and exposed to the faults. */
  const serveApi = (request: MockRequest): MockResponse | Promise<MockResponse> => {
    const matched = match(request.method, request.path)
    // Recorded on arrival, so the journal lists requests in the order they came (a delayed one
    // included, with `status: null` until it is answered); the fields below are filled in as known.
    const record: JournalRecord = {
      id: mock.journal.nextId(),
      atMs: mock.clock.nowMs(),
      method: request.method,
      path: request.path,
      search: request.search ?? (request.query.size === 0 ? '' : `?${request.query}`),
      route: matched ? matched.route.path : null,
      keyMode: null,
      resellerId: null,
      status: null,
      errorCode: null,
      body: request.body,
      fault: null,
      response: null,
    }
    mock.journal.record(record)
    const fault = mock.faults.take(request.method, request.path, record.route)
    if (fault !== undefined) return serveFaulted(request, matched, record, fault)
    const response = serve(request, matched, record)
    return isPromise(response) ? response.then((done) => complete(record, done)) : complete(record, response)
  }

  return (request) =>
    request.path.startsWith(API_PREFIX)
      ? serveApi(request)
      : serve(request, match(request.method, request.path), undefined)
}
