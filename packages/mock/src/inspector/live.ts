/**
 * Live updates: `/__mock/stream` sends the counters of each part of the page on every change; the
 * page reads again only the parts whose counter moved, one read at a time (a change during a read
 * asks for one more).
 */
import { type Clock, call, optional, type Row, type State } from './api.js'
import { drawClock } from './clock.js'
import { byId } from './dom.js'
import { drawFaults } from './faults.js'
import { drawRequests } from './journal.js'
import { notice } from './notices.js'
import { drawAccounts, drawResellers, drawWebhooks } from './panels.js'
import { drawTickets } from './tickets.js'
import { type Part, view } from './view.js'

const PARTS: Part[] = ['store', 'journal', 'faults', 'clock']

/** Id of the oldest entry the journal keeps, from the last `change` event. */
let journalOldest: string | null = null

const idNumber = (entry: Row) => Number(String(entry.id).slice('req_'.length))

/**
 * Reads the journal entries the page does not have yet (`?after=`), plus the newest few that were
 * still unanswered when read, and forgets the entries the journal no longer keeps: a change costs
 * the new entries, not the whole journal.
 */
async function readJournal(): Promise<void> {
  const have = view.requests
  if (have === null || have.length === 0) {
    view.requests = await optional<Row[]>('requests')
    return
  }
  let keep = have.length
  for (let i = have.length - 1; i >= Math.max(0, have.length - 20); i--)
    if (have[i]!.status === null) keep = i
  const after = keep === 0 ? null : have[keep - 1]!.id
  const fresh = await optional<Row[]>(after === null ? 'requests' : `requests?after=${String(after)}`)
  if (fresh === null) return
  const oldest =
    journalOldest === null ? Number.POSITIVE_INFINITY : Number(journalOldest.slice('req_'.length))
  const kept = have.slice(0, keep).filter((entry) => idNumber(entry) >= oldest)
  view.requests = [...kept, ...fresh]
}

/** Reads one part into the view. */
const readers: Record<Part, () => Promise<void>> = {
  async store() {
    const [state, deliveries] = await Promise.all([
      call('GET', 'state') as Promise<State>,
      optional<Row[]>('deliveries'),
    ])
    view.state = state
    view.deliveries = deliveries
  },
  journal: readJournal,
  async faults() {
    view.faults = await optional<Row[]>('faults')
  },
  async clock() {
    view.clock = (await call('GET', 'clock')) as Clock
    view.clockReadAt = Date.now()
  },
}

/** Redraws one part. */
const drawers: Record<Part, () => void> = {
  store() {
    drawResellers()
    drawAccounts()
    drawTickets()
    drawWebhooks()
  },
  journal: drawRequests,
  faults: drawFaults,
  clock: drawClock,
}

const seen = new Map<Part, unknown>()
const dirty = new Set<Part>(PARTS)
let loading: Promise<void> | undefined

/** Reads and redraws every dirty part; one run at a time. */
function refresh(): Promise<void> {
  if (loading) return loading
  // Cleared in `finally`, which runs after this assignment even when nothing was dirty.
  loading = readDirty().finally(() => {
    loading = undefined
  })
  return loading
}

async function readDirty(): Promise<void> {
  while (dirty.size > 0) {
    const parts = [...dirty]
    dirty.clear()
    try {
      await Promise.all(parts.map((part) => readers[part]()))
      for (const part of parts) drawers[part]()
      document.body.dataset.version = String((Number(document.body.dataset.version) || 0) + 1)
    } catch (error) {
      // Read again at the next change, whatever its counters say.
      for (const part of parts) seen.delete(part)
      notice(byId('reset-notice'), `Could not read the mock: ${(error as Error).message}`, 'error')
      return
    }
  }
}

/** Marks the parts whose counter differs from the last seen as dirty, and reads them. */
function onChange(counters: Record<Part, unknown> & { journal_oldest?: unknown }): void {
  journalOldest = typeof counters.journal_oldest === 'string' ? counters.journal_oldest : null
  for (const part of PARTS) {
    if (!seen.has(part) || seen.get(part) !== counters[part]) dirty.add(part)
    seen.set(part, counters[part])
  }
  // A change heard during a read is read by the running loop; one heard as it ends, by a new one.
  void refresh().then(() => (dirty.size > 0 ? refresh() : undefined))
}

/** Opens the stream; on every (re)connect the first event brings the counters, so all is read again. */
export function connect(): void {
  const live = byId('live')
  const stream = new EventSource('stream')
  stream.addEventListener('open', () => {
    live.textContent = 'live'
    live.className = 'live live-on'
    // A new connection may be a restarted server: everything is read again, the journal whole.
    seen.clear()
    view.requests = null
  })
  stream.addEventListener('change', (event) => {
    let counters: Record<Part, unknown> & { journal_oldest?: unknown }
    try {
      counters = JSON.parse((event as MessageEvent<string>).data)
    } catch {
      counters = {} as Record<Part, unknown>
    }
    onChange(counters)
  })
  stream.addEventListener('error', () => {
    live.textContent = 'reconnecting…'
    live.className = 'live live-off'
  })
}
