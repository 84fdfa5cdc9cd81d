/** What the page last read from the mock, part by part; each part is read again only when it changed. */
import type { Clock, Row, State } from './api.js'

/** The parts of the page, each with its own counter in the stream's `change` events. */
export type Part = 'store' | 'journal' | 'faults' | 'clock'

export interface View {
  state: State | null
  deliveries: Row[] | null
  requests: Row[] | null
  faults: Row[] | null
  clock: Clock | null
  /** `Date.now()` when `clock` was read: the header's clock ticks on from there. */
  clockReadAt: number
}

export const view: View = {
  state: null,
  deliveries: null,
  requests: null,
  faults: null,
  clock: null,
  clockReadAt: 0,
}
