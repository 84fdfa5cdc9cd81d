/** Faults over HTTP: `POST`, `GET`, `DELETE /__mock/faults`, `DELETE /__mock/faults/{id}`. */
import * as z from 'zod/mini'
import { Cleared } from '../control/schemas.js'
import { errors } from '../errors.js'
import { faultJson } from '../faults/registry.js'
import { FaultJson } from '../faults/schema.js'
import { data } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'

const open = { auth: 'none' } as const
const Faults = z.array(FaultJson)

export const faultRoutes: Route[] = [
  route('POST', '/__mock/faults', open, (call) => {
    // The schema and the route-table rules in one check: 422 names every failing field.
    const checked = call.mock.faults.check(call.body(z.unknown()))
    if (!checked.success) throw errors.validation(checked.fields)
    return data(FaultJson, faultJson(call.mock.faults.add(checked.fault)), 201)
  }),
  route('GET', '/__mock/faults', open, (call) => data(Faults, call.mock.faults.list().map(faultJson))),
  route('DELETE', '/__mock/faults', open, (call) => data(Cleared, { cleared: call.mock.faults.clear() })),
  route('DELETE', '/__mock/faults/:id', open, (call) => {
    const removed = call.mock.faults.remove(call.params.id!)
    if (removed === undefined) throw errors.notFound(`fault ${call.params.id}`)
    return data(FaultJson, faultJson(removed))
  }),
]
