/**
 * Who may talk to the standalone server. A web page the developer visits can reach
 * `127.0.0.1` too: by DNS rebinding (its own name now resolves to 127.0.0.1, so the browser sends
 * the page's `Host`) or by a simple cross-origin request (`text/plain` POST, no preflight). The
 * Host rule stops the first (a page's name is never one of ours), the Origin rule the second, on
 * the control endpoints (they need no key) and on the API (a keyless request costs a journal
 * entry). Checked before anything is served or journaled. See docs/running-the-mock.md, "Safety".
 */
import type { IncomingMessage } from 'node:http'
import { ApiError } from '../../errors.js'
import { renderError } from '../../routing/errors.js'
import type { MockResponse } from '../../routing/types.js'
import { normalizeOrigin, parseAllowedOrigins } from './cors.js'
import { boundHostName, hostName, isLoopbackHost, WILDCARDS } from './host-names.js'

export { boundHostName, hostName, isLoopbackBind, isLoopbackHost } from './host-names.js'

/** What {@link createGuard} needs to know about the server. */
export interface GuardOptions {
  /** The `host` the server was bound to (`127.0.0.1`, `0.0.0.0`, `::`, a name…). */
  boundHost: string
  /** Extra names accepted in `Host` (with or without a port): `--allowed-host`. */
  allowedHosts?: readonly string[]
  /** Origins whose pages are served like the server's own (`--allowed-origin`). */
  allowedOrigins?: readonly string[]
}

/**
 * Refuses a request (the error answer) or lets it through (`undefined`). `authority` is the
 * authority of an absolute-form request target (`GET http://host/path`), judged like `Host`.
 */
export type Guard = (req: IncomingMessage, path: string, authority?: string) => MockResponse | undefined

/** Where a request goes: its path and query, and the authority of an absolute-form target. */
export interface RequestTarget {
  /** Path and query (`/api/v1/…?page=2`). */
  url: string
  /** `host[:port]` of an absolute-form target; absent for the usual origin-form. */
  authority?: string
}

/**
 * Reads a request target (RFC 9112 §3.2): origin-form (`/path?query`) as it is, absolute-form
 * (`http://host/path`) as its path, query and authority; `undefined` for anything else
 * (`*`, another scheme, an unparsable URL), which the server answers with 400.
 */
export function readTarget(raw: string): RequestTarget | undefined {
  if (raw.charCodeAt(0) === 47 /* '/' */) return { url: raw }
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    return undefined
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.host === '') return undefined
  return { url: parsed.pathname + parsed.search, authority: parsed.host }
}

/** How many `Host` header lines the request carried (Node keeps only the first in `headers`). */
function hostLines(req: IncomingMessage): number {
  const raw = req.rawHeaders
  let count = 0
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) count++
  }
  return count
}

/** The addresses of every interface of this machine: "the bound address" of a wildcard bind. */
function interfaceAddresses(): string[] {
  const out: string[] = []
  // node:os loads here, for a wildcard bind only (docs/spec-decisions.md, the server's start).
  const { networkInterfaces } = process.getBuiltinModule('node:os')
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) out.push(entry.address.toLowerCase().replace(/%.*$/, ''))
  }
  return out
}

function refuse(status: number, code: 'forbidden_host' | 'cross_origin', message: string): MockResponse {
  return renderError(new ApiError(status, code, message))
}

