/**
 * Namespaces on the page: at the root of a standalone server, a panel that lists them (id, label,
 * age, expiry, API requests), each linking to its own inspector, read again every few seconds; in a
 * namespace's inspector (`/ns/{id}/__mock/`), its id in the header and a link back to the root's.
 */
import { optional, type Row } from './api.js'
import { byId, h, replace } from './dom.js'
import { empty, table, text } from './widgets.js'

/** How often the list is read again (namespaces come and go without a change of this mock). */
const REFRESH_MS = 3000

/** The namespace this page belongs to, from its own path, if any. */
function ownNamespace(): string | undefined {
  return /^\/ns\/([^/]+)\/__mock\/$/.exec(location.pathname)?.[1]
}

/** `1 h 2 min`, `45 s`: a duration for a person. */
function span(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m} min`
  return `${Math.floor(m / 60)} h ${m % 60} min`
}

function draw(list: Row[]): void {
  const now = Date.now()
  replace(
    byId('namespaces-body'),
    list.length === 0
      ? empty('No namespaces: POST /__mock/namespaces makes one.')
      : table(
          ['id', 'label', 'age', 'expires in', 'requests'],
          list.map((n) => [
            // Relative to this page (/__mock/): the namespace's inspector at /ns/{id}/__mock/.
            h('a', { href: `../ns/${encodeURIComponent(text(n.id))}/__mock/` }, text(n.id)),
            n.label === null ? '' : text(n.label),
            span(now - Date.parse(text(n.created_at))),
            span(Date.parse(text(n.expires_at)) - now),
            text(n.requests),
          ]),
        ),
  )
}

/**
 * Adds what the page shows of namespaces: the panel at the root of a server that hosts them (its
 * page config says so), or the namespace's own id.
 */
export async function showNamespaces(config: { namespaces?: boolean }): Promise<void> {
  const own = ownNamespace()
  if (own !== undefined) {
    byId('app')
      .querySelector('h1')
      ?.append(
        ' ',
        h('span', { class: 'namespace' }, `namespace ${decodeURIComponent(own)}`),
        ' ',
        h('a', { href: '../../../__mock/' }, 'root'),
      )
    return
  }
  if (!config.namespaces) return
  const first = await optional<Row[]>('namespaces')
  if (first === null) return
  byId('app').append(
    h(
      'section',
      { id: 'namespaces', class: 'panel', 'aria-labelledby': 'namespaces-title' },
      h('h2', { id: 'namespaces-title' }, 'Namespaces'),
      h('div', { id: 'namespaces-body', class: 'panel-body', tabindex: 0, 'aria-label': 'Namespaces' }),
    ),
  )
  draw(first)
  setInterval(() => {
    void optional<Row[]>('namespaces').then(
      (list) => draw(list ?? []),
      () => undefined,
    )
  }, REFRESH_MS)
}
