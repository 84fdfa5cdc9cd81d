/**
 * The request of `api.request`: an endpoint this SDK version does not declare. No schema checks its
 * body or answer; what is checked is what keeps the call inside the API: the method, a path that
 * stays below `/api/v1` once resolved (dot segments, encoded or not, cannot climb out of it), a
 * query of plain values and a body JSON can carry. Anything else is a `TypeError` naming the
 * argument and the rule, before anything is sent.
 */
import { API_BASE, type HttpMethod } from './endpoint.js'
import type { Prepared } from './prepare.js'

/** One query parameter's value: arrays repeat the name; `undefined` and `null` leave it out. */
export type RawQueryValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number | boolean)[]

/** What `api.request` sends besides its method and path. */
export interface RawInput {
  /** Query parameters, added to any query the path already holds. */
  readonly query?: Readonly<Record<string, RawQueryValue>>
  /** The JSON body (not with `GET`). */
  readonly body?: unknown
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

function fail(message: string): never {
  throw new TypeError(`api.request: ${message}`)
}

/** Checks the arguments of `api.request` and builds its request. */
export function prepareRaw(
  method: unknown,
  path: unknown,
  input: RawInput | undefined,
  apiUrl: string,
): Prepared {
  const verb = typeof method === 'string' ? (method.toUpperCase() as HttpMethod) : undefined
  if (!verb || !METHODS.includes(verb)) fail(`method must be one of ${METHODS.join(', ')}`)
  const url = resolvePath(path, apiUrl)
  if (input !== undefined && (typeof input !== 'object' || input === null))
    fail('the third argument must be an object: { query?, body? }')
  if (input?.query !== undefined) appendQuery(url, input.query)
  let json: unknown
  if (input?.body !== undefined) {
    if (verb === 'GET')
      fail('body is not allowed with GET (send it with POST, PUT, PATCH or DELETE, or use query)')
    json = jsonBody(input.body)
  }
  return { method: verb, url: url.href, json, endpoint: `${verb} ${path}` }
}

/** `path` below the API base, resolved as `fetch` would; refused when it is not a path or climbs out. */
function resolvePath(path: unknown, apiUrl: string): URL {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    fail(`path must be a string starting with "/", relative to ${API_BASE} (such as "/support/tickets")`)
  }
  if (path.includes('#')) fail('path must not hold a fragment ("#")')
  if (path === API_BASE || path.startsWith(`${API_BASE}/`) || path.startsWith(`${API_BASE}?`)) {
    fail(`path is relative to ${API_BASE}: leave that prefix out ("${path.slice(API_BASE.length) || '/'}")`)
  }
  // The API base's own path: `/api/v1`, or `/prefix/api/v1` under a `baseUrl` with a path.
  const api = new URL(apiUrl)
  const url = new URL(`${apiUrl}${path}`)
  if (url.origin !== api.origin || !url.pathname.startsWith(`${api.pathname}/`)) {
    fail(`path must stay below ${API_BASE}: "${path}" resolves to ${url.pathname}`)
  }
  return url
}

function appendQuery(url: URL, query: unknown): void {
  if (typeof query !== 'object' || query === null || Array.isArray(query)) {
    fail('query must be an object of strings, numbers or booleans')
  }
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue
    const values: readonly unknown[] = Array.isArray(value) ? value : [value]
    for (const one of values) {
      if (
        typeof one !== 'string' &&
        typeof one !== 'boolean' &&
        !(typeof one === 'number' && Number.isFinite(one))
      ) {
        fail(`query.${name} must be a string, a finite number, a boolean or an array of them`)
      }
      url.searchParams.append(name, String(one))
    }
  }
}

/** The body, once it is known to survive `JSON.stringify` as a value. */
function jsonBody(body: unknown): unknown {
  let text: string | undefined
  try {
    text = JSON.stringify(body)
  } catch (error) {
    fail(`body must be JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (text === undefined) fail('body must be JSON: a function or a symbol has no JSON form')
  return body
}
