/**
 * The route table against the declarations: every service operation the SDK declares, and every
 * control endpoint the mock declares (but the standalone server's own), is answered by exactly one
 * route bound to it, and every route is bound to a declaration. Checked by
 * `test/api/openapi-routes.test.ts`: a declaration without a handler, or a route without a
 * declaration, fails it, naming them. (A control declaration without its text does not compile:
 * `control-texts.ts`.)
 */
import { type AnyEndpoint, operations } from '@reseller-api/sdk/schemas'
import type { AnyControlEndpoint } from '../control/endpoint.js'
import { control } from '../control/operations.js'
import type { Route } from '../routing/route.js'

type Declaration = AnyEndpoint | AnyControlEndpoint

/** Declarations by `prefix.area.key`. */
function declarationsOf(
  prefix: string,
  areas: Record<string, Record<string, Declaration>>,
  into: Map<Declaration, string>,
) {
  for (const [area, declarations] of Object.entries(areas))
    for (const [key, declaration] of Object.entries(declarations))
      into.set(declaration, `${prefix}.${area}.${key}`)
}

/** What is wrong with `routes` against the SDK's declarations and the control declarations; `[]` when nothing. */
export function routeTableProblems(
  routes: readonly Route[],
  areas: Record<string, Record<string, AnyEndpoint>> = operations,
  controlAreas: Record<string, Record<string, AnyControlEndpoint>> = control,
): string[] {
  const problems: string[] = []
  const declarations = new Map<Declaration, string>()
  declarationsOf('operations', areas, declarations)
  declarationsOf('control', controlAreas, declarations)
  const bound = new Map<Declaration, number>()
  for (const route of routes) {
    const key = `${route.method} ${route.path}`
    if (!route.operation) {
      problems.push(
        route.path.startsWith('/api/')
          ? `${key} is not bound to a declaration of the SDK (route(operations.area.name, …))`
          : `${key} is not bound to a control declaration (route(control.area.name, …), control/operations.ts)`,
      )
    } else if (!declarations.has(route.operation)) {
      problems.push(
        `${key} is bound to a declaration ${route.path.startsWith('/api/') ? 'the SDK' : 'control/operations.ts'} does not list`,
      )
    } else bound.set(route.operation, (bound.get(route.operation) ?? 0) + 1)
  }
  for (const [declaration, name] of declarations) {
    const count = bound.get(declaration) ?? 0
    // The standalone server answers its own endpoints in front of the route table.
    const expected = 'servedBy' in declaration && declaration.servedBy === 'server' ? 0 : 1
    if (count !== expected) problems.push(`${name} is answered by ${count} routes, not ${expected}`)
  }
  return problems
}
