/**
 * The inspector of the standalone server (docs/running-the-mock.md, "Inspector"): the page and its
 * assets (server/inspector-page.ts), and `GET /__mock/stream`, a server-sent event stream that says
 * what changed (a committed store change, a journal entry or answer, a fault or clock change; made
 * over HTTP or in-process beside the server) at most every {@link NOTIFY_DEBOUNCE_MS}. Each `change`
 * event carries the counters of the four parts the page shows, so the page reads again only the
 * parts whose counter moved. Nothing here lists the journal or the state: an open page on an idle
 * mock costs a comparison of a few numbers every {@link WATCH_MS}. The delivery stream
 * (`GET /__mock/deliveries/stream`, server/delivery-stream.ts) is served beside it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { MockContext } from '../../context.js'
import type { ServerExtension } from '../http/listen.js'
import { logDeliveries } from './delivery-log.js'
import { createDeliveryStream } from './delivery-stream.js'
import { servePage } from './page.js'

/** Path of the event stream (`POST /__mock/events` is `mock.emit`'s). */
export const STREAM_PATH = '/__mock/stream'
/** Changes closer together than this reach the page as one notice. */
export const NOTIFY_DEBOUNCE_MS = 50
/** A comment line this often keeps proxies and idle timeouts from closing the stream. */
const HEARTBEAT_MS = 15_000
/** How often the counters are compared while a page is connected, for changes made in-process. */
const WATCH_MS = 300
/**
 * The header the page sends with its own reads: the request log leaves them out, since they are
 * the page's traffic and not the user's (docs/spec-decisions.md, "Inspector reads in the request log").
 */
export const INSPECTOR_READ_HEADER = 'x-reseller-mock-inspector'

/**
 * Whether a request is one of the inspector page's own reads (a GET of a control endpoint with its
 * header): the request log stays quiet about them. An API request is never the page's.
 */
export function isInspectorRead(req: IncomingMessage, path: string): boolean {
  return (
    req.method === 'GET' && req.headers[INSPECTOR_READ_HEADER] !== undefined && path.startsWith('/__mock/')
  )
}

/** The counters a `change` event carries: one per part of the page. */
export interface ChangeCounters {
  /** The store's version: state, tickets, webhooks, deliveries. */
  store: number
  /** The journal's revision: an entry recorded or answered, a clear. */
  journal: number
  /** The oldest journal entry kept: the page forgets those before it (cleared, or dropped when full). */
  journal_oldest: string | null
  /** Faults added, removed, used: `id:applied` of each. */
  faults: string
  /** The clock's offset from real time, ms. */
  clock: number
}

/**
 * The inspector of a mock (its context) as a {@link ServerExtension} of its server. With `log` (the
 * server's request log), each webhook delivery attempt is logged too (server/delivery-log.ts).
 * `basePath` is the mock's path on the server (`/ns/worker-3` for a namespace, `''` at the root):
 * the paths the extension is given are below it, the links it writes start with it.
 * `hostsNamespaces`: its page lists the server's namespaces (the standalone server's root).
 */
export function createInspector(
  context: MockContext,
  log?: (line: string) => void,
  basePath = '',
  hostsNamespaces = false,
): ServerExtension {
  const streams = new Set<ServerResponse>()
  const deliveries = createDeliveryStream(context.dispatcher)
  const stopLog = log ? logDeliveries(context.dispatcher, log) : undefined
  let pending: ReturnType<typeof setTimeout> | undefined

  // The fault list is what the user added (a handful): cheap to join.
  const counters = (): ChangeCounters => ({
    store: context.store.version,
    journal: context.journal.revision,
    journal_oldest: context.journal.oldestId(),
    faults: context.faults
      .list()
      .map((f) => `${f.id}:${f.applied}`)
      .join(','),
    clock: context.clock.offsetMs,
  })
  const fingerprint = (c: ChangeCounters) => `${c.store}|${c.journal}|${c.faults}|${c.clock}`
  let shown = ''

  const changeEvent = (c: ChangeCounters) => `event: change\ndata: ${JSON.stringify(c)}\n\n`

  const broadcast = () => {
    pending = undefined
    const now = counters()
    shown = fingerprint(now)
    const message = changeEvent(now)
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
  // mock.faults.add() or mock.clock.advance() beside the server is caught by comparing counters,
  // only while a page is connected.
  const watch = setInterval(() => {
    if (streams.size > 0 && !pending && fingerprint(counters()) !== shown) notify()
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
    const now = counters()
    shown = fingerprint(now)
    res.write(`retry: 1000\n${changeEvent(now)}`)
    streams.add(res)
    req.on('close', () => streams.delete(res))
  }

  return {
    serve(req, res, path) {
      const method = req.method ?? 'GET'
      if (method !== 'GET' && method !== 'HEAD') return false
      if (path === STREAM_PATH && method === 'GET') {
        openStream(req, res)
        return true
      }
      return deliveries.serve(req, res, path) || servePage(req, res, path, basePath, hostsNamespaces)
    },
    quiet: isInspectorRead,
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
      deliveries.close()
      stopLog?.()
    },
  }
}
