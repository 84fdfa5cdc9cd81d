/**
 * The request of `api.request`: an endpoint this SDK version does not declare. No schema checks its
 * body or answer; what is checked is what keeps the call inside the API: the method, a path that
 * stays below `/api/v1` once resolved as `fetch` resolves it (dot segments, encoded or not, and
 * backslashes cannot climb out of it), a query of plain values and a body JSON can carry. Anything
 * else is a `TypeError` naming the argument and the rule, before anything is sent.
 */
import type { HttpMethod } from './endpoint.js'
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

function fail(message: string): never {
  throw new TypeError(`api.request: ${message}`)
}

/**
 * Checks the arguments of `api.request` and builds its request below `apiUrl` (`…/api/v1`). A method
 * other than the API's five is refused here (ky would send a method it is not given as a GET); a
 * body with GET, or one JSON cannot write, is refused by `fetch` and `JSON.stringify` themselves,
 * with their own `TypeError`, before anything is sent.
 */
export function prepareRaw(
  method: unknown,
  path: unknown,
  input: RawInput | undefined,
  apiUrl: string,
): Prepared {
  const verb = String(method).toUpperCase() as HttpMethod
  if (!/^(GET|POST|PUT|PATCH|DELETE)$/.test(verb)) fail('method must be GET, POST, PUT, PATCH or DELETE')
  if (typeof path !== 'string' || path[0] !== '/') fail('path must start with "/" (below /api/v1)')
  const api = new URL(apiUrl)
  const url = new URL(apiUrl + path)
  if (url.origin !== api.origin || !url.pathname.startsWith(`${api.pathname}/`) || url.hash) {
    fail(`path must stay below /api/v1, without "#": "${path}" is ${url.pathname}`)
  }
  const { query, body } = input ?? {}
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const one of [value].flat()) {
      if (typeof one === 'object' && one !== null) fail(`query.${name} must be a string, number or boolean`)
      if (one != null) url.searchParams.append(name, String(one))
    }
  }
  return { method: verb, url: url.href, json: body, endpoint: path }
}
