/**
 * MSW handlers over the route table: one `http.*` handler per route, bound to the base URL, plus a
 * final catch-all under the base URL answering 404 `not_found`. Each converts the MSW request into a
 * {@link MockRequest} and calls the same core handler as `mock.fetch` and the standalone server, so
 * every way in behaves the same.
 */
import { type HttpHandler, HttpResponse, http } from 'msw'
import { type BaseUrl, pathBelow } from './base-url.js'
import type { Route } from './route.js'
import type { MockHandler } from './types.js'

/** Creates the MSW handlers of a mock. */
export function createMswHandlers(
  routes: readonly Route[],
  base: BaseUrl,
  handle: MockHandler,
): HttpHandler[] {
  const resolver = async ({ request }: { request: Request }) => {
    const url = new URL(request.url)
    const answer = await handle({
      method: request.method.toUpperCase(),
      path: pathBelow(base, url) ?? url.pathname,
      query: url.searchParams,
      search: url.search,
      headers: request.headers,
      body: await request.text(),
    })
    // A `drop` fault: a network error, which the intercepted `fetch` rejects with a TypeError.
    if (answer.noAnswer) return HttpResponse.error()
    return new HttpResponse(answer.body === '' ? null : answer.body, {
      status: answer.status,
      headers: answer.headers,
    })
  }
  const handlers = routes.map((r) => {
    const method = r.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'
    return http[method](`${base.href}${r.path}`, resolver)
  })
  handlers.push(http.all(`${base.href}/*`, resolver))
  return handlers
}
