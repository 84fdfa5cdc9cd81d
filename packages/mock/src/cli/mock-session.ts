/**
 * How the developer-loop commands talk to a running mock: its control endpoints (`/__mock/…`)
 * through the control client (`control/client.ts`) and its delivery stream (the path of its
 * declaration); its API through the SDK (`ResellerApi`). Both record each exchange, so that
 * `trigger` can print every request it made. A mock that cannot be reached, or a server that is not
 * a mock, is a {@link MockUnreachableError} (exit 2).
 */
import { ConnectionError, isApiError, ResellerApi, TimeoutError } from '@reseller-api/sdk'
import { ErrorBody } from '@reseller-api/sdk/schemas'
import { EventSourceParserStream } from 'eventsource-parser/stream'
import { type ControlClient, ControlError, createControlClient } from '../control/client.js'
import { control } from '../control/operations.js'
import type { DeliveryView } from '../control/schemas.js'
import type { EmitEventInput } from '../control/types.js'
import { DELIVERIES_HEADER } from '../routing/core.js'
import { AttemptMessage, QueuedMessage } from '../server/inspector/delivery-stream.js'

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
  /** Its control endpoints; `recorded` adds each exchange to {@link exchanges}. */
  readonly #control: ControlClient
  readonly #recorded: ControlClient

  constructor(base: string) {
    this.#base = base.replace(/\/+$/, '')
    this.#control = createControlClient({ baseUrl: this.#base })
    this.#recorded = createControlClient({
      baseUrl: this.#base,
      onResponse: async (response, request) =>
        void (await this.#record(request.method, request.url, response)),
    })
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
    const state = await this.#unreachable(this.#control.state()).catch((error: unknown) => {
      if (error instanceof ControlError) throw this.#notAMock(error.request, error.status)
      throw error
    })
    // The client hands the store's snapshot on as it came: a server that is not a mock may send any.
    const { tables } = state
    if (![tables?.apiKeys, tables?.clients, tables?.packages, tables?.webhooks].every(Array.isArray))
      throw this.#notAMock('GET /__mock/state', 200)
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

  /** `POST /__mock/events`: emits an event for a reseller; the mock's refusal is in the exchange. */
  emit(input: EmitEventInput): Promise<Exchange> {
    return this.#exchange(this.#recorded.emit(input))
  }

  /** `POST /__mock/tickets/{uuid}/replies`: a staff reply (visible), which emits `ticket.replied`. */
  staffReply(ticketUuid: string, message: string): Promise<Exchange> {
    return this.#exchange(this.#recorded.tickets.staffReply(ticketUuid, { message }))
  }

  /**
   * `POST /__mock/deliveries/{id}/redeliver`: the new delivery after its first attempt. Rejects
   * with the mock's {@link ControlError} (`not_found` for an unknown id).
   */
  redeliver(deliveryId: string): Promise<DeliveryView> {
    return this.#unreachable(this.#control.deliveries.redeliver(deliveryId))
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
    const { path } = control.deliveries.stream
    const query = handlers.url === undefined ? '' : `?url=${encodeURIComponent(handlers.url)}`
    let response: Response
    try {
      response = await fetch(`${this.#base}${path}${query}`, {
        signal: controller.signal,
        headers: { accept: 'text/event-stream' },
      })
    } catch (error) {
      throw new MockUnreachableError(`cannot reach the mock at ${this.#base}: ${reasonOf(error)}`)
    }
    if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel()
      throw new MockUnreachableError(
        `${this.#base} does not serve the delivery stream of a reseller-mock (GET ${path}: ${response.status})`,
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

  /**
   * A control call's answer; no answer, or one that is not the mock's, as a
   * {@link MockUnreachableError}. The mock's own refusals stay {@link ControlError}s.
   */
  async #unreachable<T>(call: Promise<T>): Promise<T> {
    try {
      return await call
    } catch (error) {
      if (!(error instanceof ControlError)) throw error
      if (error.code === 'unreachable')
        throw new MockUnreachableError(`cannot reach the mock at ${this.#base}: ${reasonOf(error.cause)}`)
      if (error.code === 'unexpected_answer') throw this.#notAMock(error.request, error.status)
      throw error
    }
  }

  #notAMock(request: string, status: number): MockUnreachableError {
    return new MockUnreachableError(
      `${this.#base} does not answer as a reseller-mock (${request}: ${status})`,
    )
  }

  /** A recorded control call as its {@link Exchange} (the last one recorded): a refusal included. */
  async #exchange(call: Promise<unknown>): Promise<Exchange> {
    try {
      await this.#unreachable(call)
    } catch (error) {
      if (!(error instanceof ControlError)) throw error
    }
    return this.exchanges.at(-1)!
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
      const envelope = ErrorBody.safeParse(await jsonOf(response))
      if (envelope.success)
        exchange.error = { code: envelope.data.error.code, message: envelope.data.error.message }
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
