/**
 * How the developer-loop commands talk to a running mock: its control endpoints (`/__mock/…`) and
 * its delivery stream here, in one module; its API through the SDK (`ResellerApi`), with a fetch
 * that records each exchange so that `trigger` can print every request it made. A mock that cannot
 * be reached, or a server that is not a mock, is a {@link MockUnreachableError} (exit 2).
 */
import { ConnectionError, isApiError, ResellerApi, TimeoutError } from '@reseller-api/sdk'
import { EventSourceParserStream } from 'eventsource-parser/stream'
import * as z from 'zod/mini'
import { DELIVERIES_HEADER } from '../routing/core.js'
import { AttemptMessage, DELIVERY_STREAM_PATH, QueuedMessage } from '../server/delivery-stream.js'

/** The mock at the URL given cannot be reached, or does not answer as a mock: nothing was done. */
export class MockUnreachableError extends Error {}

/** One request a command made, as it prints it. */
export interface Exchange {
  method: string
  /** Path and query, below the mock's URL. */
  path: string
  status: number
  /** `X-Request-Id` of an API answer (the journal's entry). */
  request_id?: string
  /** Ids of the deliveries it caused (`X-Mock-Deliveries`). */
  deliveries: string[]
  /** The error envelope of a refused request. */
  error?: { code: string; message: string }
}

/** What the commands read of the mock's state: keys, clients, packages and general webhooks. */
const StateParts = z.object({
  tables: z.object({
    apiKeys: z.array(z.object({ key: z.string(), reseller_id: z.number(), mode: z.string() })),
    clients: z.array(z.object({ id: z.number(), reseller_id: z.number() })),
    packages: z.array(z.object({ name: z.string(), reseller_id: z.number() })),
    webhooks: z.array(
      z.object({
        id: z.string(),
        reseller_id: z.number(),
        url: z.string(),
        events: z.array(z.string()),
        secret: z.string(),
      }),
    ),
  }),
})

/** A key's reseller as the mock's state shows it. */
export interface KeyOwner {
  resellerId: number
  sandbox: boolean
  /** The reseller's client ids, oldest first. */
  clients: number[]
  /** The reseller's WHM package names. */
  packages: string[]
  /** The reseller's general webhooks, secrets included. */
  webhooks: Array<{ id: string; url: string; events: string[]; secret: string }>
}

/** What `resend` reads of a redelivery (the mock's delivery view). */
const RedeliveredView = z.object({
  delivery_id: z.string(),
  redelivery_of: z.nullable(z.string()),
  event: z.string(),
  url: z.nullable(z.string()),
  status: z.string(),
  http_status: z.nullable(z.int()),
  error: z.optional(z.string()),
  duration_ms: z.optional(z.number()),
  next_attempt_at: z.nullable(z.string()),
})
export type RedeliveredView = z.infer<typeof RedeliveredView>

const ErrorEnvelope = z.object({ error: z.object({ code: z.string(), message: z.string() }) })

/** The answer's JSON, or `undefined` when it has none. */
async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text()
  try {
    return text === '' ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Why a fetch made no exchange: the cause's code where Node gives one. */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error)
}

/** Following a mock's deliveries: messages arrive through the handlers given to {@link MockSession.follow}. */
export interface DeliveryFollower {
  /** Resolves when the mock ends the stream (it stopped); never after {@link close}. */
  readonly ended: Promise<void>
  close(): void
}

/** A running mock, by its URL (the SDK's `baseUrl`). */
export class MockSession {
  /** Every request made through this session, in order. */
  readonly exchanges: Exchange[] = []
  readonly #base: string

  constructor(base: string) {
    this.#base = base.replace(/\/+$/, '')
  }

  /** A client of the mock's API with `key`; its requests are recorded (no automatic retry). */
  api(key: string): ResellerApi {
    const record = (request: Request, response: Response) =>
      this.#record(request.method, request.url, response)
    return new ResellerApi({
      apiKey: key,
      baseUrl: this.#base,
      maxRetries: 0,
      fetch: async (input, init) => {
        const request = new Request(input, init)
        const response = await fetch(request)
        await record(request, response.clone())
        return response
      },
    })
  }

  /** The key's reseller, its clients, packages and general webhooks (`GET /__mock/state`). */
  async keyOwner(key: string): Promise<KeyOwner | undefined> {
    const { status, body } = await this.#control('GET', '/__mock/state', undefined, false)
    const state = StateParts.safeParse((body as { data?: unknown })?.data)
    if (status !== 200 || !state.success) {
      throw new MockUnreachableError(
        `${this.#base} does not answer as a reseller-mock (GET /__mock/state: ${status})`,
      )
    }
    const { tables } = state.data
    const found = tables.apiKeys.find((k) => k.key === key)
    if (!found) return undefined
    const mine = <T extends { reseller_id: number }>(rows: T[]) =>
      rows.filter((row) => row.reseller_id === found.reseller_id)
    return {
      resellerId: found.reseller_id,
      sandbox: found.mode === 'sandbox',
      clients: mine(tables.clients).map((c) => c.id),
      packages: mine(tables.packages).map((p) => p.name),
      webhooks: mine(tables.webhooks).map(({ id, url, events, secret }) => ({ id, url, events, secret })),
    }
  }

