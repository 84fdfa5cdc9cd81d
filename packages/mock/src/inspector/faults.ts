/** Faults: the form that adds one (docs/faults-and-journal.md) and the list with a Remove each. */
import { call, type Row } from './api.js'
import { byId, h, replace } from './dom.js'
import { act, noticeBox, onSubmit } from './notices.js'
import { view } from './view.js'
import { code, empty, table, text } from './widgets.js'

const labelled = (label: string, input: HTMLElement) => h('label', null, `${label} `, input)

export function faultForm(): HTMLElement[] {
  const box = noticeBox('fault-notice')
  const form = h(
    'form',
    { id: 'fault-form', class: 'stack' },
    h(
      'div',
      { class: 'row' },
      h(
        'select',
        { name: 'method', 'aria-label': 'method' },
        ...['any', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) =>
          h('option', { value: m === 'any' ? '' : m }, m),
        ),
      ),
      h('input', {
        name: 'route',
        class: 'grow',
        'aria-label': 'route or path',
        placeholder: 'route, e.g. /api/v1/support/tickets',
      }),
    ),
    h(
      'div',
      { class: 'row' },
      labelled('status', h('input', { name: 'status', type: 'number', min: 100, max: 599, value: 503 })),
      h('input', { name: 'code', 'aria-label': 'error code', placeholder: 'code (default by status)' }),
      labelled('times', h('input', { name: 'times', type: 'number', min: 1, placeholder: '∞' })),
      labelled('delay ms', h('input', { name: 'delayMs', type: 'number', min: 0, placeholder: '0' })),
      h(
        'select',
        { name: 'drop', 'aria-label': 'drop' },
        h('option', { value: '' }, 'answer with the status'),
        h('option', { value: 'before' }, 'drop before (no effect)'),
        h('option', { value: 'after' }, 'drop after (took effect)'),
      ),
      h('button', { type: 'submit' }, 'Add fault'),
    ),
  )
  onSubmit(form, box, 'Add fault', (data) => call('POST', 'faults', faultBody(data)))
  return [form, box]
}

/** The body of `POST /__mock/faults` from the fault form. */
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

function effectOf(f: Row): string {
  const respond = f.respond as { status: number; code: string; retryAfter?: number } | undefined
  const effect = f.drop
    ? `drop ${text(f.drop)}`
    : `${text(respond?.status)} ${text(respond?.code)}${respond?.retryAfter ? `, Retry-After ${respond.retryAfter}` : ''}`
  return `${effect}${f.delayMs ? ` after ${text(f.delayMs)} ms` : ''}`
}

export function drawFaults(): void {
  const body = byId('faults-body')
  const faults = view.faults
  if (faults === null) {
    replace(body, empty('This mock has no fault injection.'))
    return
  }
  const box = byId('fault-notice')
  replace(
    body,
    faults.length === 0
      ? empty('No fault: every request is answered normally.')
      : table(
          ['id', 'match', 'effect', 'applied', 'left', ''],
          faults.map((f) => {
            const match = Object.entries((f.match ?? {}) as Record<string, string>)
              .map(([name, value]) => `${name} ${value}`)
              .join(', ')
            return [
              code(f.id),
              match === '' ? 'every API request' : code(match),
              effectOf(f),
              text(f.applied),
              f.remaining === null || f.remaining === undefined ? '∞' : text(f.remaining),
              h(
                'button',
                {
                  class: 'remove-fault',
                  'aria-label': `Remove fault ${text(f.id)}`,
                  onclick: () =>
                    void act(box, `Remove fault ${text(f.id)}`, () =>
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
