/**
 * The inspector page (contract §6.5), served by the standalone server at `/__mock/`. It reads the
 * control endpoints (relative URLs: the page lives at `/__mock/`), listens to `/__mock/stream` for
 * "something changed" and reads them again, and drives the mock through the same endpoints a test
 * would call. Forms sit outside the parts that are redrawn, so a live update never eats typing.
 */
import './app.css'
import { byId, type Child, h, replace } from './dom.js'

// ---------------------------------------------------------------------------------------------
// Data: what the control endpoints answer (only the fields shown here).

interface Row {
  [field: string]: unknown
}
interface State {
  tables: Record<string, Row[]>
  clock_offset_ms: number
}
interface Clock {
  now: string
  offset_ms: number
}
interface View {
  state: State | null
  deliveries: Row[] | null
  requests: Row[] | null
  faults: Row[] | null
  clock: Clock | null
}

/** Values the server puts in the page (from the SDK's schemas), so that they are never restated here. */
const config = JSON.parse(byId('inspector-config').textContent ?? '{}') as { ticket_statuses: string[] }

/** An answer that is not `{ success: true }`, with the API's message. */
class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await response.json().catch(() => null)) as {
    success?: boolean
    data?: unknown
    error?: { message?: string; fields?: Record<string, string[]> }
  } | null
  if (!response.ok || !json?.success) {
    const fields = json?.error?.fields
    const detail = fields
      ? `: ${Object.entries(fields)
          .map(([name, messages]) => `${name} ${messages.join(', ')}`)
          .join('; ')}`
      : ''
    throw new ControlError(response.status, `${json?.error?.message ?? `HTTP ${response.status}`}${detail}`)
  }
  return json.data
}

/** A read that an older mock may not serve yet: `null` on 404. */
async function optional<T>(path: string): Promise<T | null> {
  try {
    return (await call('GET', path)) as T
  } catch (error) {
    if (error instanceof ControlError && error.status === 404) return null
    throw error
  }
}

async function load(): Promise<View> {
  const [state, deliveries, requests, faults, clock] = await Promise.all([
    call('GET', 'state') as Promise<State>,
    optional<Row[]>('deliveries'),
    optional<Row[]>('requests'),
    optional<Row[]>('faults'),
    optional<Clock>('clock'),
  ])
  return { state, deliveries, requests, faults, clock }
}

// ---------------------------------------------------------------------------------------------
// Small pieces.

const text = (value: unknown): string => (value === null || value === undefined ? '—' : String(value))
const badge = (label: unknown, kind = String(label)) =>
  h('span', { class: `badge badge-${kind.replace(/[^a-z0-9_-]/gi, '')}` }, text(label))
const code = (value: unknown) => h('code', null, text(value))
const empty = (what: string) => h('p', { class: 'empty' }, what)
/** The ticket choice of the staff forms; `drawTickets` fills every `.ticket-select` with the tickets. */
const ticketPicker = () =>
  h('label', null, 'Ticket ', h('select', { name: 'ticket', class: 'ticket-select', required: true }))
const pretty = (json: unknown): string => {
  if (typeof json !== 'string') return JSON.stringify(json, null, 2)
  try {
    return JSON.stringify(JSON.parse(json), null, 2)
  } catch {
    return json
  }
}
function table(head: string[], rows: Child[][]): HTMLTableElement {
  return h(
    'table',
    null,
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        head.map((cell) => h('th', null, cell)),
      ),
    ),
    h(
      'tbody',
      null,
      rows.map((row) =>
        h(
          'tr',
          null,
          row.map((cell) => h('td', null, cell)),
        ),
      ),
    ),
  )
}

/** `<details>` that stay open across redraws: their keys are remembered here. */
const openKeys = new Set<string>()
function details(key: string, summary: Child[], ...body: Child[]): HTMLDetailsElement {
  const element = h(
    'details',
    { 'data-key': key, open: openKeys.has(key) },
    h('summary', null, summary),
    h('div', { class: 'details-body' }, body),
  )
  element.addEventListener('toggle', () => {
    if (element.open) openKeys.add(key)
    else openKeys.delete(key)
  })
  return element
}