  /** `POST /__mock/events`: emits an event for a reseller. */
  emit(body: { reseller_id: number; event: string; style?: string; sandbox?: boolean }): Promise<Exchange> {
    return this.#exchange('POST', '/__mock/events', body)
  }

  /** `POST /__mock/tickets/{uuid}/replies`: a staff reply (visible), which emits `ticket.replied`. */
  staffReply(ticketUuid: string, message: string): Promise<Exchange> {
    return this.#exchange('POST', `/__mock/tickets/${encodeURIComponent(ticketUuid)}/replies`, { message })
  }

  /** `POST /__mock/deliveries/{id}/redeliver`: the new delivery after its first attempt. */
  async redeliver(deliveryId: string): Promise<{ exchange: Exchange; delivery?: RedeliveredView }> {
    const path = `/__mock/deliveries/${encodeURIComponent(deliveryId)}/redeliver`
    const { exchange, body } = await this.#control('POST', path, undefined, true)
    const view = RedeliveredView.safeParse((body as { data?: unknown })?.data)
    return { exchange, delivery: view.success ? view.data : undefined }
  }

  /**
   * Opens the delivery stream (`GET /__mock/deliveries/stream`, only deliveries to `url` when
   * given) and resolves once the mock has subscribed it: no attempt made after that is missed.
   */
  async follow(handlers: {
    url?: string
    onQueued?: (message: QueuedMessage) => void
    onAttempt?: (message: AttemptMessage) => void
  }): Promise<DeliveryFollower> {
    const controller = new AbortController()
    const query = handlers.url === undefined ? '' : `?url=${encodeURIComponent(handlers.url)}`
    const target = `${this.#base}${DELIVERY_STREAM_PATH}${query}`
    let response: Response
    try {
      response = await fetch(target, { signal: controller.signal, headers: { accept: 'text/event-stream' } })
    } catch (error) {
      throw new MockUnreachableError(`cannot reach the mock at ${this.#base}: ${reasonOf(error)}`)
    }
    if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel()
      throw new MockUnreachableError(
        `${this.#base} does not serve the delivery stream of a reseller-mock (GET ${DELIVERY_STREAM_PATH}: ${response.status})`,
      )
    }
    const messages = response
      .body!.pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream())
    const ended = (async () => {
      try {
        for await (const message of messages) {
          const data = JSON.parse(message.data) as unknown
          if (message.event === 'queued') {
            const parsed = QueuedMessage.safeParse(data)
            if (parsed.success) handlers.onQueued?.(parsed.data)
          } else if (message.event === 'attempt') {
            const parsed = AttemptMessage.safeParse(data)
            if (parsed.success) handlers.onAttempt?.(parsed.data)
          }
        }
      } catch (error) {
        if (!controller.signal.aborted) throw error
      }
    })()
    return {
      ended: ended.then(() => (controller.signal.aborted ? new Promise<void>(() => {}) : undefined)),
      close: () => controller.abort(),
    }
  }

  /** A control request as an {@link Exchange}. */
  async #exchange(method: string, path: string, body: unknown): Promise<Exchange> {
    return (await this.#control(method, path, body, true)).exchange
  }

  async #control(method: string, path: string, body: unknown, recorded: boolean) {
    let response: Response
    try {
      response = await fetch(`${this.#base}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch (error) {
      throw new MockUnreachableError(`cannot reach the mock at ${this.#base}: ${reasonOf(error)}`)
    }
    const exchange = recorded
      ? await this.#record(method, `${this.#base}${path}`, response.clone())
      : undefined
    return { exchange: exchange!, status: response.status, body: await jsonOf(response) }
  }

  async #record(method: string, url: string, response: Response): Promise<Exchange> {
    const target = new URL(url)
    const exchange: Exchange = {
      method,
      path: `${target.pathname}${target.search}`,
      status: response.status,
      deliveries: (response.headers.get(DELIVERIES_HEADER) ?? '').split(/\s*,\s*/).filter(Boolean),
    }
    const requestId = response.headers.get('x-request-id')
    if (requestId) exchange.request_id = requestId
    if (!response.ok) {
      const envelope = ErrorEnvelope.safeParse(await jsonOf(response))
      if (envelope.success) exchange.error = envelope.data.error
    }
    this.exchanges.push(exchange)
    return exchange
  }
}

/**
 * An SDK failure as a command reports it: a {@link MockUnreachableError} for no answer at all (the
 * mock went away), else the API's refusal in one line (the SDK's message names the status and code).
 */
export function describeApiFailure(error: unknown, base: string): string {
  if (error instanceof ConnectionError || error instanceof TimeoutError) {
    throw new MockUnreachableError(`cannot reach the mock at ${base}: ${error.message}`)
  }
  if (isApiError(error)) return error.message
  throw error
}
