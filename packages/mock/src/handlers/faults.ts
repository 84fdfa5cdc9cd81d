/** Faults over HTTP: `POST`, `GET`, `DELETE /__mock/faults`, `DELETE /__mock/faults/{id}`. */
import * as z from 'zod/mini'
import { control } from '../control/operations.js'
import { errors } from '../errors.js'
import { faultJson } from '../faults/registry.js'
import { type Route, route } from '../routing/route.js'

export const faultRoutes: Route[] = [
  route(control.faults.add, (call) => {
    // Read raw, then the schema and the route-table rules in one check: 422 names every failing
    // field (the declared body, FaultSpec, is the first half of that check).
    const checked = call.mock.faults.check(call.body(z.unknown()))
    if (!checked.success) throw errors.validation(checked.fields)
    return call.answer(faultJson(call.mock.faults.add(checked.fault)))
  }),
  route(control.faults.list, (call) => call.answer(call.mock.faults.list().map(faultJson))),
  route(control.faults.clear, (call) => call.answer({ cleared: call.mock.faults.clear() })),
  route(control.faults.remove, (call) => {
    const removed = call.mock.faults.remove(call.params.id!)
    if (removed === undefined) throw errors.notFound(`fault ${call.params.id}`)
    return call.answer(faultJson(removed))
  }),
]
