/**
 * A tap in front of a "real" service for the record tests: forwards each request, keeps the
 * exact answer it sent back (status line, raw headers, body bytes) under the request's `x-tap`
 * header, and may change an answer on purpose (`change`) to plant a divergence; and a client
 * (`rawRequest`) that keeps an answer as it came on the wire, to compare the two byte for byte.
 */
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

/** An answer as the tap sent it. */
export interface TappedAnswer {
  status: number
  statusMessage: string
  rawHeaders: string[]
  body: Buffer
}

/** Changes an answer before it leaves; return it unchanged to pass it through. */
export type AnswerChange = (method: string, path: string, answer: TappedAnswer) => TappedAnswer

export interface Tap {
  url: string
  /** Answers sent, by the request's `x-tap` header. */
  answers: Map<string, TappedAnswer>
  change: AnswerChange | undefined
  close(): Promise<void>
}

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', reject)
  })
}

/** Raw headers with `Content-Length` set to `length` (after a change of the body). */
export function withLength(rawHeaders: string[], length: number): string[] {
  const out: string[] = []
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() !== 'content-length') out.push(rawHeaders[i]!, rawHeaders[i + 1]!)
  }
  return [...out, 'Content-Length', String(length)]
}

/** A JSON answer's body changed by `edit` (Content-Length follows). */
export function editJson(answer: TappedAnswer, edit: (body: Record<string, unknown>) => void): TappedAnswer {
  const body = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>
  edit(body)
  const bytes = Buffer.from(JSON.stringify(body))
  return { ...answer, body: bytes, rawHeaders: withLength(answer.rawHeaders, bytes.length) }
}

/** Starts a tap in front of `upstream` (an `http://host:port` URL). */
export async function startTap(upstream: string): Promise<Tap> {
  const target = new URL(upstream)
  const tap: Tap = {
    url: '',
    answers: new Map(),
    change: undefined,
    close: async () => {},
  }
  const server = createServer(async (incoming, outgoing) => {
    const body = await readAll(incoming)
    const headers: string[] = []
    for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
      const name = incoming.rawHeaders[i]!
      headers.push(name, name.toLowerCase() === 'host' ? target.host : incoming.rawHeaders[i + 1]!)
    }
    const forwarded = request({
      hostname: target.hostname,
      port: target.port,
      method: incoming.method,
      path: incoming.url,
      headers,
    })
    forwarded.on('error', () => outgoing.destroy())
    forwarded.on('response', async (answer) => {
      let tapped: TappedAnswer = {
        status: answer.statusCode!,
        statusMessage: answer.statusMessage ?? '',
        rawHeaders: answer.rawHeaders,
        body: await readAll(answer),
      }
      if (tap.change) tapped = tap.change(incoming.method!, incoming.url!, tapped)
      const id = incoming.headers['x-tap']
      if (typeof id === 'string') tap.answers.set(id, tapped)
      outgoing.sendDate = false
      outgoing.writeHead(tapped.status, tapped.statusMessage, tapped.rawHeaders)
      outgoing.end(tapped.body)
    })
    forwarded.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  tap.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  tap.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return tap
}

/** One request over node:http; the answer as it came on the wire (status line, raw headers, bytes). */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<TappedAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${base}${path}`, { method, headers, agent: false }, (incoming) => {
      readAll(incoming).then(
        (bytes) =>
          resolve({
            status: incoming.statusCode!,
            statusMessage: incoming.statusMessage ?? '',
            rawHeaders: incoming.rawHeaders,
            body: bytes,
          }),
        reject,
      )
    })
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}