let noticeTimer: ReturnType<typeof setTimeout> | undefined

/** Shows what an action did (for a few seconds) or why it failed (until the next action). */
function notice(message: string, kind: 'ok' | 'error'): void {
  const box = byId('notice')
  box.className = `notice notice-${kind}`
  box.textContent = message
  clearTimeout(noticeTimer)
  if (kind === 'ok') noticeTimer = setTimeout(() => box.replaceChildren(), 4000)
}

/** Runs an action from a button or form, then reports it; the stream brings the new state. */
async function act(label: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run()
    notice(`${label}: done`, 'ok')
  } catch (error) {
    notice(`${label}: ${(error as Error).message}`, 'error')
  }
  void refresh()
}

function onSubmit(form: HTMLFormElement, label: string, run: (data: FormData) => Promise<unknown>) {
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void act(label, () => run(new FormData(form)))
  })
}

// ---------------------------------------------------------------------------------------------
// The skeleton: panels with static forms and a redrawn body each.

function panel(id: string, title: string, ...top: Child[]): HTMLElement {
  return h('section', { id, class: 'panel' }, h('h2', null, title), top, h('div', { id: `${id}-body` }))
}

function skeleton(): void {
  const statusOptions = config.ticket_statuses.map((status) => h('option', { value: status }, status))
  replace(
    byId('app'),
    h(
      'header',
      null,
      h('h1', null, 'reseller-mock ', h('span', null, 'inspector')),
      h('div', { id: 'clock', class: 'clock' }),
      h('span', { id: 'live', class: 'live' }, 'connecting…'),
      h(
        'button',
        {
          id: 'reset',
          class: 'danger',
          onclick: () => {
            if (confirm('Reset the mock to its seed? Faults and the request journal are cleared too.'))
              void act('Reset', () => call('POST', 'reset'))
          },
        },
        'Reset',
      ),
    ),
    h('div', { id: 'notice', class: 'notice', role: 'status' }),
    h(
      'main',
      null,
      panel(
        'clock-panel',
        'Clock',
        h(
          'form',
          { id: 'advance-form', class: 'row' },
          h(
            'label',
            null,
            'Advance by ',
            h('input', { name: 'amount', type: 'number', min: 0, step: 'any', value: 1, required: true }),
          ),
          h(
            'select',
            { name: 'unit', 'aria-label': 'unit' },
            h('option', { value: '1' }, 'seconds'),
            h('option', { value: '60', selected: true }, 'minutes'),
            h('option', { value: '3600' }, 'hours'),
          ),
          h('button', { type: 'submit' }, 'Advance'),
        ),
      ),
      panel('resellers', 'Resellers and keys'),
      panel('accounts', 'Accounts and usage'),
      panel(
        'tickets',
        'Tickets',
        h(
          'form',
          { id: 'reply-form', class: 'stack' },
          ticketPicker(),
          h('textarea', { name: 'message', rows: 2, placeholder: 'Staff reply', required: true }),
          h(
            'div',
            { class: 'row' },
            h('label', null, h('input', { name: 'internal', type: 'checkbox' }), ' internal note'),
            h('button', { type: 'submit' }, 'Reply as staff'),
          ),
        ),
        h(
          'form',
          { id: 'status-form', class: 'row' },
          ticketPicker(),
          h('select', { name: 'status', 'aria-label': 'status' }, statusOptions),
          h('button', { type: 'submit' }, 'Set status'),
        ),
      ),
      panel('webhooks', 'Webhooks and deliveries'),
      panel(
        'requests',
        'Request journal',
        h(
          'div',
          { class: 'row' },
          h('input', {
            id: 'request-search',
            type: 'search',
            placeholder: 'Find: req_… id, path, status, error code',
            oninput: () => draw(),
          }),
          h(
            'button',
            { onclick: () => void act('Clear journal', () => call('DELETE', 'requests')) },
            'Clear',
          ),
        ),
      ),
      panel(
        'faults',
        'Faults',
        h(
          'form',
          { id: 'fault-form', class: 'stack' },
          h(
            'div',
            { class: 'row' },
            h(
              'select',
              { name: 'method', 'aria-label': 'method' },
              ['any', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) =>
                h('option', { value: m === 'any' ? '' : m }, m),
              ),
            ),
            h('input', { name: 'route', placeholder: 'route, e.g. /api/v1/support/tickets', size: 34 }),
          ),
          h(
            'div',
            { class: 'row' },
            h(
              'label',
              null,
              'status ',
              h('input', { name: 'status', type: 'number', min: 100, max: 599, value: 503 }),
            ),
            h('input', { name: 'code', placeholder: 'code (default by status)' }),
            h(
              'label',
              null,
              'times ',
              h('input', { name: 'times', type: 'number', min: 1, placeholder: '∞' }),
            ),
            h(
              'label',
              null,
              'delay ms ',
              h('input', { name: 'delayMs', type: 'number', min: 0, placeholder: '0' }),
            ),
            h(
              'select',
              { name: 'drop', 'aria-label': 'drop' },
              h('option', { value: '' }, 'answer with the status'),
              h('option', { value: 'before' }, 'drop before (no effect)'),
              h('option', { value: 'after' }, 'drop after (took effect)'),
            ),
            h('button', { type: 'submit' }, 'Add fault'),
          ),
        ),
      ),
    ),
  )

  onSubmit(byId<HTMLFormElement>('advance-form'), 'Advance the clock', (data) =>
    call('POST', 'clock/advance', { seconds: Number(data.get('amount')) * Number(data.get('unit')) }),
  )
  onSubmit(byId<HTMLFormElement>('reply-form'), 'Staff reply', async (data) => {
    await call('POST', `tickets/${encodeURIComponent(String(data.get('ticket')))}/replies`, {
      message: String(data.get('message')),
      internal: data.get('internal') === 'on',
    })
    byId<HTMLFormElement>('reply-form').querySelector('textarea')!.value = ''
  })
  onSubmit(byId<HTMLFormElement>('status-form'), 'Set status', (data) =>
    call('PATCH', `tickets/${encodeURIComponent(String(data.get('ticket')))}`, {
      status: data.get('status'),
    }),
  )
  onSubmit(byId<HTMLFormElement>('fault-form'), 'Add fault', (data) =>
    call('POST', 'faults', faultBody(data)),
  )
}

