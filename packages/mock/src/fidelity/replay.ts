/**
 * `reseller-mock replay`: a fresh in-process mock from the cassette's seed, the recorded requests
 * sent to it in order (ids the upstream made mapped to the mock's), and each answer compared with
 * the recorded one by the engine of `compare` (docs/keeping-the-mock-honest.md, "Record and
 * replay"). Offline: the mock is answered through `mock.fetch`, and its webhook deliveries get a
 * `fetch` that refuses to leave the process.
 */

import { keyMode } from '@reseller-api/sdk/schemas'
import { targetProblem } from '../domain/target-policy.js'
import type { MockApi } from '../mock-api.js'
import { createMockApi } from '../node.js'
import type { SeedInput } from '../seed/schema.js'
import type { Cassette, CassetteExchange, CassetteSeed, RecordedResponse } from './cassette.js'
import { OTHER_KEY, REDACTED, redactBodyText } from './cassette-redact.js'
import { compareExchange, type Exchange, IdMap, type OpenApiLike, type StepResult } from './engine.js'
import { knownValues } from './import.js'

type Mode = 'live' | 'sandbox'

/** Keys a replay sends for keys the seed does not hold: well formed, unknown to the mock. */
const UNKNOWN_KEYS: Record<Mode, string> = {
  live: 'svc_live_replay_unknown_key',
  sandbox: 'svc_test_replay_unknown_key',
}

/** What a webhook delivery meets during a replay. */
const offlineFetch: typeof fetch = async () => {
  throw new TypeError('replay is offline: no webhook leaves the process')
}

/** The first key of each mode in the cassette's seed: the import's new keys, by mode. */
export function keysByMode(seed: CassetteSeed): Partial<Record<Mode, string>> {
  const keys: Partial<Record<Mode, string>> = {}
  for (const reseller of seed.resellers as { api_keys?: { key?: unknown }[] }[]) {
    for (const { key } of reseller.api_keys ?? []) {
      const mode = typeof key === 'string' ? keyMode(key) : undefined
      if (mode !== undefined) keys[mode] ??= key as string
    }
  }
  return keys
}

/** The `Authorization` to send for a recorded label. */
function authorization(label: string, keys: Partial<Record<Mode, string>>): string {
  if (label === 'live' || label === 'sandbox') return `Bearer ${keys[label] ?? UNKNOWN_KEYS[label]}`
  if (label === OTHER_KEY.live) return `Bearer ${UNKNOWN_KEYS.live}`
  if (label === OTHER_KEY.sandbox) return `Bearer ${UNKNOWN_KEYS.sandbox}`
  // A value that held no key: sent as recorded, `[redacted]`, which no service takes for a key.
  return label
}

const asText = (body: string | null, encoding: 'base64' | undefined): string | null =>
  body === null ? null : encoding === 'base64' ? Buffer.from(body, 'base64').toString('latin1') : body

/** A body as the engine compares it: JSON parsed, other text as it is, `null` when empty. */
function parsedBody(text: string | null): unknown {
  if (text === null || text === '') return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * Whether the recorded upstream took a general webhook that points where the mock's default rule
 * refuses (a loopback receiver: another mock started with `--insecure-webhooks`). The replay's mock
 * then takes such URLs too, as the upstream did; nothing is ever sent to them, the replay is offline.
 */
export function upstreamTookPrivateWebhooks(exchanges: readonly CassetteExchange[]): boolean {
  return exchanges.some(({ request, response }) => {
    if (request.method !== 'POST' || request.path.split('?')[0] !== '/api/v1/webhooks') return false
    if (response === null || response.status < 200 || response.status > 299) return false
    const url = (parsedBody(asText(request.body, request.body_encoding)) as { url?: unknown } | null)?.url
    return typeof url === 'string' && targetProblem(url) !== null
  })
}

function recordedSide(exchange: CassetteExchange, response: RecordedResponse): Exchange {
  return {
    method: exchange.request.method,
    path: exchange.request.path,
    status: response.status,
    headers: response.headers,
    body: parsedBody(asText(response.body, response.body_encoding)),
  }
}

/** The body to send: ids mapped in text; bytes as recorded; none for GET and HEAD, which cannot have one. */
function requestBody(method: string, body: string | null, encoding: 'base64' | undefined, ids: IdMap) {
  if (body === null || method === 'GET' || method === 'HEAD') return undefined
  return encoding === 'base64' ? Buffer.from(body, 'base64') : ids.toMock(body)
}

async function mockSide(mock: MockApi, exchange: CassetteExchange, path: string, request: RequestInit) {
  const response = await mock.fetch(`${mock.baseUrl}${path}`, request)
  const bytes = Buffer.from(await response.arrayBuffer())
  // The mock's answer goes through the recorder's redaction, so a hidden value meets a hidden value.
  const text = bytes.length === 0 ? null : redactBodyText(bytes.toString('utf8'))
  return {
    method: exchange.request.method,
    path,
    status: response.status,
    headers: Object.fromEntries([...response.headers].map(([name, value]) => [name.toLowerCase(), value])),
    body: parsedBody(text),
  } satisfies Exchange
}

/** What {@link replayCassette} needs besides the cassette. */
export interface ReplayOptions {
  /** The OpenAPI document (for the engine's enum checks). */
  openapi: OpenApiLike
  /** Told about each exchange that cannot be replayed (one line each). */
  warn?: (line: string) => void
}

/** Replays every answered exchange of `cassette` against a fresh mock; one step per exchange (`#seq`). */
export async function replayCassette(cassette: Cassette, options: ReplayOptions): Promise<StepResult[]> {
  const keys = keysByMode(cassette.seed)
  const platformFetch = globalThis.fetch
  let mock: MockApi
  // The dispatcher takes the global fetch as it is when the mock is made (webhooks/dispatcher.ts).
  globalThis.fetch = offlineFetch
  try {
    mock = createMockApi({
      seed: cassette.seed as SeedInput,
      insecureWebhooks: upstreamTookPrivateWebhooks(cassette.exchanges),
    })
  } finally {
    globalThis.fetch = platformFetch
  }
  const ids = new IdMap(knownValues(cassette.seed))
  const steps: StepResult[] = []
  try {
    for (const exchange of cassette.exchanges) {
      if (exchange.response === null) {
        options.warn?.(
          `#${exchange.seq} ${exchange.request.method} ${exchange.request.path}: not replayed, the upstream never answered it (${exchange.error ?? 'no answer'})`,
        )
        continue
      }
      const { request } = exchange
      const headers = new Headers()
      for (const [name, value] of Object.entries(request.headers)) {
        if (name === 'authorization') headers.set(name, authorization(value, keys))
        else if (value !== REDACTED) headers.set(name, ids.toMock(value))
      }
      const path = ids.toMock(request.path)
      const mockAnswer = await mockSide(mock, exchange, path, {
        method: request.method,
        headers,
        body: requestBody(request.method, request.body, request.body_encoding, ids),
      })
      const step = compareExchange(
        `#${exchange.seq}`,
        recordedSide(exchange, exchange.response),
        mockAnswer,
        {
          ids,
          openapi: options.openapi,
        },
      )
      steps.push(step)
    }
  } finally {
    // Drops the webhook retries the replay scheduled: nothing outlives it.
    mock.reset()
  }
  return steps
}
