/**
 * The delivery routes: the two test endpoints, the delivery history, and the
 * inspector's delivery list and "redeliver now". Deliveries themselves are the dispatcher's
 * (`context.dispatcher`, src/webhooks/).
 */
import { GeneralEvent, operations, ResellerEvent } from '@reseller-api/sdk/schemas'
import { sampleEventData, signPayload } from '@reseller-api/sdk/webhooks'
import type { MockContext } from '../context.js'
import { control } from '../control/operations.js'
import type { DeliveryView } from '../control/schemas.js'
import { findWebhook } from '../domain/webhooks.js'
import { errors } from '../errors.js'
import { type Route, route } from '../routing/route.js'
import { withUtcOffset } from '../state/clock.js'
import type { DeliveryRow } from '../state/schemas.js'
import { RESELLER_WEBHOOK_ID } from '../webhooks/dispatcher.js'

/** The delivery view of a record: where it goes and how it is signed, with the webhook's current secret. */
async function viewOf(store: MockContext['store'], row: DeliveryRow): Promise<DeliveryView> {
  const target =
    row.webhook_id === RESELLER_WEBHOOK_ID
      ? store.resellerWebhooks.get(row.reseller_id)
      : store.webhooks.get(row.webhook_id)
  return {
    ...row,
    url: target?.url ?? null,
    signature: target ? await signPayload(row.payload, target.secret) : null,
    redelivery_of: row.redelivery_of ?? null,
  }
}

export const deliveryRoutes: Route[] = [
  route(
    operations.resellerWebhook.test,
    async (call) => {
      const { store } = call.mock
      const config = store.resellerWebhooks.get(call.caller.reseller.id)
      if (!config) {
        throw errors.notFound(
          'reseller webhook (none is configured: set one with PUT /api/v1/reseller/webhook)',
        )
      }
      // A fictitious event with the SDK's sample data (as `mock.emit` sends it), marked as
      // simulated: `sandbox: true`, as sandbox events always are. Recorded like any delivery (the
      // history shows it), attempted once: the answer tells the caller how it went.
      const payload = ResellerEvent.parse({
        event: 'hosting.created',
        sandbox: true,
        timestamp: store.timestamp(),
        data: sampleEventData('reseller', 'hosting.created'),
      })
      const record = await call.mock.dispatcher.deliverNow(
        call.caller.reseller.id,
        RESELLER_WEBHOOK_ID,
        payload.event,
        payload,
        { retry: false },
      )
      return call.answer({
        url: config.url,
        status_code: record.http_status,
        delivered: record.status === 'success',
        error: record.error ?? null,
      })
    },
    { transaction: false },
  ),

  route(
    operations.webhooks.test,
    async (call) => {
      const webhook = findWebhook(call.mock.store, call.caller, call.params.id!)
      const { event } = call.body() // empty → {} (`bodyOptional` of the declaration)
      const payload = GeneralEvent.parse({
        event,
        created_at: withUtcOffset(call.mock.store.timestamp()),
        data: sampleEventData('general', event),
      })
      const record = await call.mock.dispatcher.deliverNow(webhook.reseller_id, webhook.id, event, payload)
      return call.answer(record)
    },
    { transaction: false },
  ),

  route(operations.webhooks.deliveries, (call) => {
    const webhook = findWebhook(call.mock.store, call.caller, call.params.id!)
    return call.answerPage(call.mock.store.deliveries.group('webhook', webhook.id))
  }),

  // Every delivery of every reseller, newest first, with its signature header: the inspector's list.
  route(
    control.deliveries.list,
    async (call) => {
      const { store } = call.mock
      const rows = Array.from(store.deliveries.all()).reverse()
      return call.answer(await Promise.all(rows.map((row) => viewOf(store, row))))
    },
    { transaction: false },
  ),

  // "Redeliver now": a new delivery of the same bytes, first attempt at once (see Dispatcher.redeliver).
  route(
    control.deliveries.redeliver,
    async (call) => {
      const id = call.params.delivery_id!
      const record = await call.mock.dispatcher.redeliver(id)
      if (!record) throw errors.notFound(`delivery ${id}`)
      return call.answer(await viewOf(call.mock.store, record))
    },
    { transaction: false },
  ),
]