/** The body of `POST /__mock/faults` from the fault form (contract §6.2). */
function faultBody(data: FormData): Record<string, unknown> {
  const field = (name: string) => String(data.get(name) ?? '').trim()
  const match: Record<string, string> = {}
  if (field('method')) match.method = field('method')
  if (field('route')) match[field('route').includes(':') ? 'route' : 'path'] = field('route')
  const body: Record<string, unknown> = {}
  if (Object.keys(match).length > 0) body.match = match
  if (field('times')) body.times = Number(field('times'))
  if (field('delayMs')) body.delayMs = Number(field('delayMs'))
  if (field('drop')) body.drop = field('drop')
  else body.respond = { status: Number(field('status')), ...(field('code') ? { code: field('code') } : {}) }
  return body
}

// ---------------------------------------------------------------------------------------------
// Drawing the view.

let view: View | undefined

function drawClock(): void {
  if (!view?.state) return
  const clock = view.clock ?? {
    now: new Date(Date.now() + view.state.clock_offset_ms).toISOString(),
    offset_ms: view.state.clock_offset_ms,
  }
  const ahead = clock.offset_ms === 0 ? 'real time' : `${formatDuration(clock.offset_ms)} ahead of real time`
  replace(byId('clock'), h('strong', null, clock.now), ' ', h('span', { class: 'muted' }, ahead))
  replace(
    byId('clock-panel-body'),
    h(
      'p',
      null,
      'Mock time: ',
      code(clock.now),
      h('br'),
      'Offset: ',
      code(`${clock.offset_ms} ms`),
      ` (${ahead})`,
    ),
  )
}

