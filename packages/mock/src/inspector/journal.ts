/**
 * The request journal: newest first, a page of {@link PAGE_SIZE} entries at a time (so a full
 * journal of 1,000 keeps the page short and quick to redraw), a filter, and per entry the request
 * and the answer with their headers and bodies.
 */
import { call, type Row } from './api.js'
import { byId, h, replace } from './dom.js'
import { act, noticeBox } from './notices.js'
import { view } from './view.js'
import { badge, code, details, empty, headerList, pretty, text } from './widgets.js'

/** Entries drawn at once. */
export const PAGE_SIZE = 20

/** Index of the page shown; 0 is the newest. */
let pageIndex = 0

/** The journal's tools: the filter, Clear, and the pager below the list. */
export function journalTools(): HTMLElement[] {
  const box = noticeBox('requests-notice')
  return [
    h(
      'div',
      { class: 'row' },
      h('input', {
        id: 'request-search',
        type: 'search',
        class: 'grow',
        'aria-label': 'filter the journal',
        placeholder: 'Filter: req_… id, path, status, error code',
        oninput: () => {
          pageIndex = 0
          drawRequests()
        },
      }),
      h(
        'button',
        { onclick: () => void act(box, 'Clear journal', () => call('DELETE', 'requests')) },
        'Clear',
      ),
    ),
    box,
  ]
}

function matches(entry: Row, query: string): boolean {
  if (query === '') return true
  return [entry.id, entry.method, entry.path, entry.route, entry.status, entry.error_code, entry.fault].some(
    (value) =>
      String(value ?? '')
        .toLowerCase()
        .includes(query),
  )
}

function statusBadge(status: unknown) {
  return badge(
    status ?? 'no answer',
    status === null || status === undefined ? 'dropped' : `status-${String(status).slice(0, 1)}xx`,
  )
}

function body(value: unknown) {
  return value === null || value === undefined ? empty('no body') : h('pre', null, pretty(value))
}

/** The request half of an entry: what the journal kept of it. */
function requestPart(entry: Row) {
  return h(
    'section',
    { class: 'exchange exchange-request' },
    h('h4', null, 'Request'),
    h(
      'dl',
      null,
      h('dt', null, 'at (mock time)'),
      h('dd', null, text(entry.at)),
      h('dt', null, 'route'),
      h('dd', null, code(entry.route)),
      h('dt', null, 'key'),
      h('dd', null, `${text(entry.key_mode)} · reseller #${text(entry.reseller_id)}`),
    ),
    // Request headers, where the mock journals them.
    entry.headers === undefined ? null : headerList(entry.headers),
    body(entry.body),
  )
}

/** The answer half: status, headers and body as sent (`response`), or what the entry says of it. */
function answerPart(entry: Row) {
  const response = entry.response as
    | { status?: unknown; headers?: unknown; body?: unknown }
    | null
    | undefined
  return h(
    'section',
    { class: 'exchange exchange-answer' },
    h('h4', null, 'Answer'),
    h(
      'p',
      null,
      statusBadge(response?.status ?? entry.status),
      entry.error_code ? [' ', code(entry.error_code)] : null,
      entry.fault ? [' ', badge(`fault ${text(entry.fault)}`, 'fault')] : null,
    ),
    response === undefined
      ? empty('This mock does not journal answers.')
      : response === null
        ? empty(
            entry.status === null ? 'No answer was sent (dropped, or still delayed).' : 'Not answered yet.',
          )
        : [headerList(response.headers), body(response.body)],
  )
}

function entryView(entry: Row): HTMLElement {
  return details(
    `request:${text(entry.id)}`,
    [
      code(entry.id),
      ' ',
      h('strong', null, text(entry.method)),
      ' ',
      h('span', { class: 'path' }, text(entry.path)),
      ' ',
      statusBadge(entry.status),
      entry.error_code ? [' ', code(entry.error_code)] : null,
      entry.fault ? [' ', badge(`fault ${text(entry.fault)}`, 'fault')] : null,
    ],
    () => [requestPart(entry), answerPart(entry)],
  )
}

function pager(shown: number, pages: number, from: number, to: number): HTMLElement {
  const move = (by: number) => () => {
    pageIndex = Math.min(pages - 1, Math.max(0, pageIndex + by))
    drawRequests()
  }
  return h(
    'nav',
    { class: 'row pager', 'aria-label': 'journal pages' },
    h('button', { class: 'secondary', disabled: pageIndex === 0, onclick: move(-1) }, '← Newer'),
    h('span', { class: 'muted' }, shown === 0 ? '' : `${from}–${to} of ${shown}`),
    h('button', { class: 'secondary', disabled: pageIndex >= pages - 1, onclick: move(1) }, 'Older →'),
  )
}

export function drawRequests(): void {
  const target = byId('requests-body')
  const requests = view.requests
  if (requests === null) {
    replace(target, empty('This mock keeps no request journal.'))
    return
  }
  const query = byId<HTMLInputElement>('request-search').value.trim().toLowerCase()
  const shown: Row[] = []
  for (let i = requests.length - 1; i >= 0; i--) if (matches(requests[i]!, query)) shown.push(requests[i]!)
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE))
  pageIndex = Math.min(pageIndex, pages - 1)
  const start = pageIndex * PAGE_SIZE
  const slice = shown.slice(start, start + PAGE_SIZE)
  replace(
    target,
    h(
      'p',
      { class: 'muted' },
      query === ''
        ? `${requests.length} requests, newest first`
        : `${shown.length} of ${requests.length} requests match, newest first`,
    ),
    slice.length === 0
      ? empty(query === '' ? 'No request yet.' : 'No request matches.')
      : slice.map(entryView),
    pager(shown.length, pages, start + 1, start + slice.length),
  )
}
