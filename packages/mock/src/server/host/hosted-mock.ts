/**
 * One mock as the standalone server hosts it: the root mock or a namespace. What is the mock's own
 * (store, clock, journal, faults, dispatcher, ids) lives in its context; here it gets what the server
 * gives each mock it serves: its webhook deliveries' `fetch`, its lines in the request log, and its
 * inspector (page and streams) at its own path. See `ARCHITECTURE.md`, "Namespaces".
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { MockContext } from '../../context.js'
import { control } from '../../control/operations.js'
import type { AssembledMock } from '../../mock-api.js'
import type { CoreHandler } from '../../routing/types.js'
import type { Store } from '../../state/store.js'
import type { ServerExtension } from '../http/listen.js'
import { publicFetch } from '../http/public-fetch.js'
import { logDeliveries } from '../inspector/delivery-log.js'
import { createInspector, isInspectorRead, STREAM_PATH } from '../inspector/extension.js'

/** An API key of a mock, as the CLI prints it (and `POST /__mock/namespaces` answers it). */
export interface KeyInfo {
  key: string
  mode: 'live' | 'sandbox'
  scopes: string[]
  reseller_id: number
  reseller: string
}

/** Every API key of `store`, as the CLI prints them. */
export function keysOf(store: Store): KeyInfo[] {
  return Array.from(store.apiKeys.all(), (k) => ({
    key: k.key,
    mode: k.mode,
    scopes: [...k.scopes],
    reseller_id: k.reseller_id,
    reseller: store.resellers.get(k.reseller_id)?.name ?? '',
  }))
}

/** What the server gives a mock it hosts. */
export interface HostSettings {
  /** General webhooks may target anything; deliveries use the global `fetch`. */
  insecureWebhooks: boolean
  /** The server listens on a non-loopback address: reseller webhooks follow the general policy. */
  servedOnNetwork: boolean
  /** The request log; the mock's delivery attempts are written there too. */
  log?: (line: string) => void
  /** The mock's path on the server: `''` at the root, `/ns/{id}` for a namespace. */
  basePath: string
  /** Its lines' prefix in the request log: `''` at the root, `[id] ` for a namespace. */
  logPrefix: string
  /**
   * The inspector is made when first asked for (a namespace: most never open it, and an idle one
   * then costs no timer); otherwise at once (the root).
   */
  lazyInspector: boolean
  /** Makes a delivery attempt's change durable (the state file); rejects when the write fails. */
  persist?: () => Promise<void> | undefined
  /** Where a failed write outside any request is reported. */
  warn: (line: string) => void
}

/** A mock the server hosts. */
export interface HostedMock {
  readonly context: MockContext
  /** The core handler: what the server hands each request below the mock's URL. */
  readonly answer: CoreHandler
  /** Its inspector page and streams, answered by the server in front of the route table. */
  readonly extension: ServerExtension
  /** Stops its scheduled deliveries and timers and ends its streams (its state stays as it is). */
  close(): void
}

/** Paths the inspector serves (the route table answers every other one). */
function isInspectorPath(path: string): boolean {
  if (!path.startsWith('/__mock/')) return true // the home page, the icon, `/__mock`
  return (
    path === '/__mock/' ||
    path === STREAM_PATH ||
    path === control.deliveries.stream.path ||
    path.startsWith('/__mock/inspector/')
  )
}

/** Hosts an assembled mock on the server: its deliveries, log lines and inspector. */
export function hostMock(assembled: AssembledMock, settings: HostSettings): HostedMock {
  const { context, answer } = assembled
  const { dispatcher, clock } = context
  if (settings.servedOnNetwork) context.markServedOnNetwork()
  const { persist, warn, log, logPrefix } = settings
  dispatcher.configure({
    // No MSW runs in this process: never add its bypass mark.
    bypassMsw: false,
    // Names are judged by the address each delivery's socket connects to (see public-fetch.ts).
    fetch: settings.insecureWebhooks ? undefined : publicFetch,
    // A delivery attempt committed outside any request: it is written already; retry a failed write.
    onChange: () => {
      persist?.()?.catch((error: Error) =>
        warn(`reseller-mock: ${logPrefix}could not save the state file: ${error.message}`),
      )
    },
  })
  const stopLog = log ? logDeliveries(dispatcher, (line) => log(`${logPrefix}${line}`)) : undefined
  let inspector: ServerExtension | undefined
  const inspect = () => {
    inspector ??= createInspector(context, undefined, settings.basePath, settings.basePath === '')
    return inspector
  }
  if (!settings.lazyInspector) inspect()
  let closed = false
  const extension: ServerExtension = {
    serve(req: IncomingMessage, res: ServerResponse, path: string) {
      if (!inspector && !isInspectorPath(path)) return false
      return inspect().serve(req, res, path)
    },
    answered(method, path) {
      inspector?.answered(method, path)
    },
    // The inspector page's own reads, as the inspector tells them (without making one).
    quiet: isInspectorRead,
    close() {
      inspector?.close()
      inspector = undefined
    },
  }
  return {
    context,
    answer,
    extension,
    close() {
      if (closed) return
      closed = true
      dispatcher.stop()
      clock.stop()
      stopLog?.()
      inspector?.close()
    },
  }
}
