/**
 * The page's skeleton: a header and seven panels in a fixed grid (app.css). Forms sit outside the
 * parts that are redrawn, so a live update never eats typing; each panel's body scrolls inside a
 * panel of fixed height, so no update moves a panel.
 */
import { call } from './api.js'
import { clockForm, headerClock } from './clock.js'
import { byId, type Child, h, replace } from './dom.js'
import { faultForm } from './faults.js'
import { journalTools } from './journal.js'
import { act, noticeBox } from './notices.js'
import { webhookNotice } from './panels.js'
import { ticketForms } from './tickets.js'

function panel(id: string, title: string, ...top: Child[]): HTMLElement {
  return h(
    'section',
    { id, class: 'panel', 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, title),
    ...top,
    h('div', { id: `${id}-body`, class: 'panel-body', tabindex: 0, 'aria-label': title }),
  )
}

function resetButton(box: HTMLElement): HTMLElement {
  return h(
    'button',
    {
      id: 'reset',
      class: 'danger',
      onclick: () => {
        if (!confirm('Reset the mock to its seed? Faults and the request journal are cleared too.')) return
        void act(box, 'Reset', () => call('POST', 'reset')).then((ok) => {
          if (ok) for (const form of document.querySelectorAll('form')) form.reset()
        })
      },
    },
    'Reset',
  )
}

/** Builds the page into `#app`. */
export function skeleton(config: { ticket_statuses: string[] }): void {
  const resetBox = noticeBox('reset-notice')
  replace(
    byId('app'),
    h(
      'header',
      null,
      h('h1', null, 'reseller-mock ', h('span', null, 'inspector')),
      headerClock(),
      h('span', { id: 'live', class: 'live' }, 'connecting…'),
      resetButton(resetBox),
      resetBox,
    ),
    h(
      'main',
      null,
      panel('clock-panel', 'Clock', ...clockForm()),
      panel('tickets', 'Tickets', ...ticketForms(config)),
      panel('requests', 'Request journal', ...journalTools()),
      panel('faults', 'Faults', ...faultForm()),
      panel('webhooks', 'Webhooks and deliveries', webhookNotice()),
      panel('resellers', 'Resellers and keys'),
      panel('accounts', 'Accounts and usage'),
    ),
  )
}
