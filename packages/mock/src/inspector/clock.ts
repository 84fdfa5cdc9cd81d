/** The mock's clock: a header that ticks every second, and the panel that advances it. */
import { call } from './api.js'
import { byId, h, replace } from './dom.js'
import { noticeBox, onSubmit } from './notices.js'
import { view } from './view.js'
import { code, formatDuration } from './widgets.js'

/** Mock time now: the time read last, moved on by the real time since (mock time runs with it). */
function mockNow(): Date | undefined {
  if (!view.clock) return undefined
  return new Date(Date.parse(view.clock.now) + (Date.now() - view.clockReadAt))
}

function lead(offsetMs: number): string {
  return offsetMs === 0 ? 'real time' : `${formatDuration(offsetMs)} ahead of real time`
}

/** The header's clock: mock time to the second. */
export function headerClock(): HTMLElement {
  const element = h('div', { id: 'clock', class: 'clock', title: 'mock time (UTC)' })
  const tick = () => {
    const now = mockNow()
    if (now) element.textContent = `${now.toISOString().slice(0, 19).replace('T', ' ')} UTC`
  }
  setInterval(tick, 1000)
  return element
}

/** Redraws the clock after a read (the header ticks on its own). */
export function drawClock(): void {
  const now = mockNow()
  if (!now || !view.clock) return
  byId('clock').textContent = `${now.toISOString().slice(0, 19).replace('T', ' ')} UTC`
  replace(
    byId('clock-panel-body'),
    h(
      'p',
      null,
      'Mock time: ',
      code(view.clock.now),
      h('br'),
      'Offset: ',
      code(`${view.clock.offset_ms} ms`),
      ` (${lead(view.clock.offset_ms)})`,
    ),
  )
}

/** The form of the clock panel. */
export function clockForm(): HTMLElement[] {
  const box = noticeBox('advance-notice')
  const form = h(
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
      h('option', { value: '86400' }, 'days'),
    ),
    h('button', { type: 'submit' }, 'Advance'),
  )
  onSubmit(form, box, 'Advance the clock', (data) =>
    call('POST', 'clock/advance', { seconds: Number(data.get('amount')) * Number(data.get('unit')) }),
  )
  return [form, box]
}
