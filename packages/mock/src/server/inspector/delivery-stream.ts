/**
 * `GET /__mock/deliveries/stream`: the webhook deliveries of a served mock as they happen, as
 * server-sent events (docs/running-the-mock.md, "Following deliveries"). One `queued` event per
 * delivery recorded, one `attempt` event per attempt made, written the moment the dispatcher tells
 * of it; `reseller-mock listen` and `reseller-mock trigger` read it. Nothing is replayed: a client
 * sees what happens after its stream opened (the answer's headers arrive once it is subscribed).
 * `?url=` keeps the events of deliveries to that exact URL.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Count, Id, TimestampMicros } from '@reseller-api/sdk/schemas'
import * as z from 'zod/mini'
import { control } from '../../control/operations.js'
import type { DeliveryNotice } from '../../webhooks/dispatcher.js'
import type { MockDispatcher } from '../../webhooks/index.js'

/** Path of the delivery stream, as declared with the other control endpoints. */
const DELIVERY_STREAM_PATH = control.deliveries.stream.path
/** A comment line this often keeps proxies and idle timeouts from closing the stream. */
const HEARTBEAT_MS = 15_000

/** What every event of the stream says about its delivery. */
const DeliveryFields = {
  delivery_id: z.string(),
  /** For a redelivery: the delivery whose id its attempts carry in `X-Service-Delivery`. */
  redelivery_of: z.nullable(z.string()),
  event: z.string(),
  /** `reseller` for the reseller webhook, else the general webhook's id. */
  webhook_id: z.string(),
  reseller_id: Id,
  /** Where it goes (`queued`) or went (`attempt`); `null` once its webhook is gone. */
  url: z.nullable(z.string()),
}

/** `event: queued`: a delivery was recorded; its first attempt is due now. */
export const QueuedMessage = z.object({ ...DeliveryFields, created_at: TimestampMicros })
export type QueuedMessage = z.infer<typeof QueuedMessage>

/** `event: attempt`: one attempt was made (mock times; `duration_ms` in real milliseconds). */
export const AttemptMessage = z.object({
  ...DeliveryFields,
  /** 1 for the first attempt, up to 4. */
  attempt: Count,
  status: z.enum(['success', 'failed']),
  /** The receiver's status, `null` when no HTTP answer came. */
  http_status: z.nullable(z.int()),
  /** Why the attempt failed, `null` on success. */
  error: z.nullable(z.string()),
  duration_ms: Count,
  attempted_at: TimestampMicros,
  /** When the retry is due (mock time), `null` when none will be made. */
  next_attempt_at: z.nullable(TimestampMicros),
})
export type AttemptMessage = z.infer<typeof AttemptMessage>

/** The stream event of a notice: its name and its JSON. */
function messageOf(notice: DeliveryNotice): {
  name: 'queued' | 'attempt'
  data: QueuedMessage | AttemptMessage
} {
  const d = notice.delivery
  const fields = {
    delivery_id: d.delivery_id,
    redelivery_of: d.redelivery_of ?? null,
    event: d.event,
    webhook_id: d.webhook_id,
    reseller_id: d.reseller_id,
    url: notice.url,
  }
  if (notice.type === 'queued') return { name: 'queued', data: { ...fields, created_at: d.created_at } }
  return {
    name: 'attempt',
    data: {
      ...fields,
      attempt: d.attempts,
      status: notice.result.ok ? 'success' : 'failed',
      http_status: notice.result.httpStatus,
      error: notice.result.error,
      duration_ms: notice.result.durationMs,
      attempted_at: d.attempted_at ?? d.created_at,
      next_attempt_at: d.next_attempt_at,
    },
  }
}

/** The delivery stream of a dispatcher: serves its path, and ends its clients on `close()`. */
export function createDeliveryStream(dispatcher: MockDispatcher) {
  const clients = new Map<ServerResponse, string | null>()
  let unsubscribe: (() => void) | undefined
  let heartbeat: ReturnType<typeof setInterval> | undefined

  const onNotice = (notice: DeliveryNotice) => {
    const { name, data } = messageOf(notice)
    const text = `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`
    for (const [res, url] of clients) if (url === null || url === data.url) res.write(text)
  }
  // Subscribed while a client is connected: an idle mock pays nothing per delivery.
  const drop = (res: ServerResponse) => {
    clients.delete(res)
    if (clients.size > 0) return
    unsubscribe?.()
    unsubscribe = undefined
    clearInterval(heartbeat)
  }

  return {
    /** Answers `GET /__mock/deliveries/stream`; returns `false` for any other request. */
    serve(req: IncomingMessage, res: ServerResponse, path: string): boolean {
      if (path !== DELIVERY_STREAM_PATH || req.method !== 'GET') return false
      const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '')
      if (clients.size === 0) {
        unsubscribe = dispatcher.onDelivery(onNotice)
        heartbeat = setInterval(() => {
          for (const client of clients.keys()) client.write(': keep-alive\n\n')
        }, HEARTBEAT_MS)
        heartbeat.unref?.()
      }
      clients.set(res, query.get('url'))
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      })
      // Sent at once: the client knows it is subscribed when the headers arrive.
      res.write(': subscribed\n\n')
      req.on('close', () => drop(res))
      return true
    },
    close(): void {
      for (const res of clients.keys()) res.end()
      for (const res of [...clients.keys()]) drop(res)
    },
  }
}
