// What the standalone server is measured on and against, by server.bench.mjs (wrk) and by
// scripts/server-instructions.mjs (callgrind): one reseller with 1,000 tickets and its key, and a
// bare node:http server answering the mock's bytes.
import { createServer } from 'node:http'

/** The API key of the reseller. */
export const KEY = 'svc_live_bench'

/** Headers node:http writes itself on every answer: a bare server copying the mock's gets them the same way. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

/** The seed: one reseller, 1,000 open tickets of one message each. */
export const seed = {
  resellers: [
    {
      id: 1,
      name: 'Bench Hosting',
      api_keys: [{ key: KEY, scopes: ['support:read', 'support:write'] }],
      tickets: Array.from({ length: 1000 }, (_, i) => ({
        subject: `Ticket number ${i + 1}`,
        department: 'technical',
        priority: 'normal',
        status: 'open',
        messages: [{ message: `First message of ticket ${i + 1}`, internal: false, from: 'client' }],
      })),
    },
  ],
}

/**
 * A bare node:http server answering what the mock at `mockUrl` answered to `path`, byte for byte
 * (status, headers, body); `url` is the same path on it.
 */
export async function bareCopy(mockUrl, path) {
  const sample = await fetch(`${mockUrl}${path}`, { headers: { authorization: `Bearer ${KEY}` } })
  const body = Buffer.from(await sample.arrayBuffer())
  if (sample.status !== 200) throw new Error(`mock answered ${sample.status}: ${body}`)
  const headers = {}
  for (const [name, value] of sample.headers) if (!TRANSPORT_HEADERS.has(name)) headers[name] = value
  const bare = createServer({ keepAlive: true }, (_req, res) => {
    res.writeHead(200, headers)
    res.end(body)
  })
  await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve))
  return { bare, url: `http://127.0.0.1:${bare.address().port}${path}`, bytes: body.length }
}
