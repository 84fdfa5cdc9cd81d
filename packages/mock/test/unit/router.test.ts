// The route matcher and the Authorization reader of the core: both read every request of the
// standalone server in place, without regular expressions; each must answer exactly as the plain
// rule it replaces (split the path, static routes first, then the first pattern in table order;
// `/^Bearer +(\S+) *$/i`).
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { routes as serviceRoutes } from '../../src/handlers/index.js'
import { bearerKey } from '../../src/routing/core.js'
import { jsonAnswer } from '../../src/routing/reply.js'
import { type HttpMethod, type Route, route } from '../../src/routing/route.js'
import { compileRoutes } from '../../src/routing/router.js'

const ok = () => jsonAnswer(200, '{}')

/** The rule the matcher implements, written the plain way: statics first, then patterns in order. */
function reference(routes: readonly Route[], method: string, rawPath: string) {
  const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath
  const found = routes.find((r) => r.method === method && !r.path.includes('/:') && r.path === path)
  if (found) return { route: found, params: {} }
  const segments = path.split('/')
  for (const r of routes) {
    if (r.method !== method || !r.path.includes('/:')) continue
    const pattern = r.path.split('/')
    if (pattern.length !== segments.length) continue
    if (pattern.some((p, i) => (p.startsWith(':') ? segments[i] === '' : p !== segments[i]))) continue
    const params: Record<string, string> = {}
    for (let i = 0; i < pattern.length; i++) {
      if (!pattern[i]!.startsWith(':')) continue
      try {
        params[pattern[i]!.slice(1)] = decodeURIComponent(segments[i]!)
      } catch {
        return undefined
      }
    }
    return { route: r, params }
  }
  return undefined
}

// Statics that patterns also fit, patterns that overlap each other, in an order where the later
// pattern would also fit: what the table order and the static-first rule decide.
const table: Route[] = [
  route('GET', '/a/:id', {}, ok),
  route('GET', '/a/b/:id', {}, ok),
  route('GET', '/a/:x/c', {}, ok),
  route('GET', '/a/stats', {}, ok),
  route('GET', '/a/b/c', {}, ok),
  route('POST', '/a/:id', {}, ok),
  route('GET', '/', {}, ok),
  route('GET', '/a', {}, ok),
  route('GET', '/:x/:y/:z/d', {}, ok),
  // Later patterns that overlap earlier ones from a longer or shorter opening text: the table order
  // decides, not how much literal text a pattern has.
  route('GET', '/a/:y/:z/d', {}, ok),
  route('GET', '/:x/b/:y', {}, ok),
]

const segment = fc.constantFrom('a', 'b', 'c', 'd', 'stats', '', 'x%20y', '%E0%A4%A', 'ü', 'A')
const paths = fc.array(segment, { maxLength: 5 }).map((parts) => `/${parts.join('/')}`)

describe('the route matcher', () => {
  test('matches as the plain rule does: statics first, then the first pattern in table order', () => {
    const match = compileRoutes(table)
    fc.assert(
      fc.property(fc.constantFrom<HttpMethod>('GET', 'POST'), paths, (method, path) => {
        const got = match(method, path)
        const want = reference(table, method, path)
        expect(got?.route.path).toBe(want?.route.path)
        expect(got?.params).toEqual(want?.params)
      }),
      { numRuns: 3000 },
    )
  })

  test('gives every route of the service its own path back, and static paths to static routes', () => {
    const match = compileRoutes(serviceRoutes)
    for (const r of serviceRoutes) {
      const path = r.path.replace(/:(\w+)/g, 'v-$1')
      expect(match(r.method, path)?.route, `${r.method} ${r.path}`).toBe(
        reference(serviceRoutes, r.method, path)?.route,
      )
    }
    expect(match('GET', '/a/stats')).toBeUndefined()
  })

  test('a static path that a pattern also fits goes to the static route', () => {
    const match = compileRoutes(table)
    expect(match('GET', '/a/stats')?.route.path).toBe('/a/stats')
    expect(match('GET', '/a/stats/')?.route.path).toBe('/a/stats')
    expect(match('GET', '/a/b/c')?.route.path).toBe('/a/b/c')
    expect(match('GET', '/a/b/e')).toMatchObject({ route: { path: '/a/b/:id' }, params: { id: 'e' } })
    expect(match('GET', '/a/x%20y')?.params).toEqual({ id: 'x y' })
    expect(match('GET', '/a/%E0%A4%A')).toBeUndefined()
    expect(match('GET', '/a/')?.route.path).toBe('/a')
  })
})

const BEARER = /^Bearer +(\S+) *$/i

describe('bearerKey', () => {
  const piece = fc.constantFrom(
    'Bearer',
    'bearer',
    'BEARER',
    'Bearer ',
    ' ',
    '  ',
    '\t',
    '\u00a0',
    '\u2003',
    '\n',
    'svc_live_x',
    'k',
    'é',
    '"',
    '~',
    '',
  )
  const header = fc.oneof(
    fc.array(piece, { maxLength: 6 }).map((parts) => parts.join('')),
    // Any code point, lone surrogates included (fast-check's `unit: 'binary'` leaves them out and
    // builds a table of every code point on first use, over a second).
    fc.string({
      unit: fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
      maxLength: 20,
    }),
    fc.string({ maxLength: 20 }).map((s) => `Bearer ${s}`),
  )

  test('reads what /^Bearer +(\\S+) *$/i reads, and refuses what it refuses', () => {
    fc.assert(
      fc.property(header, (value) => {
        expect(bearerKey(value)).toBe(BEARER.exec(value)?.[1])
      }),
      { numRuns: 5000 },
    )
  })

  test('the usual forms', () => {
    expect(bearerKey('Bearer svc_live_abc')).toBe('svc_live_abc')
    expect(bearerKey('bearer   svc_live_abc  ')).toBe('svc_live_abc')
    expect(bearerKey('Bearer a b')).toBeUndefined()
    expect(bearerKey('Bearer ')).toBeUndefined()
    expect(bearerKey('Basic abc')).toBeUndefined()
    expect(bearerKey('Bearer\tabc')).toBeUndefined()
    expect(bearerKey('Bearer clé')).toBe('clé')
  })
})
