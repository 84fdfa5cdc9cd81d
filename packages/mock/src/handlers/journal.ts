/** The request journal over HTTP: `GET` and `DELETE /__mock/requests`. */
import { control } from '../control/operations.js'
import { type Route, route } from '../routing/route.js'

export const journalRoutes: Route[] = [
  route(control.requests.list, (call) => call.answer(call.mock.journal.list(call.query()))),
  route(control.requests.clear, (call) => call.answer({ cleared: call.mock.journal.clear() })),
]
