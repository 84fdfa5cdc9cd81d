/**
 * Which mock a request is for: the root's paths go to the root mock; `/ns/{id}/…` goes to the
 * namespace `id`, with the prefix taken off, so the namespace sees the request as a root mock sees
 * its own (`/api/v1/…`, `/__mock/…`). A path that could leave the namespace it names (a `.` or
 * `..` segment, an encoded `/` or `\`, a nested `/ns/`) is answered 404 here and reaches no mock.
 */
import { ApiError } from '../../errors.js'
import { renderError } from '../../routing/errors.js'
import type { MockResponse } from '../../routing/types.js'
import type { HostRouter, RoutedRequest } from '../http/listen.js'
import { type Namespace, type NamespaceRegistry, namespaceNotFound } from './namespaces.js'

/** Where namespaces live on the server. */
export const NAMESPACE_PREFIX = '/ns/'

/** A segment `.` or `..`, as written or percent-encoded, or an encoded slash or backslash. */
const ESCAPING = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)|%2f|%5c|\\/i

/** The namespace id of a path under {@link NAMESPACE_PREFIX}, and what follows it. */
export function splitNamespacePath(path: string): { id: string; rest: string } {
  const end = path.indexOf('/', NAMESPACE_PREFIX.length)
  return end === -1
    ? { id: path.slice(NAMESPACE_PREFIX.length), rest: '' }
    : { id: path.slice(NAMESPACE_PREFIX.length, end), rest: path.slice(end) }
}

/** The router of a server hosting `registry`'s namespaces beside its root mock. */
export function createHostRouter(registry: NamespaceRegistry): HostRouter {
  /** What the server needs of each namespace, made once per namespace. */
  const routes = new WeakMap<Namespace, Omit<RoutedRequest, 'path'>>()
  const routeOf = (namespace: Namespace) => {
    let routed = routes.get(namespace)
    if (!routed) {
      const { mock } = namespace
      routed = {
        handle: mock.answer,
        extension: mock.extension,
        logPrefix: `[${namespace.record.id}] `,
        answered(path: string) {
          if (path.startsWith('/api/')) namespace.requests++
        },
      }
      routes.set(namespace, routed)
    }
    return routed
  }
  return (path) => {
    if (!path.startsWith(NAMESPACE_PREFIX)) return path === '/ns' ? refuse(path) : undefined
    const { id, rest } = splitNamespacePath(path)
    if (id === '') return refuse(path)
    const namespace = registry.get(id)
    if (!namespace) return renderError(namespaceNotFound(decodeShown(id)))
    // Nothing under one namespace names another, nor the root.
    if (rest === '/ns' || rest.startsWith(NAMESPACE_PREFIX) || ESCAPING.test(rest)) return refuse(path)
    registry.touch(namespace)
    return { ...routeOf(namespace), path: rest === '' ? '/' : rest }
  }
}

/** 404 `not_found` for a path no mock serves. */
function refuse(path: string): MockResponse {
  return renderError(
    new ApiError(
      404,
      'not_found',
      `no such path: ${path.length > 200 ? `${path.slice(0, 200)}…` : path} (a namespace's paths are /ns/{id}/api/… and /ns/{id}/__mock/…; namespaces do not nest)`,
    ),
  )
}

/** An id as the message shows it: decoded where it decodes. */
function decodeShown(id: string): string {
  const shown = id.length > 100 ? `${id.slice(0, 100)}…` : id
  try {
    return decodeURIComponent(shown)
  } catch {
    return shown
  }
}
