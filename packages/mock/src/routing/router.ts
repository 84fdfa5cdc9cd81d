/**
 * The route table compiled for matching: static paths in one map lookup, parameterized paths as
 * their literal text between parameters, compared in place (`startsWith` at a position, a
 * parameter running to the next `/`). No regular expression, no `split`, no scan of the whole path
 * and no key string built per request: the standalone server matches every request here.
 */
import type { Route } from './route.js'

/** A route matched by a request, with its decoded path parameters. */
export interface Matched {
  route: Route
  params: Record<string, string>
}

/**
 * A parameterized route: `literals[i]` is the text before parameter `names[i]` (at least the `/`
 * that opens its segment), and the last literal the text after the last parameter (`''` at the end).
 * `/api/v1/webhooks/:id/deliveries` is `['/api/v1/webhooks/', '/deliveries']` around `['id']`.
 */
interface Pattern {
  route: Route
  literals: string[]
  names: string[]
  /** Static paths of the same method this pattern also fits: the static route wins there. */
  shadows: Set<string>
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

/** The pattern of a route path with `:name` segments. */
function patternOf(route: Route): Pattern {
  const literals: string[] = []
  const names: string[] = []
  let text = ''
  for (const segment of route.path.split('/').slice(1)) {
    if (segment.startsWith(':')) {
      literals.push(`${text}/`)
      names.push(segment.slice(1))
      text = ''
    } else text += `/${segment}`
  }
  literals.push(text)
  return { route, literals, names, shadows: new Set() }
}

/**
 * Whether `path` is `pattern` with a non-empty segment in place of each parameter; the parameters'
 * bounds go to `starts` and `ends`.
 */
function fits(pattern: Pattern, path: string, starts: Int32Array, ends: Int32Array): boolean {
  const { literals, names } = pattern
  let pos = 0
  for (let i = 0; i < names.length; i++) {
    const literal = literals[i]!
    if (!path.startsWith(literal, pos)) return false
    pos += literal.length
    let end = path.indexOf('/', pos)
    if (end === -1) end = path.length
    if (end === pos) return false
    starts[i] = pos
    ends[i] = end
    pos = end
  }
  const last = literals[names.length]!
  if (last === '') return pos === path.length
  return path.length - pos === last.length && path.startsWith(last, pos)
}

/** The URI-decoded parameters {@link fits} found; `undefined` on a bad escape. */
function paramsOf(
  pattern: Pattern,
  path: string,
  starts: Int32Array,
  ends: Int32Array,
): Record<string, string> | undefined {
  const params: Record<string, string> = {}
  for (let i = 0; i < pattern.names.length; i++) {
    const raw = path.slice(starts[i]!, ends[i]!)
    try {
      params[pattern.names[i]!] = raw.includes('%') ? decodeURIComponent(raw) : raw
    } catch {
      return undefined
    }
  }
  return params
}

function compile(routes: readonly Route[]): Matcher {
  // Method → path → the match itself: a static route's match is the same object every time.
  const statics = new Map<string, Map<string, Matched>>()
  // Method → its parameterized routes, in table order: the first that fits wins.
  const patterns = new Map<string, Pattern[]>()
  const seen = new Set<string>()
  let most = 0
  for (const route of routes) {
    const signature = `${route.method} ${route.path.replace(/:[^/]+/g, ':')}`
    if (seen.has(signature)) throw new Error(`duplicate route: ${route.method} ${route.path}`)
    seen.add(signature)
    if (!route.path.includes('/:')) {
      let byPath = statics.get(route.method)
      if (!byPath) {
        byPath = new Map()
        statics.set(route.method, byPath)
      }
      byPath.set(route.path, Object.freeze({ route, params: NO_PARAMS }))
      continue
    }
    const pattern = patternOf(route)
    most = Math.max(most, pattern.names.length)
    const list = patterns.get(route.method)
    if (list) list.push(pattern)
    else patterns.set(route.method, [pattern])
  }
  // Where the parameters of the path being matched are: shared by the matches of this table, which
  // run one at a time (synchronously), so that a match allocates nothing until it has found its route.
  const starts = new Int32Array(most)
  const ends = new Int32Array(most)

  // A path that is both a static route and fits a pattern is the static route's (it was looked up
  // first before): each pattern knows the static paths it fits, so that a request whose path fits
  // a pattern needs no lookup by its whole path (hashing a long new string is most of a match).
  for (const [method, byPath] of statics) {
    for (const path of byPath.keys()) {
      for (const pattern of patterns.get(method) ?? []) {
        if (fits(pattern, path, starts, ends)) pattern.shadows.add(path)
      }
    }
  }

  return (method, rawPath) => {
    const path =
      rawPath.length > 1 && rawPath.charCodeAt(rawPath.length - 1) === 47 /* '/' */
        ? rawPath.slice(0, -1)
        : rawPath
    const list = patterns.get(method)
    if (list !== undefined) {
      for (let i = 0; i < list.length; i++) {
        const pattern = list[i]!
        if (!fits(pattern, path, starts, ends)) continue
        if (pattern.shadows.size > 0 && pattern.shadows.has(path)) return statics.get(method)!.get(path)
        const params = paramsOf(pattern, path, starts, ends)
        return params && { route: pattern.route, params }
      }
    }
    return statics.get(method)?.get(path)
  }
}
