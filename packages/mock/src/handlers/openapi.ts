/**
 * `GET /__mock/openapi.json`: the service's OpenAPI document (`@reseller-api/sdk/openapi.json`)
 * with the mock's control endpoints added (`openapi/served.ts`), and `servers` set to the mock that
 * answers, so that Postman, Insomnia or Prism can be pointed at the running mock's URL. The raw
 * document, not the envelope: tools read it as it is.
 *
 * The document is built on the first request, in a chunk the build splits off (the SDK's document
 * is inlined there, `noExternal` in tsup.config.ts): browser and Workers bundles get plain
 * JavaScript, and nobody loads 100 KiB of JSON who never asks for it.
 */
import { control } from '../control/operations.js'
import { jsonAnswer } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'

let document: Promise<Record<string, unknown>> | undefined

function load(): Promise<Record<string, unknown>> {
  document ??= import('../openapi/served.js').then((module) => module.servedDocument())
  return document
}

/** The URL the caller reached the mock at: the standalone server's `Host`, or the mock's base URL. */
function serverUrl(baseUrl: string, host: string | null): string {
  const base = new URL(baseUrl)
  if (host === null || host === base.host) return baseUrl
  return `http://${host}${base.pathname === '/' ? '' : base.pathname}`
}

export const openApiRoutes: Route[] = [
  route(control.meta.openapi, async (call) => {
    const { servers: _servers, ...rest } = await load()
    const url = serverUrl(call.mock.baseUrl, call.request.headers.get('host'))
    return jsonAnswer(
      control.meta.openapi.status,
      JSON.stringify({ ...rest, servers: [{ url, description: 'This mock' }] }),
    )
  }),
]