function formatDuration(ms: number): string {
  const parts: string[] = []
  let rest = Math.round(ms / 1000)
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size)
    if (n > 0) parts.push(`${n} ${unit}`)
    rest -= n * size
  }
  return parts.join(' ') || `${ms} ms`
}

function drawResellers(tables: State['tables']): void {
  const keys = tables.apiKeys ?? []
  replace(
    byId('resellers-body'),
    (tables.resellers ?? []).map((r) =>
      h(
        'article',
        { class: 'card' },
        h('h3', null, `#${text(r.id)} ${text(r.name)}`),
        h(
          'p',
          { class: 'muted' },
          `wallet ${text(r.wallet_balance)} · WHM `,
          badge(r.whm_status),
          ` · limits ${text(r.accounts_limit)} accounts, ${text(r.disk_limit_mb)} MB disk, ${text(r.bandwidth_limit_mb)} MB bandwidth`,
        ),
        table(
          ['key', 'mode', 'scopes'],
          keys
            .filter((k) => k.reseller_id === r.id)
            .map((k) => [code(k.key), badge(k.mode), (k.scopes as string[]).join(' ')]),
        ),
      ),
    ),
  )
}

function drawAccounts(tables: State['tables']): void {
  const accounts = tables.accounts ?? []
  const packages = new Map((tables.packages ?? []).map((p) => [`${p.reseller_id}/${p.name}`, p]))
  const usage = (used: unknown, limit: unknown) => {
    const share = typeof limit === 'number' && limit > 0 ? Math.min(1, Number(used) / limit) : 0
    return h(
      'span',
      { class: 'usage', title: `${text(used)} of ${text(limit)} MB` },
      h('meter', { min: 0, max: 1, value: share }),
      ` ${text(used)} / ${text(limit)} MB`,
    )
  }
  replace(
    byId('accounts-body'),
    accounts.length === 0
      ? empty('No hosting accounts yet.')
      : table(
          ['username', 'domain', 'reseller', 'package', 'status', 'disk', 'bandwidth'],
          accounts.map((a) => {
            const pkg = packages.get(`${a.reseller_id}/${a.whm_package}`)
            return [
              code(a.username),
              text(a.domain),
              `#${text(a.reseller_id)}`,
              text(a.whm_package),
              badge(a.status),
              usage(a.disk_used_mb, pkg?.quota),
              usage(a.bandwidth_used_mb, pkg?.bandwidth),
            ]
          }),
        ),
  )
}

function drawTickets(tables: State['tables']): void {
  const tickets = [...(tables.tickets ?? [])].reverse()
  const messages = tables.messages ?? []
  for (const select of document.querySelectorAll<HTMLSelectElement>('.ticket-select')) {
    const chosen = select.value
    replace(
      select,
      tickets.map((t) =>
        h('option', { value: String(t.uuid) }, `#${text(t.id)} ${text(t.subject)} (${text(t.status)})`),
      ),
    )
    if (chosen && tickets.some((t) => t.uuid === chosen)) select.value = chosen
  }
  replace(
    byId('tickets-body'),
    tickets.length === 0
      ? empty('No tickets.')
      : tickets.map((t) =>
          details(
            `ticket:${text(t.uuid)}`,
            [
              `#${text(t.id)} `,
              h('strong', null, text(t.subject)),
              ' ',
              badge(t.status),
              ' ',
              badge(t.priority, 'priority'),
              ` · reseller #${text(t.reseller_id)}`,
            ],
            h(
              'p',
              { class: 'muted' },
              code(t.uuid),
              ` · ${text(t.department)} · updated ${text(t.updated_at)}`,
            ),
            h(
              'ol',
              { class: 'messages' },
              messages
                .filter((m) => m.ticket_id === t.id)
                .map((m) =>
                  h(
                    'li',
                    { class: m.internal ? 'message internal' : 'message' },
                    h(
                      'div',
                      { class: 'muted' },
                      `${text(m.from)} · ${text(m.created_at)} `,
                      m.internal ? badge('internal note', 'internal') : null,
                    ),
                    h('div', { class: 'message-text' }, text(m.message)),
                  ),
                ),
            ),
          ),
        ),
  )
}

