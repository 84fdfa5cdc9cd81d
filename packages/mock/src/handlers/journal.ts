/** The request journal over HTTP: `GET` and `DELETE /__mock/requests`. */
import * as z from 'zod/mini'
import { Cleared } from '../control/schemas.js'
import { JournalEntry, JournalQuery } from '../journal/schema.js'
import { data } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'

const open = { auth: 'none' } as const

const Entries = z.array(JournalEntry)

export const journalRoutes: Route[] = [
  route('GET', '/__mock/requests', open, (call) =>
    data(Entries, call.mock.journal.list(call.query(JournalQuery))),
  ),
  route('DELETE', '/__mock/requests', open, (call) => data(Cleared, { cleared: call.mock.journal.clear() })),
]
