/**
 * What the inspector serves besides its event stream (docs/running-the-mock.md, "Inspector"): the
 * page shell at `/__mock/`, its script and style (the package's `dist/inspector/`), its icon
 * (also at `/favicon.ico`, which browsers ask for on their own), and a short page at `/` that points
 * at the API and the inspector.
 */
import { existsSync, readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { fileURLToPath } from 'node:url'
import { TicketStatus } from '@reseller-api/sdk/schemas'

/** Everything the page may load: itself, its own assets and the control endpoints. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * Values the page needs from the SDK's schemas, so that the page restates none of them, and whether
 * the server it comes from hosts namespaces at this mock (the root of the standalone server).
 */
const pageConfig = (namespaces: boolean) =>
  JSON.stringify({ ticket_statuses: TicketStatus.options, namespaces }).replaceAll('<', '\\u003c')

const page = (namespaces: boolean) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>reseller-mock inspector</title>
<link rel="icon" href="inspector/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="inspector/app.css">
<script type="module" src="inspector/app.js"></script>
</head>
<body>
<noscript>The inspector needs JavaScript. The same data is at <a href="state">/__mock/state</a>.</noscript>
<script type="application/json" id="inspector-config">${pageConfig(namespaces)}</script>
<div id="app"></div>
</body>
</html>
`
const PAGE = page(false)
const PAGE_OF_HOST = page(true)

/** The bare base URL: where the API and the inspector are, for a person who opened it in a browser. */
const HOME = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>reseller-mock</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
</head>
<body>
<h1>reseller-mock</h1>
<p>This is the mock of the reseller hosting API.</p>
<ul>
<li>Inspector (state, journal, faults, clock): <a href="/__mock/">/__mock/</a></li>
<li>API: <code>/api/v1/…</code> (SDK <code>baseUrl</code>: this address)</li>
<li>OpenAPI document: <a href="/__mock/openapi.json">/__mock/openapi.json</a></li>
</ul>
</body>
</html>
`

/** The home page of a mock served below `basePath` (a namespace): its links start there. */
function home(basePath: string): string {
  return HOME.replaceAll('href="/__mock/', `href="${basePath}/__mock/`).replace(
    '<h1>reseller-mock</h1>',
    `<h1>reseller-mock: ${basePath.slice(basePath.lastIndexOf('/') + 1)}</h1>`,
  )
}

const HOME_TEXT = `reseller-mock: the mock of the reseller hosting API.
  inspector  /__mock/   (open it in a browser)
  API        /api/v1/…  (SDK baseUrl: this address)
  OpenAPI    /__mock/openapi.json
`

/** A square with the letter R: drawn here so that nothing is loaded from elsewhere. */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#3b5bdb"/><path d="M10 24V8h7a5 5 0 0 1 1 9.9L23 24h-4l-4.4-6H14v6zm4-9.5h3a1.75 1.75 0 0 0 0-3.5h-3z" fill="#fff"/></svg>`

const ASSETS: Record<string, string> = {
  '/__mock/inspector/app.js': 'text/javascript; charset=utf-8',
  '/__mock/inspector/app.css': 'text/css; charset=utf-8',
}

/**
 * The built assets in the package: `dist/inspector/` beside the bundled server, or the package's
 * `dist/` when this module runs from its source (the repository's tests, after `pnpm build`).
 */
function assetDirectory(): string | undefined {
  const candidates = [
    new URL('./inspector/', import.meta.url),
    new URL('../../../dist/inspector/', import.meta.url),
  ]
  for (const candidate of candidates) {
    if (candidate.protocol === 'file:' && existsSync(new URL('app.js', candidate)))
      return fileURLToPath(candidate)
  }
  return undefined
}

/**
 * An asset's bytes: the single executable's own copy (`scripts/build-binary.mjs` embeds
 * `dist/inspector/` as SEA assets, since it has no package folder to read), else the package's file.
 */
function loadAsset(name: string): Buffer | undefined {
  const sea = process.getBuiltinModule('node:sea')
  if (sea?.isSea()) return Buffer.from(sea.getAsset(`inspector/${name}`))
  const dir = assetDirectory()
  return dir === undefined ? undefined : readFileSync(`${dir}/${name}`)
}

let assetCache: Map<string, Buffer> | undefined

function readAsset(path: string): Buffer | undefined {
  assetCache ??= new Map()
  const hit = assetCache.get(path)
  if (hit) return hit
  const body = loadAsset(path.slice('/__mock/inspector/'.length))
  if (body) assetCache.set(path, body)
  return body
}

function sendText(res: ServerResponse, status: number, type: string, body: string | Buffer, head: boolean) {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  })
  res.end(head ? undefined : body)
}

/**
 * Answers a GET or HEAD of the page, its assets, its icon or the home page; `false` for any other
 * path. `path` is below the mock's URL; `basePath` is that URL's path on the server (a namespace's
 * `/ns/{id}`), which the links of the home page and the redirect start with. `hostsNamespaces`: the
 * page lists the server's namespaces (the standalone server's root).
 */
export function servePage(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  basePath = '',
  hostsNamespaces = false,
): boolean {
  const head = req.method === 'HEAD'
  switch (path) {
    case '/__mock':
      res.writeHead(308, { location: `${basePath}/__mock/`, 'content-length': 0 })
      res.end()
      return true
    case '/__mock/':
      sendText(res, 200, 'text/html; charset=utf-8', hostsNamespaces ? PAGE_OF_HOST : PAGE, head)
      return true
    case '':
    case '/':
      if ((req.headers.accept ?? '').includes('text/html'))
        sendText(res, 200, 'text/html; charset=utf-8', basePath === '' ? HOME : home(basePath), head)
      else sendText(res, 200, 'text/plain; charset=utf-8', HOME_TEXT, head)
      return true
    case '/favicon.ico':
    case '/__mock/inspector/icon.svg':
      sendText(res, 200, 'image/svg+xml', ICON, head)
      return true
  }
  const type = ASSETS[path]
  if (!type) return false
  const body = readAsset(path)
  if (body) sendText(res, 200, type, body, head)
  else sendText(res, 404, 'text/plain; charset=utf-8', 'inspector assets not built: run pnpm build\n', head)
  return true
}
