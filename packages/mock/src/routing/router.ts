/**
 * The route table compiled for matching: static paths in one map lookup, parameterized paths by
 * method and segment count, compared segment by segment in place. No regular expression, no
 * `split` and no key string built per request: the standalone server matches every request here.
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

/**
 * Where the slashes of the path being matched are: filled by {@link findSlashes}, read by
 * {@link fits} and {@link paramsOf} within one (synchronous) match. Shared, so a match allocates
 * nothing until it has found its route.
 */
let slashes = new Int32Array(32)

/** Records the positions of the slashes of `path`; returns how many segments `split('/')` would give. */
function findSlashes(path: string): number {
  let count = 0
  for (let i = 0; i < path.length; i++) {
    if (path.charCodeAt(i) !== 47 /* '/' */) continue
    if (count === slashes.length) {
      const grown = new Int32Array(count * 2)
      grown.set(slashes)
      slashes = grown
    }
    slashes[count++] = i
  }
  return count + 1
}

/** Start of segment `i` of the path {@link findSlashes} read. */
const segmentStart = (i: number) => (i === 0 ? 0 : slashes[i - 1]! + 1)
/** End (exclusive) of segment `i` of the path {@link findSlashes} read, `count` segments long. */
const segmentEnd = (i: number, count: number, path: string) => (i === count - 1 ? path.length : slashes[i]!)

/**
 * Whether `path` (read by {@link findSlashes}, `count` segments) has every literal segment of
 * `pattern` and no empty parameter. Compared in place, character by character.
 */
function fits(pattern: Pattern, path: string, count: number): boolean {
  for (let i = 0; i < count; i++) {
    const start = segmentStart(i)
    const end = segmentEnd(i, count, path)
    const literal = pattern.literals[i]
    if (literal === undefined) {
      if (end === start) return false
      continue
    }
    if (end - start !== literal.length) return false
    for (let k = 0; k < literal.length; k++) {
      if (path.charCodeAt(start + k) !== literal.charCodeAt(k)) return false
    }
  }
  return true
}

/** The URI-decoded parameters of `path`, which {@link fits} `pattern`; `undefined` on a bad escape. */
function paramsOf(pattern: Pattern, path: string, count: number): Record<string, string> | undefined {
  const params: Record<string, string> = {}
  for (let i = 0; i < count; i++) {
    const name = pattern.names[i]
    if (name === undefined) continue
    const raw = path.slice(segmentStart(i), segmentEnd(i, count, path))
    try {
      params[name] = raw.includes('%') ? decodeURIComponent(raw) : raw
    } catch {
      return undefined
    }
  }
  return params
}

function compile(routes: readonly Route[]): Matcher {
  // Method → path → the match itself: a static route's match is the same object every time.
  const statics = new Map<string, Map<string, Matched>>()
  const patterns = new Map<string, Map<number, Pattern[]>>()
  const seen = new Set<string>()
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
    const segments = route.path.split('/')
    const pattern: Pattern = {
      route,
      literals: segments.map((s) => (s.startsWith(':') ? undefined : s)),
      names: segments.map((s) => (s.startsWith(':') ? s.slice(1) : undefined)),
      shadows: new Set(),
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

  // A path that is both a static route and fits a pattern is the static route's (it was looked up
  // first before): each pattern knows the static paths it fits, so that a request whose path fits
  // a pattern needs no lookup by its whole path (hashing a long new string is most of a match).
  for (const [method, byPath] of statics) {
    for (const path of byPath.keys()) {
      const count = findSlashes(path)
      for (const pattern of patterns.get(method)?.get(count) ?? []) {
        if (fits(pattern, path, count)) pattern.shadows.add(path)
      }
    }
  }

  return (method, rawPath) => {
    const path =
      rawPath.length > 1 && rawPath.charCodeAt(rawPath.length - 1) === 47 /* '/' */
        ? rawPath.slice(0, -1)
        : rawPath
    const count = findSlashes(path)
    const list = patterns.get(method)?.get(count)
    if (list !== undefined) {
      for (const pattern of list) {
        if (!fits(pattern, path, count)) continue
        if (pattern.shadows.size > 0 && pattern.shadows.has(path)) return statics.get(method)!.get(path)
        const params = paramsOf(pattern, path, count)
        return params && { route: pattern.route, params }
      }
    }
    return statics.get(method)?.get(path)
  }
}
