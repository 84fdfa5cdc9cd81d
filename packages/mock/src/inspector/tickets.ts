/**
 * Tickets: one ticket picker that both staff forms act on (it follows the ticket opened in the
 * list), the reply and status forms, and the tickets with their messages, newest first.
 */
import type { Row } from './api.js'
import { call } from './api.js'
import { byId, h, replace } from './dom.js'
import { noticeBox, onSubmit } from './notices.js'
import { view } from './view.js'
import { badge, code, details, empty, text } from './widgets.js'

/** Values the server puts in the page (from the SDK's schemas), so that they are never restated here. */
interface PageConfig {
  ticket_statuses: string[]
}

const picker = () => byId<HTMLSelectElement>('ticket-select')
const chosenTicket = () => encodeURIComponent(picker().value)

/** The picker and the two staff forms. */
export function ticketForms(config: PageConfig): HTMLElement[] {
  const replyBox = noticeBox('reply-notice')
  const statusBox = noticeBox('status-notice')
  const reply = h(
    'form',
    { id: 'reply-form', class: 'stack' },
    h('textarea', {
      name: 'message',
      rows: 2,
      placeholder: 'Staff reply',
      'aria-label': 'staff reply',
      required: true,
    }),
    h(
      'div',
      { class: 'row' },
      h('label', null, h('input', { name: 'internal', type: 'checkbox' }), ' internal note'),
      h('button', { type: 'submit' }, 'Reply as staff'),
    ),
  )
  const status = h(
    'form',
    { id: 'status-form', class: 'row' },
    h(
      'select',
      { name: 'status', 'aria-label': 'status' },
      ...config.ticket_statuses.map((s) => h('option', { value: s }, s)),
    ),
    h('button', { type: 'submit' }, 'Set status'),
  )
  onSubmit(reply, replyBox, 'Staff reply', (data) =>
    call('POST', `tickets/${chosenTicket()}/replies`, {
      message: String(data.get('message')),
      internal: data.get('internal') === 'on',
    }),
  )
  onSubmit(status, statusBox, 'Set status', (data) =>
    call('PATCH', `tickets/${chosenTicket()}`, { status: data.get('status') }),
  )
  return [
    h(
      'label',
      { class: 'row picker' },
      'Ticket ',
      h('select', { id: 'ticket-select', name: 'ticket', required: true }),
    ),
    reply,
    replyBox,
    status,
    statusBox,
  ]
}

function messagesOf(ticket: Row, messages: Row[]): HTMLElement {
  return h(
    'ol',
    { class: 'messages' },
    ...messages
      .filter((m) => m.ticket_id === ticket.id)
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
  )
}

export function drawTickets(): void {
  const tables = view.state?.tables ?? {}
  const tickets = [...(tables.tickets ?? [])].reverse()
  const messages = tables.messages ?? []
  const select = picker()
  const chosen = select.value
  replace(
    select,
    tickets.map((t) =>
      h('option', { value: String(t.uuid) }, `#${text(t.id)} ${text(t.subject)} (${text(t.status)})`),
    ),
  )
  if (chosen && tickets.some((t) => t.uuid === chosen)) select.value = chosen
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
            () => [
              h(
                'p',
                { class: 'muted' },
                code(t.uuid),
                ` · ${text(t.department)} · updated ${text(t.updated_at)}`,
              ),
              messagesOf(t, messages),
            ],
            // The staff forms follow the ticket the user opened.
            () => {
              select.value = String(t.uuid)
            },
          ),
        ),
  )
}