/** Builds the check every request of the standalone server passes before it is served. */
export function createGuard(options: GuardOptions): Guard {
  const allowed = new Set<string>()
  for (const name of options.allowedHosts ?? []) {
    const host = hostName(name)
    if (host === null) throw new TypeError(`allowed host ${JSON.stringify(name)} is not a host name`)
    allowed.add(host)
  }
  const bound = boundHostName(options.boundHost)
  // The bound address as written: for a wildcard bind, `0.0.0.0` or `::` is the host of the URL
  // `listen()` answers and the CLI prints, and a rebinding page can only send its own name.
  if (bound !== null) allowed.add(bound)
  if (bound !== null && WILDCARDS.has(bound)) {
    // Bound to every interface: each interface's address is the bound address. Read once: an
    // interface that appears later (a VPN) needs `--allowed-host` or a restart.
    for (const address of interfaceAddresses()) allowed.add(address)
  }

  // Decisions by raw `Host` value: a server sees a handful of them, and parsing one costs ~2 µs
  // (BlockList is a native call). Bounded, so that a flood of made-up names grows nothing.
  const decided = new Map<string, boolean>()
  // The last value decided, in front of the map: a client sends the same Host every time, and
  // comparing it costs less than hashing it.
  let lastHost = ''
  let lastOk = false
  const hostAllowed = (header: string): boolean => {
    if (header === lastHost) return lastOk
    let ok = decided.get(header)
    if (ok === undefined) {
      const host = hostName(header)
      ok = host !== null && (isLoopbackHost(host) || allowed.has(host))
      if (decided.size >= 256) decided.clear()
      decided.set(header, ok)
    }
    lastHost = header
    lastOk = ok
    return ok
  }

  const allowedOrigins = parseAllowedOrigins(options.allowedOrigins)
  const originAllowed = (origin: string, host: string | undefined) => {
    if (sameOrigin(origin, host)) return true
    if (allowedOrigins.size === 0) return false
    const normalized = normalizeOrigin(origin)
    return normalized !== null && allowedOrigins.has(normalized)
  }

  const refuseHost = (value: string, what: string) => {
    const host = hostName(value)
    const shown = value.length > 100 ? `${value.slice(0, 100)}…` : value
    return refuse(
      403,
      'forbidden_host',
      `the ${what} ${JSON.stringify(shown)} is not this server's: use localhost, 127.0.0.1 or [::1], or start the mock with --allowed-host ${host ?? 'NAME'} (DNS-rebinding protection)`,
    )
  }

  return (req, path, authority) => {
    const header = req.headers.host
    if (header === undefined) {
      // RFC 9112 §3.2: an HTTP/1.1 request without Host is malformed. HTTP/1.0 may omit it: no browser does.
      if (req.httpVersion !== '1.0' && req.httpVersion !== '0.9')
        return renderError(new ApiError(400, 'bad_request', 'an HTTP/1.1 request needs a Host header'))
    } else {
      // RFC 9112 §3.2: more than one Host line is malformed; Node keeps the first, a proxy may read the other.
      const lines = hostLines(req)
      if (lines > 1) {
        return renderError(
          new ApiError(
            400,
            'bad_request',
            `the request has ${lines} Host headers; HTTP/1.1 allows exactly one`,
          ),
        )
      }
      if (!hostAllowed(header)) return refuseHost(header, 'Host')
    }
    // An absolute-form target names the host the request is for (RFC 9112 §3.2.2): judged the same way.
    if (authority !== undefined && !hostAllowed(authority))
      return refuseHost(authority, 'request target host')
    const origin = req.headers.origin
    // Only a browser's request carries either: the common request pays no path test.
    const crossSite = origin === undefined && req.headers['sec-fetch-site'] === 'cross-site'
    if (origin === undefined && !crossSite) return undefined
    // A namespace's paths (`/ns/{id}/api/…`, `/ns/{id}/__mock/…`) are guarded as the root's are.
    const own = path.startsWith('/ns/') ? belowNamespace(path) : path
    const api = own.startsWith('/api/')
    if (api || own === '/__mock' || own.startsWith('/__mock/')) {
      const what = api ? 'the API answers' : 'the control endpoints answer'
      const ownHost = authority ?? header
      if (origin !== undefined && !originAllowed(origin, ownHost)) {
        return refuse(
          403,
          'cross_origin',
          `${what} pages of their own origin only (or of an origin given with --allowed-origin); this request came from ${JSON.stringify(origin.slice(0, 100))}`,
        )
      }
      // With an Origin, the rule above decided; without one, the browser's own word counts.
      if (crossSite) {
        return refuse(
          403,
          'cross_origin',
          `${what} pages of their own origin only (or of an origin given with --allowed-origin); this request came from another site`,
        )
      }
    }
    return undefined
  }
}

/** The path below `/ns/{id}`: what the namespace serves it as. */
function belowNamespace(path: string): string {
  const end = path.indexOf('/', 4)
  return end === -1 ? '' : path.slice(end)
}

/**
 * Whether `origin` is this request's own: `http://{Host}` (default port spelled or not), or
 * `https://{Host}` for a page served through a TLS-terminating proxy under an allowed name.
 */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false
  try {
    const from = new URL(origin)
    if (from.protocol === 'https:') return from.host === new URL(`https://${host}`).host
    return from.protocol === 'http:' && from.host === new URL(`http://${host}`).host
  } catch {
    // `Origin: null` (sandboxed frames, file: pages) and anything unparsable.
    return false
  }
}
