/**
 * Notices where the action happened: each form and panel has its own status line, so the answer to
 * a click near the bottom of the page shows beside that click, not at the top.
 */
import { h } from './dom.js'

/** A status line for one place of the page (read out by screen readers as it changes). */
export function noticeBox(id: string): HTMLElement {
  return h('p', { id, class: 'notice', role: 'status', 'aria-live': 'polite' })
}

const timers = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>()

/** Shows what an action did (for a few seconds) or why it failed (until the next action there). */
export function notice(box: HTMLElement, message: string, kind: 'ok' | 'error'): void {
  box.className = `notice notice-${kind}`
  box.textContent = message
  clearTimeout(timers.get(box))
  if (kind === 'ok')
    timers.set(
      box,
      setTimeout(() => box.replaceChildren(), 4000),
    )
  // Kept in view: the box is right below the control that was used.
  box.scrollIntoView({ block: 'nearest' })
}

/** Runs an action, then reports it in `box`; resolves to whether it succeeded. */
export async function act(box: HTMLElement, label: string, run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run()
    notice(box, `${label}: done`, 'ok')
    return true
  } catch (error) {
    notice(box, `${label} failed: ${(error as Error).message}`, 'error')
    return false
  }
}

/**
 * Runs `run` with the form's data on submit, reports it in the form's own notice and, once it
 * succeeded, calls `done` (which clears what was typed).
 */
export function onSubmit(
  form: HTMLFormElement,
  box: HTMLElement,
  label: string,
  run: (data: FormData) => Promise<unknown>,
  done: () => void = () => form.reset(),
): void {
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void act(box, label, () => run(new FormData(form))).then((ok) => {
      if (ok) done()
    })
  })
}
