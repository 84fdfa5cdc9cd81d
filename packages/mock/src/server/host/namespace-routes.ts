/**
 * The root's namespace endpoints (`/__mock/namespaces`, declared in `control/operations.ts`), as
 * routes of a small table of their own over the registry: the server answers them in front of the
 * root mock's table (`namespaceAnswer`), so an in-process mock, which hosts no namespace, does not
 * serve them. Bodies are read and refused (415, 422) as every control endpoint's are.
 */
import { describeFieldErrors, type FieldErrors } from '@reseller-api/sdk/schemas'
import type { MockContext } from '../../context.js'
import { control } from '../../control/operations.js'
import { NAMESPACE_TTL, NamespaceCreateBody, NamespaceId } from '../../control/schemas.js'
import { errors, isApiError } from '../../errors.js'
import { createHandle } from '../../routing/core.js'
import { type Call, type Route, route } from '../../routing/route.js'
import type { CoreHandler, MockRequest } from '../../routing/types.js'
import { parseSeed, SeedError, type SeedInput } from '../../seed/schema.js'
import { keysOf } from './hosted-mock.js'
import { type Namespace, type NamespaceRegistry, namespaceNotFound } from './namespaces.js'

/** `/__mock/namespaces`, and below it. */
const NAMESPACES_PATH = control.namespaces.list.path

/** Whether a root request is one of the namespace endpoints'. */
function isNamespacesPath(path: string): boolean {
  return (
    path.startsWith(NAMESPACES_PATH) &&
    (path.length === NAMESPACES_PATH.length || path[NAMESPACES_PATH.length] === '/')
  )
}

/** `http://HOST:PORT/ns/{id}`, with the host and port the request came to. */
function urlOf(request: MockRequest, id: string, serverUrl: string): string {
  const host = request.headers.get('host')
  return `${host ? `http://${host}` : serverUrl}/ns/${id}`
}

const iso = (ms: number) => new Date(ms).toISOString()

/** A namespace as the list and `GET` answer it. */
function view(namespace: Namespace, request: MockRequest, serverUrl: string) {
  const { record } = namespace
  return {
    id: record.id,
    url: urlOf(request, record.id, serverUrl),
    label: record.label,
    created_at: iso(record.createdAtMs),
    expires_at: iso(record.expiresAtMs),
    requests: namespace.requests,
  }
}

/**
 * The body of a creation, checked: the body's own rules and the seed's (a seed file's rules, named
 * under `seed`), every problem in one 422.
 */
function readCreation(call: Call) {
  let fields: FieldErrors = {}
  let body: ReturnType<typeof NamespaceCreateBody.parse> = {}
  try {
    body = call.body(NamespaceCreateBody, { optional: true }) as typeof body
  } catch (error) {
    if (!isApiError(error) || error.code !== 'validation_error' || !error.fields) throw error
    fields = { ...error.fields }
  }
  // A body that is no JSON object (or nests too deep) is refused as it is: its seed is not looked at.
  const raw = Object.hasOwn(fields, 'body') ? undefined : parsedBody(call)
  const seed = typeof raw === 'object' && raw !== null ? (raw as { seed?: unknown }).seed : undefined
  if (seed !== undefined && seed !== null) {
    try {
      parseSeed(seed)
    } catch (error) {
      if (!(error instanceof SeedError)) throw error
      // The body's rule for `seed` (an object) says less than the seed's own rules.
      const named = Object.entries(fields).filter(([field]) => field !== 'seed')
      for (const issue of error.issues) {
        // The seed as a whole is named `(seed)` in a seed file's issues.
        const field = issue.path === '' || issue.path.startsWith('(') ? 'seed' : `seed.${issue.path}`
        named.push([field, [...(named.find(([f]) => f === field)?.[1] ?? []), issue.message]])
      }
      fields = Object.fromEntries(named)
    }
  }
  if (Object.keys(fields).length > 0)
    throw errors.validation(fields, `invalid namespace: ${describeFieldErrors(fields)}`)
  return body
}

/** The body as JSON (already known to parse: `call.body` read it first), or `undefined`. */
function parsedBody(call: Call): unknown {
  try {
    return call.request.body.trim() === '' ? undefined : JSON.parse(call.request.body)
  } catch {
    return undefined
  }
}

/** The routes of the namespace endpoints over `registry`. */
function namespaceRoutes(registry: NamespaceRegistry, serverUrl: () => string): Route[] {
  const find = (call: Call) => {
    const id = call.params.id!
    const namespace = NamespaceId.safeParse(id).success ? registry.get(id) : undefined
    if (!namespace) throw namespaceNotFound(id)
    return namespace
  }
  return [
    route(
      control.namespaces.create,
      (call) => {
        const body = readCreation(call as unknown as Call)
        const namespace = registry.create({
          id: body.id ?? undefined,
          seed: (body.seed ?? undefined) as SeedInput | undefined,
          randomSeed: body.random_seed ?? undefined,
          ttlSeconds: body.ttl_seconds ?? NAMESPACE_TTL.default,
          label: body.label ?? undefined,
        })
        const { record } = namespace
        return call.answer({
          id: record.id,
          url: urlOf(call.request, record.id, serverUrl()),
          keys: keysOf(namespace.mock.context.store),
          label: record.label,
          created_at: iso(record.createdAtMs),
          expires_at: iso(record.expiresAtMs),
        })
      },
      { transaction: false },
    ),
    route(control.namespaces.list, (call) =>
      call.answer(registry.list().map((namespace) => view(namespace, call.request, serverUrl()))),
    ),
    route(control.namespaces.get, (call) =>
      call.answer(view(find(call as unknown as Call), call.request, serverUrl())),
    ),
    route(
      control.namespaces.delete,
      (call) => {
        const namespace = find(call as unknown as Call)
        registry.delete(namespace.record.id)
        return call.answer({ id: namespace.record.id, deleted: true })
      },
      { transaction: false },
    ),
    route(control.namespaces.clear, (call) => call.answer({ deleted: registry.clear() }), {
      transaction: false,
    }),
  ]
}

/**
 * The root's handler: the namespace endpoints over `registry`, every other request to the root
 * mock's own `answer`. `serverUrl` is the URL a request without `Host` names (HTTP/1.0).
 */
export function namespaceAnswer(
  root: { context: MockContext; answer: CoreHandler },
  registry: NamespaceRegistry,
  serverUrl: () => string,
): CoreHandler {
  const answerNamespaces = createHandle(namespaceRoutes(registry, serverUrl), root.context)
  const answerRoot = root.answer
  return (request) => (isNamespacesPath(request.path) ? answerNamespaces(request) : answerRoot(request))
}