function drawWebhooks(tables: State['tables'], deliveries: Row[] | null): void {
  const resellerHooks = tables.resellerWebhooks ?? []
  const hooks = tables.webhooks ?? []
  const rows = deliveries ?? [...(tables.deliveries ?? [])].reverse()
  replace(
    byId('webhooks-body'),
    h('h3', null, 'Configured'),
    resellerHooks.length + hooks.length === 0
      ? empty('No webhook configured.')
      : table(
          ['webhook', 'reseller', 'url', 'events', 'secret'],
          [
            ...resellerHooks.map((w) => [
              badge('reseller style', 'reseller'),
              `#${text(w.reseller_id)}`,
              code(w.url),
              'all reseller events',
              code(w.secret),
            ]),
            ...hooks.map((w) => [
              code(w.id),
              `#${text(w.reseller_id)}`,
              code(w.url),
              (w.events as string[]).join(' '),
              code(w.secret),
            ]),
          ],
        ),
    h('h3', null, `Deliveries (${rows.length})`),
    rows.length === 0
      ? empty('No delivery yet.')
      : rows.map((d) =>
          details(
            `delivery:${text(d.delivery_id)}`,
            [
              code(d.event),
              ' → ',
              code(d.webhook_id),
              ' ',
              badge(d.status),
              ` attempts ${text(d.attempts)}`,
              d.http_status === null ? '' : ` · HTTP ${text(d.http_status)}`,
              d.next_attempt_at ? ` · next ${text(d.next_attempt_at)}` : '',
            ],
            h(
              'dl',
              null,
              h('dt', null, 'delivery id'),
              h('dd', null, code(d.delivery_id)),
              h('dt', null, 'url'),
              h('dd', null, code(d.url)),
              h('dt', null, 'x-service-signature'),
              h('dd', null, code(d.signature ?? '(shown when the mock serves /__mock/deliveries)')),
              h('dt', null, 'attempts'),
              h('dd', null, `${text(d.attempts)} (retries ${text(d.retries)}), last ${text(d.attempted_at)}`),
              h('dt', null, 'next attempt'),
              h('dd', null, text(d.next_attempt_at)),
              d.error ? [h('dt', null, 'error'), h('dd', null, text(d.error))] : null,
            ),
            h('pre', null, pretty(d.payload)),
            h(
              'button',
              {
                class: 'redeliver',
                onclick: () =>
                  void act(`Redeliver ${text(d.delivery_id)}`, () =>
                    call('POST', `deliveries/${encodeURIComponent(String(d.delivery_id))}/redeliver`),
                  ),
              },
              'Redeliver now',
            ),
          ),
        ),
  )
}

