/**
 * `reseller-mock trigger EVENT --mock URL --key KEY`: the running mock emits EVENT for the key's
 * reseller through the operation that causes it where the API has one, else `POST /__mock/events`,
 * and this prints each request made and the first attempt of each delivery of EVENT that followed.
 * The deliveries a request caused are named by its answer (`X-Mock-Deliveries`); their attempts
 * come through the delivery stream, opened before the first request so that none is missed.
 */
import { randomBytes } from 'node:crypto'
import type { ResellerApi } from '@reseller-api/sdk'
import type { EmitEventInput } from '../control/types.js'
import type { AttemptMessage, QueuedMessage } from '../server/inspector/delivery-stream.js'
import { commandFailure } from './errors.js'
import type { Style } from './event-names.js'
import {
  describeApiFailure,
  type Exchange,
  type KeyOwner,
  MockSession,
  MockUnreachableError,
} from './mock-session.js'
import { answerLine, paint, printTimed, sentLine } from './output.js'

/** How long the first attempts may take to come, in real time. */
export const FIRST_ATTEMPT_WAIT_MS = 10_000

/** What `triggerOnMock` was asked. */
export interface TriggerOnMock {
  event: string
  style: Style
  mock: string
  key: string
  json: boolean
}

/** One delivery of the event, as `--json` lists it. */
interface DeliveryReport {
  delivery_id: string
  webhook_id: string
  url: string | null
  /** `success` or `failed` after the first attempt; `pending` when none came within the wait. */
  status: 'success' | 'failed' | 'pending'
  http_status: number | null
  error: string | null
  duration_ms: number | null
}

/** The operation run against the mock for the event: the requests it makes, in order. */
type Operation = (api: ResellerApi, session: MockSession, owner: KeyOwner) => Promise<string | undefined>

/** A domain no account has: provisioning refuses a taken one. */
const freshDomain = () => `trigger-${randomBytes(4).toString('hex')}.example`

/** Provisioning for the reseller's first client and package (`register_domain` for its events). */
const provision =
  (registerDomain: boolean): Operation =>
  async (api, _session, owner) => {
    const client = owner.clients[0]
    const pkg = owner.packages[0]
    if (client === undefined || pkg === undefined)
      return `reseller ${owner.resellerId} has no ${client === undefined ? 'client' : 'WHM package'} to provision for`
    await api.hosting.create(client, {
      domain: freshDomain(),
      whm_package: pkg,
      register_domain: registerDomain,
    })
    return undefined
  }

const openTicket = (api: ResellerApi) =>
  api.tickets.create({
    subject: 'Opened by reseller-mock trigger',
    message: 'A ticket opened to emit a webhook event.',
    department: 'technical',
  })

/** `POST /__mock/events`; sandbox keys' reseller-style events carry `sandbox: true`. */
const emitted =
  (event: string, style: Style): Operation =>
  async (_api, session, owner) => {
    const sandbox = style === 'reseller' && owner.sandbox ? { sandbox: true } : {}
    // The event's name was checked against the catalogue (`event-names.ts`); the mock checks it again.
    const input = { reseller_id: owner.resellerId, event, style, ...sandbox } as EmitEventInput
    const exchange = await session.emit(input)
    return exchange.error ? `${exchange.status} ${exchange.error.code}: ${exchange.error.message}` : undefined
  }

/**
 * The operation that causes `event` (docs/developer-loop.md, "What trigger does on a mock"). A
 * sandbox key provisions nothing, so its domain and wallet events come from `POST /__mock/events`.
 */
function operationFor(event: string, style: Style, sandbox: boolean): Operation {
  if (style === 'reseller') {
    if (event === 'hosting.created') return provision(false)
    if ((event === 'domain.registered' || event === 'wallet.debited') && !sandbox) return provision(true)
    return emitted(event, style)
  }
  if (event === 'ticket.created') return async (api) => void (await openTicket(api))
  if (event === 'ticket.replied') {
    return async (api, session) => {
      const ticket = await openTicket(api)
      const exchange = await session.staffReply(
        ticket.ticket_id,
        'A staff reply sent by reseller-mock trigger.',
      )
      return exchange.error
        ? `${exchange.status} ${exchange.error.code}: ${exchange.error.message}`
        : undefined
    }
  }
  if (event === 'test') {
    return async (api, _session, owner) => {
      for (const webhook of owner.webhooks) await api.webhooks.test(webhook.id, { event: 'test' })
      return undefined
    }
  }
  return emitted(event, style)
}

/** Runs the operation; resolves to the failure's text, or `undefined` when it succeeded. */
async function runOperation(
  operation: Operation,
  api: ResellerApi,
  session: MockSession,
  owner: KeyOwner,
  base: string,
) {
  try {
    return await operation(api, session, owner)
  } catch (error) {
    return describeApiFailure(error, base)
  }
}

