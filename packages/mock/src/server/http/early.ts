/**
 * A server that listens before its handler exists. The standalone CLI binds and prints its ready
 * line first, then makes the mock (docs/spec-decisions.md, "The binary's start"): requests and
 * parser errors that arrive meanwhile wait, in their order, for the listeners `listen` hands to
 * {@link EarlyServer.adopt}, so that none is answered before the mock is whole.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { bind } from './bind.js'
import { http } from './builtins.js'
import type { RunningServer } from './options.js'

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void
type ClientErrorListener = (error: Error, socket: Socket) => void

/** A listening server whose requests wait for {@link EarlyServer.adopt}. */
export interface EarlyServer {
  /** `http://host:port`, with the real port when `0` was asked. */
  readonly url: string
  /** Requests and parser errors waiting for {@link EarlyServer.adopt}. */
  readonly waiting: number
  /**
   * Serves with these listeners from now on, the waiting requests first; `beforeClose` runs first
   * on the running server's `close()`.
   */
  adopt(
    onRequest: RequestListener,
    onClientError: ClientErrorListener,
    beforeClose?: () => void,
  ): RunningServer
  /** Closes it unadopted (a start that failed after binding). */
  close(): Promise<void>
}

/** A node:http server as every server of the mock is made: keep-alive, the Host rule left to the guard. */
export function createHttpServer(): Server {
  // No `requireHostHeader`: the guard answers a Host-less HTTP/1.1 request with the envelope itself.
  return http.createServer({ keepAlive: true, requireHostHeader: false })
}

/** Listens on `host:port` at once; rejects as `listen` does on a busy or forbidden port. */
export async function listenEarly(host: string, port: number): Promise<EarlyServer> {
  const server = createHttpServer()
  const waiting: (() => void)[] = []
  let onRequest: RequestListener | undefined
  let onClientError: ClientErrorListener | undefined
  const waitRequest: RequestListener = (req, res) => waiting.push(() => onRequest!(req, res))
  const waitError: ClientErrorListener = (error, socket) => waiting.push(() => onClientError!(error, socket))
  server.on('request', waitRequest)
  server.on('clientError', waitError)
  let beforeClose: (() => void) | undefined
  const running = await bind(server, host, port, () => beforeClose?.())
  return {
    url: running.url,
    get waiting() {
      return waiting.length
    },
    adopt(request, clientError, close) {
      server.off('request', waitRequest).off('clientError', waitError)
      onRequest = request
      onClientError = clientError
      server.on('request', request).on('clientError', clientError)
      beforeClose = close
      for (const next of waiting.splice(0)) next()
      return running
    },
    close: () => running.close(),
  }
}
