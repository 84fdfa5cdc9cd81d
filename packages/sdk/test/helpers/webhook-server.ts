// A real node:http server on 127.0.0.1 for the node adapter's tests: one per describe block, its
// request listener swapped per test, and a `send` that posts a delivery to it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'
import { SIGNATURE_HEADER } from '../../src/webhooks/index.js'

/** A node:http server on 127.0.0.1, port 0, for the describe block it is called in; `use` sets the listener under test. */
export function useServer() {
  let listener: (req: IncomingMessage, res: ServerResponse) => void = () => {}
  let server: Server
  let base = ''
  beforeAll(async () => {
    server = createServer((req, res) => listener(req, res))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return {
    use(next: typeof listener) {
      listener = next
    },
    send(body: BodyInit | null, signature: string | null, init: RequestInit = {}) {
      return fetch(`${base}/hooks`, {
        method: 'POST',
        body,
        headers: signature === null ? {} : { [SIGNATURE_HEADER]: signature },
        ...init,
      })
    },
  }
}
