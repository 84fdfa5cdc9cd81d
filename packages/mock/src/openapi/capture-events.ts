/**
 * Deliveries as the mock really sends them, caught before the network: a mock whose reseller
 * webhook and one general webhook (subscribed to every general event) point at two receivers its
 * dispatcher answers itself, 200 to every attempt. What the example deliveries of the documents'
 * `webhooks` are captured from (`pnpm run openapi:examples` freezes them in
 * `packages/sdk/openapi/webhook-examples.json`), and what `test/api/openapi-webhooks.test.ts`
 * checks against those entries.
 */
import { GENERAL_EVENTS, RESELLER_EVENTS } from '@reseller-api/sdk/schemas'
import type { MockApi } from '../mock-api.js'
import { assembleMock } from '../mock-api.js'
import { DELIVERY_ID_HEADER, EVENT_HEADER } from '../webhooks/attempt.js'
import { EXAMPLE_TIME } from './capture.js'

/** One delivery the mock sent: which webhook style received it, its id, event and exact body. */
export interface CapturedDelivery {
  style: 'reseller' | 'general'
  event: string
  delivery: string
  body: string
}

/** What a capture's steps get: the mock, a request helper with the demo key, and the general webhook's id. */
export interface CaptureSession {
  mock: MockApi
  /** A request to the API (`/api/v1` + `path`) with the demo seed's key that has every scope. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>
  /** The id of the general webhook the capture created. */
  webhookId: string
}

const RESELLER_URL = 'https://reseller-receiver.example/hook'
const GENERAL_URL = 'https://general-receiver.example/hook'
/** The demo seed's key with every scope, and its reseller. */
const KEY = 'svc_live_acme_full'
const RESELLER_ID = 1

/**
 * Runs `steps` on a demo mock whose webhooks point at receivers the capture answers, lets every
 * delivery they cause be sent (`clock.advance(0)`), and returns the deliveries in the order sent.
 * With `at`, the mock's time stands still at it (one commit, one capture).
 */
export async function captureDeliveries(
  steps: (session: CaptureSession) => Promise<void>,
  options: { at?: number } = {},
): Promise<CapturedDelivery[]> {
  const realNow = Date.now
  if (options.at !== undefined) {
    const at = options.at
    Date.now = () => at
  }
  const { mock, context } = assembleMock({
    baseUrl: 'https://openapi-events.reseller.test',
    insecureWebhooks: true,
  })
  const caught: CapturedDelivery[] = []
  context.dispatcher.configure({
    bypassMsw: false,
    fetch: async (input, init) => {
      const request = new Request(input, init)
      caught.push({
        style: request.url === RESELLER_URL ? 'reseller' : 'general',
        event: request.headers.get(EVENT_HEADER) ?? '',
        delivery: request.headers.get(DELIVERY_ID_HEADER) ?? '',
        body: await request.text(),
      })
      return new Response('ok', { status: 200 })
    },
  })
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await mock.fetch(`${mock.baseUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${KEY}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) }
  }
  try {
    const expectStatus = (what: string, answer: { status: number; body: unknown }, status: number) => {
      if (answer.status !== status)
        throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
      return answer.body as { data: { id: string } }
    }
    expectStatus(
      'PUT /reseller/webhook',
      await api('PUT', '/reseller/webhook', { url: RESELLER_URL, secret: 'whsec_capture' }),
      200,
    )
    const created = expectStatus(
      'POST /webhooks',
      await api('POST', '/webhooks', { url: GENERAL_URL, events: [...GENERAL_EVENTS] }),
      201,
    )
    await steps({ mock, api, webhookId: created.data.id })
    await mock.clock.advance(0)
  } finally {
    mock.reset() // drops anything still scheduled
    context.dispatcher.stop()
    Date.now = realNow
  }
  return caught
}

/**
 * Makes the mock send every event of both styles once, with its sample data (`mock.emit`), and
 * the general test event (the test endpoint): one delivery per entry of the documents' `webhooks`.
 */
export async function emitEveryEvent({ mock, api, webhookId }: CaptureSession): Promise<void> {
  for (const event of RESELLER_EVENTS) await mock.emit({ reseller_id: RESELLER_ID, style: 'reseller', event })
  for (const event of GENERAL_EVENTS) await mock.emit({ reseller_id: RESELLER_ID, style: 'general', event })
  const test = await api('POST', `/webhooks/${webhookId}/test`, { event: 'test' })
  if (test.status !== 200) throw new Error(`the general test endpoint answered ${test.status}`)
}

/**
 * The example delivery of every entry of the documents' `webhooks`, by entry key
 * (`reseller/hosting.created`): each event sent once at {@link EXAMPLE_TIME}.
 */
export async function captureEventExamples(): Promise<Record<string, { delivery: string; body: string }>> {
  const out: Record<string, { delivery: string; body: string }> = {}
  for (const { style, event, delivery, body } of await captureDeliveries(emitEveryEvent, {
    at: EXAMPLE_TIME,
  }))
    out[`${style}/${event}`] ??= { delivery, body }
  // By key: the file reads the same whatever order the deliveries were sent in.
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}
