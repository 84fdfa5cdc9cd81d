/** Binds a node:http server and hands back the {@link RunningServer} that closes it. */
import type { Server } from 'node:http'
import type { AddressInfo, BoundSocket } from 'node:net'
import type { RunningServer } from './options.js'

/** How long {@link RunningServer.close} lets in-flight requests finish before cutting their sockets. */
const CLOSE_GRACE_MS = 3000

/**
 * Listens on `host:port` (`0`: a free port); rejects with a readable error on a busy or forbidden
 * port. `beforeClose` runs first on `close()` (ends what holds connections open).
 */
export function bind(
  server: Server,
  host: string,
  port: number,
  beforeClose?: () => void,
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const where = `${host.includes(':') ? `[${host}]` : host}:${port}`
      if (error.code === 'EADDRINUSE') {
        reject(Object.assign(new Error(`port already in use: ${where}`), { code: error.code }))
      } else if (error.code === 'EACCES') {
        reject(Object.assign(new Error(`no permission to listen on ${where}`), { code: error.code }))
      } else {
        reject(error)
      }
    }
    let socket: BoundSocket | undefined
    try {
      socket = boundSocket(host, port)
    } catch (error) {
      onError(error as NodeJS.ErrnoException)
      return
    }
    server.once('error', onError)
    const listening = () => {
      server.off('error', onError)
      const { port: bound } = server.address() as AddressInfo
      const shownHost = host.includes(':') ? `[${host}]` : host
      let closing: Promise<void> | undefined
      resolve({
        url: `http://${shownHost}:${bound}`,
        port: bound,
        close() {
          closing ??= new Promise<void>((done) => {
            beforeClose?.()
            const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS)
            force.unref()
            server.close(() => {
              clearTimeout(force)
              done()
            })
            server.closeIdleConnections()
          })
          return closing
        },
      })
    }
    if (socket) server.listen(socket, listening)
    else server.listen(port, host, listening)
  })
}

/**
 * `host:port` bound at once when `host` is an IP address and the runtime has `net.BoundSocket`
 * (Node 24.19+), else `undefined`: `listen(port, host)` looks every host up with `dns.lookup`,
 * even `127.0.0.1`, and then tests the address with Node's IPv6 regular expression, whose first
 * use compiles it: about 3 ms of a start (docs/spec-decisions.md). Errors (a taken port) throw here.
 */
function boundSocket(host: string, port: number): BoundSocket | undefined {
  const net = process.getBuiltinModule('node:net')
  if (typeof net.BoundSocket !== 'function' || net.isIP(host) === 0) return undefined
  return new net.BoundSocket({ host, port })
}
