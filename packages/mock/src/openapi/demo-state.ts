/** Values of the demo seed that the example requests of `operations.ts` read. */
import type { MockState } from '../controls.js'

export const ticketUuid = (state: MockState, status = 'open') => {
  const row = state.tables.tickets.find((t) => t.reseller_id === 1 && t.status === status)
  if (!row) throw new Error(`the demo seed has no ${status} ticket`)
  return row.uuid
}
export const account = (state: MockState, status: 'active' | 'suspended') => {
  const row = state.tables.accounts.find((a) => a.reseller_id === 1 && a.status === status)
  if (!row) throw new Error(`the demo seed has no ${status} account`)
  return row
}
export const acmeDelivery = [
  // A ticket creation sends `ticket.created` to the demo's general webhook `wh_demo`.
  {
    method: 'POST',
    path: '/api/v1/support/tickets',
    body: { subject: 'Example', message: 'Makes a delivery', department: 'general' },
  },
]
