/** Small pieces every panel draws with: text of any value, badges, tables, folding sections. */
import { type Child, h } from './dom.js'

/** A value as text; `—` for none. */
export const text = (value: unknown): string => (value === null || value === undefined ? '—' : String(value))

/** A coloured label; `kind` picks the colour (app.css, `.badge-…`). */
export const badge = (label: unknown, kind = String(label)) =>
  h('span', { class: `badge badge-${kind.replace(/[^a-z0-9_-]/gi, '')}` }, text(label))

export const code = (value: unknown) => h('code', null, text(value))

export const empty = (what: string) => h('p', { class: 'empty' }, what)

/** JSON (or a JSON string) indented; any other string as it is. */
export function pretty(json: unknown): string {
  if (typeof json !== 'string') return JSON.stringify(json, null, 2)
  try {
    return JSON.stringify(JSON.parse(json), null, 2)
  } catch {
    return json
  }
}

/** A table with a head row; wrapped so that a wide one scrolls inside its panel, not the page. */
export function table(head: string[], rows: Child[][]): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      null,
      h('thead', null, h('tr', null, ...head.map((cell) => h('th', { scope: 'col' }, cell)))),
      h('tbody', null, ...rows.map((row) => h('tr', null, ...row.map((cell) => h('td', null, cell))))),
    ),
  )
}

/** Header names and values as a definition list (names as sent: lower case). */
export function headerList(headers: unknown): HTMLElement {
  const entries = Object.entries((headers ?? {}) as Record<string, unknown>)
  if (entries.length === 0) return empty('no headers')
  return h(
    'dl',
    { class: 'headers' },
    ...entries.flatMap(([name, value]) => [h('dt', null, name), h('dd', null, code(value))]),
  )
}

/** `<details>` that stay open across redraws: their keys are remembered here. */
const openKeys = new Set<string>()

/** A folding section whose open state survives redraws; `onOpen` runs when the user opens it. */
export function details(
  key: string,
  summary: Child[],
  body: () => Child[],
  onOpen?: () => void,
): HTMLDetailsElement {
  const open = openKeys.has(key)
  const content = h('div', { class: 'details-body' }, ...(open ? body() : []))
  const element = h('details', { 'data-key': key, open }, h('summary', null, ...summary), content)
  element.addEventListener('toggle', () => {
    if (element.open) {
      openKeys.add(key)
      // Drawn when opened: a closed entry costs its summary line only.
      if (content.childNodes.length === 0) content.append(...flatten(body()))
      onOpen?.()
    } else openKeys.delete(key)
  })
  return element
}

function flatten(children: Child[]): Node[] {
  const wrapper = h('div', null, ...children)
  return [...wrapper.childNodes]
}

/** A duration such as `1 d 2 h 5 min`. */
export function formatDuration(ms: number): string {
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
