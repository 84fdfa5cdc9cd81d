/**
 * The request log's delivery lines: one per webhook delivery attempt, beside the lines of the
 * requests, so that a receiver developer watching the server's terminal sees the attempts too.
 *
 *   webhook ticket.created dlv_3f0c… attempt 1: POST http://127.0.0.1:3000/hook 200 12ms
 *   webhook ticket.created dlv_3f0c… attempt 1: POST http://127.0.0.1:3000/hook 500 3ms, retry due 2026-01-15T12:01:00.123456Z
 */
import type { DeliveryNotice } from '../../webhooks/dispatcher.js'
import type { MockDispatcher } from '../../webhooks/index.js'

/** The log line of an attempt. */
export function deliveryLogLine(notice: Extract<DeliveryNotice, { type: 'attempt' }>): string {
  const { delivery, result, url } = notice
  const outcome =
    result.httpStatus === null ? `error (${result.error ?? 'no answer'})` : String(result.httpStatus)
  const retry = delivery.next_attempt_at === null ? '' : `, retry due ${delivery.next_attempt_at}`
  return `webhook ${delivery.event} ${delivery.delivery_id} attempt ${delivery.attempts}: POST ${url ?? '(webhook gone)'} ${outcome} ${result.durationMs}ms${retry}`
}

/** Writes a line to `log` for every attempt of `dispatcher`; returns the function that stops it. */
export function logDeliveries(dispatcher: MockDispatcher, log: (line: string) => void): () => void {
  return dispatcher.onDelivery((notice) => {
    if (notice.type === 'attempt') log(deliveryLogLine(notice))
  })
}
