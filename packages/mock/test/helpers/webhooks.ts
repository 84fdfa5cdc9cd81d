import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createInterface } from 'node:readline'
import type { DeliveryRecord, DeliveryStore, DeliveryTarget } from '../../src/webhooks/dispatcher.js'

/** An in-memory {@link DeliveryStore} for dispatcher unit tests. */
export function memoryDeliveryStore() {
  const deliveries = new Map<string, DeliveryRecord>()
  const resellerHooks = new Map<number, DeliveryTarget>()
  const generalHooks = new Map<string, { reseller_id: number; events: string[] } & DeliveryTarget>()
  const store: DeliveryStore = {
    insertDelivery: (record) => void deliveries.set(record.delivery_id, { ...record }),
    updateDelivery: (id, patch) => {
      const record = deliveries.get(id)
      if (record) deliveries.set(id, { ...record, ...patch })
    },
    getDelivery: (id) => deliveries.get(id),
    pendingDeliveries: () => [...deliveries.values()].filter((d) => d.next_attempt_at !== null),
    resellerWebhook: (id) => resellerHooks.get(id),
    generalWebhook: (id) => generalHooks.get(id),
    subscribedWebhooks: (resellerId, event) =>
      [...generalHooks.entries()]
        .filter(([, w]) => w.reseller_id === resellerId && w.events.includes(event))
        .map(([id, w]) => ({ id, url: w.url, secret: w.secret })),
  }
  return { store, deliveries, resellerHooks, generalHooks }
}

/** What a test receiver saw. */
export interface Received {
  headers: IncomingMessage['headers']
  body: string
}

/**
 * A `node:http` receiver on 127.0.0.1. `answer` decides each status (default 200); returning
 * `'hang'` never answers.
 */
export async function startReceiver(answer: (n: number, req: Received) => number | 'hang' = () => 200) {
  const received: Received[] = []
  const hanging: ServerResponse[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const entry = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      received.push(entry)
      const status = answer(received.length, entry)
      if (status === 'hang') {
        hanging.push(res)
        return
      }
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const PYTHON_RECEIVER = `
import hashlib, hmac, json, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
state = {'secret': sys.argv[1].encode()}
# Handler threads and the main thread share stdout: one line per message, never interleaved.
out = threading.Lock()
def say(message):
    with out:
        print(json.dumps(message), flush=True)
class Receiver(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get('Content-Length', '0')))
        expected = 'sha256=' + hmac.new(state['secret'], body, hashlib.sha256).hexdigest()
        got = self.headers.get('X-Service-Signature', '')
        valid = hmac.compare_digest(expected, got)
        say({'valid': valid, 'signature': got, 'body': body.decode('utf-8'),
             'delivery': self.headers.get('X-Service-Delivery')})
        self.send_response(200 if valid else 401)
        self.send_header('Content-Length', '0')
        self.end_headers()
    def log_message(self, *args):
        pass
server = ThreadingHTTPServer(('127.0.0.1', 0), Receiver)
threading.Thread(target=server.serve_forever, daemon=True).start()
say({'port': server.server_address[1]})
for line in sys.stdin:
    state['secret'] = line.rstrip('\\n').encode()
    say({'secret_set': True})
`

/**
 * A receiver written in Python with only its standard library: it recomputes the HMAC itself and
 * answers 200 on a valid signature, 401 otherwise. `setSecret` changes the secret it checks with
 * (a general webhook's secret is only known once the webhook exists, which needs the URL first).
 */
export async function startPythonReceiver(secret = '') {
  const child: ChildProcess = spawn('python3', ['-c', PYTHON_RECEIVER, secret], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout! })
  const seen: Array<{ valid: boolean; signature: string; body: string; delivery: string }> = []
  const waiters: Array<() => void> = []
  let acks = 0
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`python receiver exited with ${code}`)))
    lines.on('line', (line) => {
      const parsed = JSON.parse(line)
      if ('port' in parsed) resolve(parsed.port)
      else if ('secret_set' in parsed) acks++
      else seen.push(parsed)
      for (const w of waiters.splice(0)) w()
    })
  })
  const until = async (done: () => boolean, what: string, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`python receiver: timed out waiting for ${what}`)
      await new Promise<void>((resolve) => {
        waiters.push(resolve)
        setTimeout(resolve, 50)
      })
    }
  }
  return {
    url: `http://127.0.0.1:${port}/hook`,
    seen,
    async setSecret(next: string) {
      const target = acks + 1
      child.stdin!.write(`${next}\n`)
      await until(() => acks >= target, 'the new secret')
    },
    /** Resolves once `n` deliveries were seen (bounded by `timeoutMs`). */
    waitFor: (n: number, timeoutMs = 5000) => until(() => seen.length >= n, `${n} deliveries`, timeoutMs),
    close() {
      child.stdin!.end()
      child.kill('SIGTERM')
    },
  }
}