function drawRequests(requests: Row[] | null): void {
  const body = byId('requests-body')
  if (requests === null) {
    replace(body, empty('This mock keeps no request journal.'))
    return
  }
  const query = byId<HTMLInputElement>('request-search').value.trim().toLowerCase()
  const matches = (r: Row) =>
    query === '' ||
    [r.id, r.method, r.path, r.route, r.status, r.error_code, r.fault].some((v) =>
      String(v ?? '')
        .toLowerCase()
        .includes(query),
    )
  const shown = requests.filter(matches).reverse()
  replace(
    body,
    h('p', { class: 'muted' }, `${shown.length} of ${requests.length} requests, newest first`),
    shown.map((r) =>
      details(
        `request:${text(r.id)}`,
        [
          code(r.id),
          ' ',
          h('strong', null, text(r.method)),
          ' ',
          text(r.path),
          ' ',
          badge(r.status ?? 'dropped', `status-${String(r.status ?? 'none').slice(0, 1)}xx`),
          r.error_code ? [' ', code(r.error_code)] : null,
          r.fault ? [' ', badge(`fault ${text(r.fault)}`, 'fault')] : null,
        ],
        h(
          'dl',
          null,
          h('dt', null, 'at (mock time)'),
          h('dd', null, text(r.at)),
          h('dt', null, 'route'),
          h('dd', null, code(r.route)),
          h('dt', null, 'key'),
          h('dd', null, `${text(r.key_mode)} · reseller #${text(r.reseller_id)}`),
        ),
        r.body === null || r.body === undefined ? null : h('pre', null, pretty(r.body)),
      ),
    ),
  )
}

function drawFaults(faults: Row[] | null): void {
  const body = byId('faults-body')
  if (faults === null) {
    replace(body, empty('This mock has no fault injection.'))
    return
  }
  replace(
    body,
    faults.length === 0
      ? empty('No fault: every request is answered normally.')
      : table(
          ['id', 'match', 'effect', 'applied', 'left', ''],
          faults.map((f) => {
            const respond = f.respond as { status: number; code: string; retryAfter?: number } | undefined
            const effect = f.drop
              ? `drop ${text(f.drop)}`
              : `${text(respond?.status)} ${text(respond?.code)}${respond?.retryAfter ? `, Retry-After ${respond.retryAfter}` : ''}`
            const match = Object.entries((f.match ?? {}) as Record<string, string>)
              .map(([name, value]) => `${name} ${value}`)
              .join(', ')
            return [
              code(f.id),
              match === '' ? 'every API request' : code(match),
              `${effect}${f.delayMs ? ` after ${text(f.delayMs)} ms` : ''}`,
              text(f.applied),
              f.remaining === null || f.remaining === undefined ? '∞' : text(f.remaining),
              h(
                'button',
                {
                  class: 'remove-fault',
                  onclick: () =>
                    void act(`Remove fault ${text(f.id)}`, () =>
                      call('DELETE', `faults/${encodeURIComponent(String(f.id))}`),
                    ),
                },
                'Remove',
              ),
            ]
          }),
        ),
  )
}

function draw(): void {
  if (!view?.state) return
  const { tables } = view.state
  drawClock()
  drawResellers(tables)
  drawAccounts(tables)
  drawTickets(tables)
  drawWebhooks(tables, view.deliveries)
  drawRequests(view.requests)
  drawFaults(view.faults)
  document.body.dataset.version = String((Number(document.body.dataset.version) || 0) + 1)
}

// ---------------------------------------------------------------------------------------------
// Live updates: one read at a time; a notice during a read asks for one more.

let loading: Promise<void> | undefined
let again = false

function refresh(): Promise<void> {
  if (loading) {
    again = true
    return loading
  }
  loading = (async () => {
    do {
      again = false
      try {
        view = await load()
        draw()
      } catch (error) {
        notice(`Could not read the mock: ${(error as Error).message}`, 'error')
      }
    } while (again)
    loading = undefined
  })()
  return loading
}

function connect(): void {
  const live = byId('live')
  const stream = new EventSource('stream')
  stream.addEventListener('open', () => {
    live.textContent = 'live'
    live.className = 'live live-on'
  })
  stream.addEventListener('change', () => void refresh())
  stream.addEventListener('error', () => {
    live.textContent = 'reconnecting…'
    live.className = 'live live-off'
  })
}

skeleton()
connect()
void refresh()
