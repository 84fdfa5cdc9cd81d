/**
 * `POST /__mock/events`: emits any event of the API through the real delivery
 * path. No key needed, like every control endpoint.
 */
import { control } from '../control/operations.js'
import { emitEvent } from '../domain/events.js'
import { type Route, route } from '../routing/route.js'

export const eventRoutes: Route[] = [
  route(control.events.emit, (call) => call.answer(emitEvent(call.mock, call.body()))),
]