/** The request line: `POST /api/v1/support/tickets 201 req_…` or its refusal. */
function requestLine(exchange: Exchange): string {
  const id = exchange.request_id ? ` ${paint('dim', exchange.request_id)}` : ''
  const outcome = exchange.error ? ` ${exchange.error.code}: ${exchange.error.message}` : ''
  const status = paint(exchange.status < 300 ? 'green' : 'red', String(exchange.status))
  return `${exchange.method} ${exchange.path} ${status}${id}${outcome}`
}

/** Resolves when `ready()` holds, re-checked at each `wake`, or after `ms`. */
function waitUntil(ready: () => boolean, ms: number, onWake: (wake: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    const check = () => {
      if (!ready()) return
      clearTimeout(timer)
      resolve()
    }
    onWake(check)
    check()
  })
}

/** Emits the event on the mock, follows its deliveries' first attempts, reports; the exit code. */
export async function triggerOnMock(options: TriggerOnMock): Promise<number> {
  const fail = (message: string, code = 1) => {
    process.stderr.write(`reseller-mock trigger: ${message}\n`)
    return code
  }
  const session = new MockSession(options.mock)
  let api: ResellerApi
  try {
    api = session.api(options.key)
  } catch (error) {
    return commandFailure('trigger', `--key: ${(error as Error).message}`, true)
  }
  const queued = new Map<string, QueuedMessage>()
  const first = new Map<string, AttemptMessage>()
  let wake = () => {}
  try {
    const owner = await session.keyOwner(options.key)
    if (!owner)
      return fail(
        `the mock at ${options.mock} has no API key ${options.key} (it prints its keys when it starts)`,
      )
    const follower = await session.follow({
      onQueued: (message) => {
        queued.set(message.delivery_id, message)
        wake()
      },
      onAttempt: (message) => {
        if (message.attempt === 1 && !first.has(message.delivery_id)) first.set(message.delivery_id, message)
        wake()
      },
    })
    try {
      const failure = await runOperation(
        operationFor(options.event, options.style, owner.sandbox),
        api,
        session,
        owner,
        options.mock,
      )
      if (!options.json) for (const exchange of session.exchanges) printTimed(requestLine(exchange))
      const caused = session.exchanges.flatMap((exchange) => exchange.deliveries)
      // Known once each caused delivery's `queued` message arrived (written before the answer left).
      const ofEvent = () => caused.filter((id) => (queued.get(id) ?? first.get(id))?.event === options.event)
      if (failure === undefined) {
        await waitUntil(
          () =>
            caused.every((id) => queued.has(id) || first.has(id)) && ofEvent().every((id) => first.has(id)),
          FIRST_ATTEMPT_WAIT_MS,
          (check) => {
            wake = check
          },
        )
      }
      const deliveries = ofEvent().map((id) => report(id, queued.get(id), first.get(id)))
      if (options.json) {
        process.stdout.write(
          `${JSON.stringify({ event: options.event, style: options.style, requests: session.exchanges, deliveries }, null, 2)}\n`,
        )
      } else if (failure === undefined) {
        printDeliveries(options.event, deliveries, owner)
      }
      if (failure !== undefined) return fail(`the operation failed: ${failure}`)
      return deliveries.every((d) => d.status === 'success') ? 0 : 1
    } finally {
      follower.close()
    }
  } catch (error) {
    if (error instanceof MockUnreachableError) return fail(error.message, 2)
    throw error
  }
}

function report(
  id: string,
  queued: QueuedMessage | undefined,
  attempt: AttemptMessage | undefined,
): DeliveryReport {
  return {
    delivery_id: id,
    webhook_id: (attempt ?? queued)!.webhook_id,
    url: (attempt ?? queued)!.url,
    status: attempt?.status ?? 'pending',
    http_status: attempt?.http_status ?? null,
    error: attempt ? attempt.error : `no attempt within ${FIRST_ATTEMPT_WAIT_MS / 1000} s`,
    duration_ms: attempt?.duration_ms ?? null,
  }
}

function printDeliveries(event: string, deliveries: DeliveryReport[], owner: KeyOwner): void {
  if (deliveries.length === 0) {
    printTimed(
      `No webhook of reseller ${owner.resellerId} receives ${event}: nothing was delivered (reseller-mock listen points one at your receiver)`,
    )
    return
  }
  for (const d of deliveries) {
    const to = d.webhook_id === 'reseller' ? 'reseller webhook' : `general webhook ${d.webhook_id}`
    printTimed(sentLine(event, d.delivery_id, ` to the ${to}`))
    printTimed(
      d.status === 'pending'
        ? `<-- ${paint('yellow', '[PENDING]')} POST ${d.url ?? '(webhook gone)'} ${d.error}`
        : answerLine(d.url, {
            status: d.http_status,
            durationMs: d.duration_ms ?? undefined,
            error: d.error,
          }),
    )
  }
}
