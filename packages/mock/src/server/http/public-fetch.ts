/**
 * A `fetch` for webhook deliveries that can only connect to public addresses. The check sits in the
 * socket's DNS lookup, so the address judged is the address connected to: a name that answers a
 * public address to one lookup and `127.0.0.1` to the next (DNS rebinding) cannot slip through a
 * gap between a separate check and the connection. Node only (`node:http`, `node:https`,
 * `node:dns`); the standalone server hands it to the dispatcher.
 *
 * It does what the dispatcher's attempts need of `fetch`: one request with a string body, no
 * redirect following (a 3xx is the answer), the request's abort signal, the answer as a
 * `Response`. Failures reject with a `TypeError` whose `cause` says why, as `fetch` does.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns'
import type { Agent as HttpAgent, IncomingMessage } from 'node:http'
import type { LookupFunction } from 'node:net'
import { Readable } from 'node:stream'
import { addressProblem, isIpLiteral, targetRefused } from '../../domain/target-policy.js'
import { TargetRefusedError } from '../../webhooks/attempt.js'
import { http, https } from './builtins.js'

/** Answer statuses that carry no body (the `Response` constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/** Judges one address: why it may not be connected to, or `null`. */
export type AddressJudge = (address: string) => string | null

function refusal(hostname: string, problem: string): TargetRefusedError {
  return new TargetRefusedError(targetRefused(`${hostname} resolves to ${problem.replace(' is ', ', ')}`))
}

/**
 * A `dns.lookup` that fails when ANY address of the answer is refused by `judge`: a name mixing a
 * public and a private answer is refused rather than left to the connection's choice.
 */
export function guardedLookup(judge: AddressJudge, resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return ((hostname: string, options: LookupOptions | LookupAllOptions, callback: LookupCallback) => {
    resolve(hostname, options as LookupAllOptions, (error, found, family?: number) => {
      if (error) return callback(error, [])
      const answers: LookupAddress[] = Array.isArray(found)
        ? found
        : [{ address: found as unknown as string, family: family ?? 4 }]
      for (const { address } of answers) {
        const problem = judge(address)
        if (problem) return callback(refusal(hostname, problem), [])
      }
      if (Array.isArray(found)) callback(null, found)
      else callback(null, found as unknown as string, family)
    })
  }) as unknown as LookupFunction
}

/** A node:http answer as a `Response` (throws on a status or header `Response` refuses). */
function toResponse(answer: IncomingMessage): Response {
  const status = answer.statusCode ?? 0
  if (status < 200 || status > 599) throw new Error(`invalid HTTP status ${status}`)
  const headers = new Headers()
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  if (NULL_BODY_STATUSES.has(status)) {
    answer.resume()
    return new Response(null, { status, headers })
  }
  return new Response(Readable.toWeb(answer) as ReadableStream<Uint8Array>, { status, headers })
}

function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause })
}

/**
 * A `fetch` that connects only to addresses `judge` accepts: IP literals are judged as written,
 * names by every address their lookup answers, in the lookup the socket itself makes. `resolve`
 * (default `dns.lookup`) is replaceable for tests.
 */
export function createGuardedFetch(judge: AddressJudge, resolve: typeof dnsLookup = dnsLookup): typeof fetch {
  const lookup = guardedLookup(judge, resolve)
  // Own agents: a pooled socket is only ever one this lookup checked.
  const httpAgent = new http.Agent({ keepAlive: true })
  let httpsAgent: HttpAgent | undefined
  const agentFor = (secure: boolean) => {
    if (!secure) return httpAgent
    httpsAgent ??= new (https().Agent)({ keepAlive: true })
    return httpsAgent
  }
  return (input, init) => guardedRequest(new Request(input, init), judge, lookup, agentFor)
}

/** The deliveries' fetch of the standalone server: public unicast addresses only (`target-policy.ts`). */
export const publicFetch: typeof fetch = createGuardedFetch(addressProblem)

async function guardedRequest(
  request: Request,
  judge: AddressJudge,
  lookup: LookupFunction,
  agentFor: (secure: boolean) => HttpAgent,
): Promise<Response> {
  const url = new URL(request.url)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw fetchFailed(new Error(`unsupported protocol ${url.protocol}`))
  }
  // The socket makes no lookup for an IP literal: judge it here.
  if (isIpLiteral(url.hostname)) {
    const problem = judge(url.hostname.replace(/^\[|\]$/g, ''))
    if (problem) throw fetchFailed(new TargetRefusedError(targetRefused(problem)))
  }
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined
  const signal = request.signal
  signal.throwIfAborted()
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    headers[name] = value
  })
  if (body) headers['content-length'] = String(body.byteLength)
  const secure = url.protocol === 'https:'
  const send = secure ? https().request : http.request

  return new Promise<Response>((resolve, reject) => {
    const onAbort = () => {
      outgoing.destroy()
      reject(signal.reason)
    }
    const outgoing = send(
      url,
      {
        method: request.method,
        headers,
        agent: agentFor(secure),
        lookup,
      },
      (answer: IncomingMessage) => {
        signal.removeEventListener('abort', onAbort)
        // Whatever a receiver answers must end in a resolved or rejected promise, never a throw
        // inside this callback (it would take the server down).
        try {
          resolve(toResponse(answer))
        } catch (error) {
          answer.destroy()
          reject(fetchFailed(error))
        }
      },
    )
    signal.addEventListener('abort', onAbort, { once: true })
    outgoing.on('error', (error) => {
      signal.removeEventListener('abort', onAbort)
      reject(signal.aborted ? signal.reason : fetchFailed(error))
    })
    outgoing.end(body)
  })
}
