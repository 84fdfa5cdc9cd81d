/**
 * `POST /__mock/events`: emits any event of the API through the real delivery
 * path. No key needed, like every control endpoint.
 */
import { WebhookEvent } from '@reseller-api/sdk/schemas'
import { EmitEventBody, emitEvent } from '../domain/events.js'
import { data } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'

export const eventRoutes: Route[] = [
  route('POST', '/__mock/events', { auth: 'none' }, (call) =>
    data(WebhookEvent, emitEvent(call.mock, call.body(EmitEventBody)), 201),
  ),
]
