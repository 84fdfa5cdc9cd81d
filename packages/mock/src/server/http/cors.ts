/**
 * Pages of other origins the developer trusts (`--allowed-origin`, `allowedOrigins`): the guard
 * serves their requests, and the server answers them as CORS asks (a preflight, then
 * `Access-Control-Allow-Origin` on every answer), so that a browser app on a dev server of its own
 * (`http://localhost:5173`) can call the standalone mock directly. No other origin gets a CORS
 * header. See docs/running-the-mock.md, "Safety".
 */
import type { IncomingMessage } from 'node:http'
import type { MockResponse } from '../../routing/types.js'

/**
 * `value` as an origin (`scheme://host[:port]`, lower case, default port left out), or `null`
 * when it is not one: a path, a query or `null` make it something else.
 */
export function normalizeOrigin(value: string): string | null {
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  // `http://app.test/` parses to the same origin as `http://app.test`; anything more is not an origin.
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return null
  return url.origin
}

/** The allowed origins, normalized; throws a `TypeError` naming a value that is not an origin. */
export function parseAllowedOrigins(values: readonly string[] = []): ReadonlySet<string> {
  const out = new Set<string>()
  for (const value of values) {
    const origin = normalizeOrigin(value)
    if (origin === null) {
      throw new TypeError(
        `allowed origin ${JSON.stringify(value)} is not an origin: expected scheme://host[:port], such as http://localhost:5173`,
      )
    }
    out.add(origin)
  }
  return out
}

/** Headers a page's script may read from an answer besides the CORS-safelisted ones. */
const EXPOSED = 'x-request-id, retry-after, deprecation, link, x-mock-deliveries'
const METHODS = 'GET, POST, PUT, PATCH, DELETE'
/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600'

/** CORS for the allowed origins: the headers of an answer, and the answer to a preflight. */
export interface Cors {
  /** The CORS headers for `req`'s answer, or `undefined` when its `Origin` is not an allowed one. */
  headersFor(req: IncomingMessage): Record<string, string> | undefined
  /** Whether `req` is a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`). */
  isPreflight(req: IncomingMessage): boolean
  /** The answer to a preflight of an allowed origin: 204, methods and the headers asked for. */
  preflight(req: IncomingMessage, headers: Record<string, string>): MockResponse
}

/** Builds the CORS answers for `allowed` origins (normalized by {@link parseAllowedOrigins}). */
export function createCors(allowed: ReadonlySet<string>): Cors {
  return {
    headersFor(req) {
      if (allowed.size === 0) return undefined
      const origin = req.headers.origin
      if (origin === undefined) return undefined
      const normalized = normalizeOrigin(origin)
      if (normalized === null || !allowed.has(normalized)) return undefined
      return {
        'access-control-allow-origin': origin,
        'access-control-expose-headers': EXPOSED,
        vary: 'Origin',
      }
    },
    isPreflight(req) {
      return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined
    },
    preflight(req, headers) {
      const asked = req.headers['access-control-request-headers']
      const answer: Record<string, string> = {
        ...headers,
        'access-control-allow-methods': METHODS,
        'access-control-max-age': PREFLIGHT_MAX_AGE,
      }
      // Any header the page asks for (Authorization, Content-Type, Idempotency-Key…).
      if (asked !== undefined && asked !== '') answer['access-control-allow-headers'] = asked
      return { status: 204, headers: answer, body: '' }
    },
  }
}
