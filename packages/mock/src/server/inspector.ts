/**
 * The inspector of the standalone server (contract §6.5): `GET /__mock/` answers a page that shows
 * and drives the running mock, its two assets come from the package's `dist/inspector/`, and
 * `GET /__mock/stream` is a server-sent event stream that says "something changed" (a committed
 * store change, an answered request: a journal entry, a fault or clock change; or the same made
 * in-process beside the server) at most every {@link NOTIFY_DEBOUNCE_MS}. The page then reads the control endpoints again; the stream itself
 * carries no state, so it has nothing to keep in sync with them.
 */
import { existsSync, readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { fileURLToPath } from 'node:url'
import { TicketStatus } from '@reseller-api/sdk/schemas'
import type { MockContext } from '../context.js'
import type { ServerExtension } from './listen.js'

/** Path of the event stream (`POST /__mock/events` is `mock.emit`'s). */
export const STREAM_PATH = '/__mock/stream'
/** Changes closer together than this reach the page as one notice. */
export const NOTIFY_DEBOUNCE_MS = 50
/** A comment line this often keeps proxies and idle timeouts from closing the stream. */
const HEARTBEAT_MS = 15_000

/** Everything the page may load: itself, its own two assets and the control endpoints. */
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

/** Values the page needs from the SDK's schemas, so that the page restates none of them. */
const PAGE_CONFIG = JSON.stringify({ ticket_statuses: TicketStatus.options }).replaceAll('<', '\\u003c')

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>reseller-mock inspector</title>
<link rel="stylesheet" href="inspector/app.css">
<script type="module" src="inspector/app.js"></script>
</head>
<body>
<noscript>The inspector needs JavaScript. The same data is at <a href="state">/__mock/state</a>.</noscript>
<script type="application/json" id="inspector-config">${PAGE_CONFIG}</script>
<div id="app"></div>
</body>
</html>
`

const ASSETS: Record<string, string> = {
  '/__mock/inspector/app.js': 'text/javascript; charset=utf-8',
  '/__mock/inspector/app.css': 'text/css; charset=utf-8',
}

/**
 * The built assets: `dist/inspector/` beside the bundled server in the package, or the package's
 * `dist/` when this module runs from its source (the repository's tests, after `pnpm build`).
 */
function assetDirectory(): string | undefined {
  const candidates = [
    new URL('./inspector/', import.meta.url),
    new URL('../../dist/inspector/', import.meta.url),
  ]
  for (const candidate of candidates) {
    if (candidate.protocol === 'file:' && existsSync(new URL('app.js', candidate)))
      return fileURLToPath(candidate)
  }
  return undefined
}

let assetCache: Map<string, Buffer> | undefined

function readAsset(path: string): Buffer | undefined {
  assetCache ??= new Map()
  const hit = assetCache.get(path)
  if (hit) return hit
  const dir = assetDirectory()
  if (!dir) return undefined
  const body = readFileSync(`${dir}/${path.slice('/__mock/inspector/'.length)}`)
  assetCache.set(path, body)
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

/** How often the open page's view is compared with the mock, for changes made in-process. */
const WATCH_MS = 300

/** The inspector of a mock (its context) as a {@link ServerExtension} of its server. */
export function createInspector(context: MockContext): ServerExtension {
  const streams = new Set<ServerResponse>()
  let pending: ReturnType<typeof setTimeout> | undefined

  /**
   * What the page shows, in a few values: the store's version, the clock, the newest journal entry
   * (with its status, filled in when the answer is ready) and the faults (with their use counts).
   */
  const fingerprint = (): string => {
    const last = context.journal.limit > 0 ? context.journal.list().at(-1) : undefined
    const faults = context.faults.list().map((f) => `${f.id}:${f.applied}`)
    return `${context.store.version}|${context.clock.offsetMs}|${last?.id}:${last?.status}|${faults.join(',')}`
  }
  let shown = ''

  const broadcast = () => {
    pending = undefined
    shown = fingerprint()
    const message = `event: change\ndata: ${JSON.stringify({ version: context.store.version, offset_ms: context.clock.offsetMs })}\n\n`
    for (const res of streams) res.write(message)
  }
  const notify = () => {
    if (streams.size === 0 || pending) return
    pending = setTimeout(broadcast, NOTIFY_DEBOUNCE_MS)
    pending.unref?.()
  }
  // Committed store changes (requests, delivery attempts, in-process calls) are heard at once.
  const unsubscribe = context.store.onChange(notify)
  // The journal, the faults and the clock have no change events: a test that calls mock.fetch,
  // mock.faults.add() or mock.clock.advance() beside the server is caught by comparing, only while
  // a page is connected.
  const watch = setInterval(() => {
    if (streams.size > 0 && !pending && fingerprint() !== shown) notify()
  }, WATCH_MS)
  watch.unref?.()
  const heartbeat = setInterval(() => {
    for (const res of streams) res.write(': keep-alive\n\n')
  }, HEARTBEAT_MS)
  heartbeat.unref?.()

  const openStream = (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    })
    // The page reconnects after a second when the server restarts; it reads everything on open.
    shown = fingerprint()
    res.write(`retry: 1000\nevent: change\ndata: ${JSON.stringify({ version: context.store.version })}\n\n`)
    streams.add(res)
    req.on('close', () => streams.delete(res))
  }

  return {
    serve(req, res, path) {
      const method = req.method ?? 'GET'
      if (method !== 'GET' && method !== 'HEAD') return false
      const head = method === 'HEAD'
      if (path === '/__mock') {
        res.writeHead(308, { location: '/__mock/', 'content-length': 0 })
        res.end()
        return true
      }
      if (path === '/__mock/') {
        sendText(res, 200, 'text/html; charset=utf-8', PAGE, head)
        return true
      }
      const type = ASSETS[path]
      if (type) {
        const body = readAsset(path)
        if (body) sendText(res, 200, type, body, head)
        else
          sendText(
            res,
            404,
            'text/plain; charset=utf-8',
            'inspector assets not built: run pnpm build\n',
            head,
          )
        return true
      }
      if (path === STREAM_PATH && !head) {
        openStream(req, res)
        return true
      }
      return false
    },
    // API requests are journaled; a control request other than a read may change anything. The
    // page's own reads (GET /__mock/…) change nothing: notifying them would loop.
    answered(method, path) {
      if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') {
        if (path.startsWith('/__mock/') || path === '/__mock') return
      }
      notify()
    },
    close() {
      unsubscribe()
      clearInterval(watch)
      clearInterval(heartbeat)
      if (pending) clearTimeout(pending)
      for (const res of streams) res.end()
      streams.clear()
    },
  }
}
