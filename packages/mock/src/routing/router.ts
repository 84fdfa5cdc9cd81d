/**
 * The route table compiled for matching: static paths in one map lookup, parameterized paths by
 * method and segment count, compared segment by segment. No regular expression per request.
 */
import type { Route } from './route.js'

/** A route matched by a request, with its decoded path parameters. */
export interface Matched {
  route: Route
  params: Record<string, string>
}

interface Pattern {
  route: Route
  /** Literal segments, `undefined` where a parameter sits. */
  literals: (string | undefined)[]
  /** Parameter names by segment index. */
  names: (string | undefined)[]
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>

/** A compiled route table: the request's method and path → the matched route, or `undefined`. */
type Matcher = (method: string, path: string) => Matched | undefined

/** Matchers by route table: every mock shares the one compiled for the module's route list. */
const compiled = new WeakMap<readonly Route[], Matcher>()

/** Compiles `routes` into a matcher (once per array); throws on two routes with the same method and pattern. */
export function compileRoutes(routes: readonly Route[]): Matcher {
  let matcher = compiled.get(routes)
  if (!matcher) {
    matcher = compile(routes)
    compiled.set(routes, matcher)
  }
  return matcher
}

function compile(routes: readonly Route[]): Matcher {
  const statics = new Map<string, Route>()
  const patterns = new Map<string, Map<number, Pattern[]>>()
  const seen = new Set<string>()
  for (const route of routes) {
    const signature = `${route.method} ${route.path.replace(/:[^/]+/g, ':')}`
    if (seen.has(signature)) throw new Error(`duplicate route: ${route.method} ${route.path}`)
    seen.add(signature)
    if (!route.path.includes('/:')) {
      statics.set(`${route.method} ${route.path}`, route)
      continue
    }
    const segments = route.path.split('/')
    const pattern: Pattern = {
      route,
      literals: segments.map((s) => (s.startsWith(':') ? undefined : s)),
      names: segments.map((s) => (s.startsWith(':') ? s.slice(1) : undefined)),
    }
    let byLength = patterns.get(route.method)
    if (!byLength) {
      byLength = new Map()
      patterns.set(route.method, byLength)
    }
    const list = byLength.get(segments.length)
    if (list) list.push(pattern)
    else byLength.set(segments.length, [pattern])
  }

  return (method, rawPath) => {
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath
    const found = statics.get(`${method} ${path}`)
    if (found) return { route: found, params: NO_PARAMS }
    const candidates = patterns.get(method)
    if (!candidates) return undefined
    const segments = path.split('/')
    const list = candidates.get(segments.length)
    if (!list) return undefined
    outer: for (const pattern of list) {
      for (let i = 0; i < segments.length; i++) {
        const literal = pattern.literals[i]
        if (literal !== undefined && literal !== segments[i]) continue outer
      }
      const params: Record<string, string> = {}
      for (let i = 0; i < segments.length; i++) {
        const name = pattern.names[i]
        if (name === undefined) continue
        const raw = segments[i]!
        if (raw === '') continue outer
        try {
          params[name] = decodeURIComponent(raw)
        } catch {
          return undefined
        }
      }
      return { route: pattern.route, params }
    }
    return undefined
  }
}
