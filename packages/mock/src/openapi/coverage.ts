/**
 * The route table against the documents: every service operation the SDK declares is answered by
 * exactly one route bound to it, every `/api/` route is bound to a declaration, and every control
 * route has its text in `control-operations.ts` (and every text a route). Checked by
 * `test/api/openapi.test.ts`: a declaration without a handler, or a route without a declaration or
 * a text, fails it, naming them.
 */
import { type AnyEndpoint, operations } from '@reseller-api/sdk/schemas'
import type { Route } from '../routing/route.js'
import { type ControlText, controlOperations } from './control-operations.js'

/** The SDK's declarations, by `area.key`. */
function declarationsOf(areas: Record<string, Record<string, AnyEndpoint>>): Map<AnyEndpoint, string> {
  const out = new Map<AnyEndpoint, string>()
  for (const [area, declarations] of Object.entries(areas))
    for (const [key, declaration] of Object.entries(declarations)) out.set(declaration, `${area}.${key}`)
  return out
}

/** What is wrong with `routes` against the declarations and the control texts; `[]` when nothing. */
export function routeTableProblems(
  routes: readonly Route[],
  areas: Record<string, Record<string, AnyEndpoint>> = operations,
  texts: Record<string, ControlText> = controlOperations,
): string[] {
  const problems: string[] = []
  const declarations = declarationsOf(areas)
  const bound = new Map<AnyEndpoint, number>()
  const documented = new Set<string>()
  for (const route of routes) {
    const key = `${route.method} ${route.path}`
    if (route.operation) {
      if (!declarations.has(route.operation))
        problems.push(`${key} is bound to an operation the SDK does not list`)
      bound.set(route.operation, (bound.get(route.operation) ?? 0) + 1)
    } else if (route.path.startsWith('/api/')) {
      problems.push(`${key} is not bound to a declaration of the SDK (route(operations.area.name, …))`)
    } else if (!(key in texts)) {
      problems.push(`${key} has no text in openapi/control-operations.ts`)
    } else documented.add(key)
  }
  for (const [declaration, name] of declarations) {
    const count = bound.get(declaration) ?? 0
    if (count !== 1) problems.push(`operations.${name} is answered by ${count} routes, not 1`)
  }
  for (const key of Object.keys(texts))
    if (!documented.has(key)) problems.push(`openapi/control-operations.ts: ${key} names no route`)
  return problems
}
