// The inspector in real Chromium, against the built package's standalone server: it loads,
// updates live after API calls, each action works and reports beside its control, the layout holds
// still, a full journal stays short, and axe finds nothing. Run: pnpm test:browser. With
// INSPECTOR_SCREENSHOTS=1 (pnpm run screenshots) it also takes the screenshots of
// docs/running-the-mock.md (docs/images/inspector*.png); otherwise it writes nothing.
import { readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { createMockApi, type MockApi, type RunningServer } from '@reseller-api/mock'
import { isApiError, ResellerApi } from '@reseller-api/sdk'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../../../scripts/lib/chromium.js'
import { startReceiver } from '../helpers/webhooks.js'

const KEY = 'svc_live_acme_full'
const images = fileURLToPath(new URL('../../../../docs/images/', import.meta.url))
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

let mock: MockApi
let server: RunningServer
let api: ResellerApi
let browser: Awaited<ReturnType<typeof launchChromium>>
let page: Page
let receiver: Awaited<ReturnType<typeof startReceiver>>
/** Every URL the page asked for that is not the mock's own. */
const elsewhere: string[] = []
const pageErrors: string[] = []

beforeAll(async () => {
  receiver = await startReceiver()
  mock = createMockApi({ insecureWebhooks: true })
  server = await mock.listen({ port: 0 })
  api = new ResellerApi({ apiKey: KEY, baseUrl: server.url, maxRetries: 0 })
  browser = await launchChromium()
  page = await browser.context.newPage()
  page.on('request', (request) => {
    if (!request.url().startsWith(`${server.url}/`)) elsewhere.push(request.url())
  })
  page.on('pageerror', (error) => pageErrors.push(error.message))
  await page.goto(`${server.url}/__mock/`)
  await page.locator('#live', { hasText: 'live' }).waitFor()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await receiver?.close()
})

/** Calls a control endpoint as curl would. */
async function control(method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${server.url}/__mock/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} /__mock/${path}: ${response.status} ${await response.text()}`)
}

/** Waits until the page shows `text` somewhere inside `selector` (open or folded). */
async function shows(selector: string, text: string | RegExp): Promise<void> {
  await page.locator(selector, { hasText: text }).first().waitFor({ state: 'attached', timeout: 5000 })
}

async function createTicket(subject: string): Promise<string> {
  const created = await api.tickets.create({
    subject,
    message: 'Created by the test',
    department: 'technical',
    priority: 'high',
  })
  return created.ticket_id
}

/** The ticket's `<details>` in the page, opened. */
async function openTicket(uuid: string) {
  const item = page.locator(`#tickets-body details[data-key="ticket:${uuid}"]`)
  await item.waitFor({ state: 'attached' })
  if (!(await item.evaluate((element) => (element as HTMLDetailsElement).open)))
    await item.locator('summary').click()
  return item
}

describe('the inspector page', () => {
  it('loads and shows resellers with their keys, accounts, tickets and the clock, from its own origin only', async () => {
    await shows('#resellers-body', 'Acme Hosting')
    await shows('#resellers-body', KEY)
    await shows('#accounts-body', 'client-one.example')
    await shows('#tickets-body', 'How do I order a reseller plan?')
    await shows('#clock', /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/)
    expect(elsewhere).toEqual([])
    expect(pageErrors).toEqual([])
  })

  it('updates live, with no reload, when an API call changes the state', async () => {
    const navigations: string[] = []
    page.on('framenavigated', (frame) => navigations.push(frame.url()))
    const uuid = await createTicket('Created while the page watched')
    await shows('#tickets-body', 'Created while the page watched')
    await page.locator('#ticket-select').selectOption(uuid)
    expect(navigations).toEqual([])
  })

  it('staff reply: an internal note is marked; a public reply moves the ticket to in_progress', async () => {
    const uuid = await createTicket('Needs a staff answer')
    await shows('#tickets-body', 'Needs a staff answer')
    await page.locator('#ticket-select').selectOption(uuid)
    await page.locator('#reply-form textarea').fill('Checked the logs: nothing to tell the client yet')
    await page.locator('#reply-form input[name=internal]').check()
    await page.getByRole('button', { name: 'Reply as staff' }).click()
    const item = await openTicket(uuid)
    await item.locator('.message.internal', { hasText: 'Checked the logs' }).waitFor()
    // Reported beside the form, which is then empty again (the ticket stays chosen).
    await shows('#reply-notice', 'Staff reply: done')
    await expect(page.locator('#reply-form textarea').inputValue()).resolves.toBe('')
    await expect(page.locator('#reply-form input[name=internal]').isChecked()).resolves.toBe(false)
    await expect(page.locator('#ticket-select').inputValue()).resolves.toBe(uuid)
    await expect(item.locator('.message.internal .badge-internal').textContent()).resolves.toBe(
      'internal note',
    )

    await page.locator('#reply-form textarea').fill('We are on it.')
    await page.locator('#reply-form input[name=internal]').uncheck()
    await page.getByRole('button', { name: 'Reply as staff' }).click()
    await item.locator('.message:not(.internal)', { hasText: 'We are on it.' }).waitFor()
    await item.locator('summary .badge-in_progress').waitFor()
    expect((await api.tickets.get(uuid)).status).toBe('in_progress')
  })

  it('staff status: sets any status', async () => {
    const uuid = await createTicket('To be resolved by staff')
    await shows('#tickets-body', 'To be resolved by staff')
    await page.locator('#ticket-select').selectOption(uuid)
    await page.locator('#status-form select[name=status]').selectOption('resolved')
    await page.getByRole('button', { name: 'Set status' }).click()
    await page.locator(`#tickets-body details[data-key="ticket:${uuid}"] summary .badge-resolved`).waitFor()
    expect((await api.tickets.get(uuid)).status).toBe('resolved')
  })

  it('advances the clock', async () => {
    const before = mock.clock.offsetMs
    await page.locator('#advance-form input[name=amount]').fill('2')
    await page.locator('#advance-form select[name=unit]').selectOption({ label: 'hours' })
    await page.getByRole('button', { name: 'Advance' }).click()
    await shows('#clock-panel-body', `${before + 7_200_000} ms`)
    expect(mock.clock.offsetMs).toBe(before + 7_200_000)
  })

  it('shows each delivery (payload, signature header, attempts) and redelivers one now', async () => {
    const hook = await api.webhooks.create({ url: receiver.url, events: ['ticket.created'] })
    await createTicket('Deliver me')
    await mock.clock.advance(0)
    const [first] = receiver.received.slice(-1)
    await shows('#webhooks-body', hook.id)
    const delivery = page.locator('#webhooks-body details', { hasText: hook.id }).first()
    await delivery.locator('summary .badge-success').waitFor()
    await delivery.locator('summary').click()
    await shows('#webhooks-body dd', first!.headers['x-service-signature'] as string)
    await expect(delivery.locator('pre').textContent()).resolves.toContain('"event": "ticket.created"')

    const sent = receiver.received.length
    await delivery.getByRole('button', { name: 'Redeliver now' }).click()
    await shows('#webhooks-notice', /Redeliver dlv_\w+: done/)
    expect(receiver.received).toHaveLength(sent + 1)
    expect(receiver.received[sent]!.body).toBe(first!.body)
    // The new delivery reaches the page with the next change event.
    await expect.poll(() => page.locator('#webhooks-body details', { hasText: hook.id }).count()).toBe(2)
  })

  it('adds a fault, finds the failed request by the id the SDK error names, removes the fault', async () => {
    await page.locator('#fault-form select[name=method]').selectOption('GET')
    await page.locator('#fault-form input[name=route]').fill('/api/v1/support/tickets')
    await page.locator('#fault-form input[name=status]').fill('503')
    await page.getByRole('button', { name: 'Add fault' }).click()
    await shows('#fault-notice', /^Add fault/)
    await expect(page.locator('#fault-notice').textContent()).resolves.toBe('Add fault: done')
    await shows('#faults-body', '/api/v1/support/tickets')

    const error = await api.tickets.list().then(
      () => undefined,
      (caught: unknown) => caught,
    )
    expect(isApiError(error) && error.status).toBe(503)
    const requestId = (error as { requestId: string }).requestId
    expect(requestId).toMatch(/^req_/)
    await page.locator('#request-search').fill(requestId)
    const found = page.locator('#requests-body details')
    await found.first().locator('summary', { hasText: requestId }).waitFor()
    await expect(found.count()).resolves.toBe(1)
    await expect(found.first().textContent()).resolves.toContain('service_unavailable')

    await page.locator('#faults-body').getByRole('button', { name: 'Remove' }).click()
    await shows('#faults-body', 'No fault')
    await expect(api.tickets.list()).resolves.toBeDefined()
    await page.locator('#request-search').fill('')
  })

  it('resets the mock to its seed', async () => {
    await createTicket('Gone after the reset')
    await shows('#tickets-body', 'Gone after the reset')
    await page.locator('#reply-form input[name=internal]').check()
    page.once('dialog', (dialog) => void dialog.accept())
    await page.locator('#reset').click()
    await page
      .locator('#tickets-body', { hasText: 'Gone after the reset' })
      .waitFor({ state: 'detached', timeout: 5000 })
    await shows('#tickets-body', 'How do I order a reseller plan?')
    await expect(page.locator('#reply-form input[name=internal]').isChecked()).resolves.toBe(false)
    expect(pageErrors).toEqual([])
    expect(elsewhere).toEqual([])
  })

  it.runIf(process.env.INSPECTOR_SCREENSHOTS === '1')(
    'takes the screenshots of docs/running-the-mock.md',
    async () => {
      // Some activity worth looking at: a provisioned account, a webhook with deliveries, a ticket
      // with an internal note, a fault and a journal with an error in it.
      const hook = await api.webhooks.create({
        url: receiver.url,
        events: ['ticket.created', 'ticket.replied'],
      })
      const uuid = await createTicket('Site down after the migration')
      await control('POST', `tickets/${uuid}/replies`, {
        message: 'Restarted PHP-FPM; watching it.',
        internal: true,
      })
      await control('POST', `tickets/${uuid}/replies`, {
        message: 'Fixed: the site is back. Sorry for the trouble.',
      })
      await api.hosting.create(501, { domain: 'shop.example', whm_package: 'starter' })
      await mock.clock.advance(90_000)
      await control('POST', 'faults', {
        match: { method: 'POST', route: '/api/v1/support/tickets' },
        times: 2,
        respond: { status: 429, retryAfter: 2 },
      })
      await api.tickets
        .create({ subject: 'Rate limited', message: 'y', department: 'billing', priority: 'low' })
        .catch(() => undefined)
      await shows('#webhooks-body', hook.id)
      await shows('#faults-body', '429')
      await mkdir(images, { recursive: true })
      await page.evaluate(() => window.scrollTo(0, 0))
      await page.screenshot({ path: `${images}inspector.png` })
      const delivery = page.locator('#webhooks-body details', { hasText: hook.id }).first()
      await delivery.locator('summary').click()
      await page.locator('#webhooks').scrollIntoViewIfNeeded()
      await page.locator('#webhooks').screenshot({ path: `${images}inspector-deliveries.png` })
      await page.locator('#requests').screenshot({ path: `${images}inspector-requests.png` })
    },
  )
})
/** Each panel's box on the page (document coordinates), by id. */
function panelBoxes(): Promise<Record<string, { x: number; y: number; width: number; height: number }>> {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll<HTMLElement>('main > .panel')].map((panel) => {
        const box = panel.getBoundingClientRect()
        return [panel.id, { x: box.x + scrollX, y: box.y + scrollY, width: box.width, height: box.height }]
      }),
    ),
  )
}

/** Resolves once the page has drawn something after `since` (its `data-version` moved on). */
async function redrawnAfter(since: number): Promise<void> {
  await page.waitForFunction((v) => Number(document.body.dataset.version) > v, since)
}
const drawVersion = () => page.evaluate(() => Number(document.body.dataset.version))

/** Waits for the journal panel to show `count` entries in all. */
async function journalShows(count: number): Promise<void> {
  await page.locator('#requests-body', { hasText: `${count} requests, newest first` }).waitFor()
}

describe('the inspector kept open all day', () => {
  it('keeps every panel in its place while 15 API calls change tickets, journal and faults', async () => {
    await page.setViewportSize({ width: 1440, height: 1000 })
    await control('POST', 'reset')
    await journalShows(0)
    const before = await panelBoxes()
    expect(Object.keys(before)).toHaveLength(7)
    for (let i = 0; i < 15; i++) {
      if (i % 5 === 4)
        await control('POST', 'faults', { match: { method: 'GET' }, times: 1, respond: { status: 503 } })
      await createTicket(`Layout ${i} ${'long subject '.repeat(i % 3)}`)
    }
    await journalShows(15)
    await shows('#tickets-body', 'Layout 14')
    expect(await panelBoxes()).toEqual(before)
    // Grown in their own scroll area, not on the page.
    await expect(page.locator('#tickets-body details').count()).resolves.toBeGreaterThan(15)
  })

  it('shows each journal entry with its request and its answer, headers included', async () => {
    await page.locator('#request-search').fill('')
    const uuid = await createTicket('Answer me')
    const [entry] = mock.requests.list({ method: 'POST', path: '/api/v1/support/tickets' }).slice(-1)
    const item = page.locator(`#requests-body details[data-key="request:${entry!.id}"]`)
    await item.locator('summary').click()
    const request = item.locator('.exchange-request')
    await expect(request.locator('pre').textContent()).resolves.toContain('"subject": "Answer me"')
    const answer = item.locator('.exchange-answer')
    await answer.locator('.badge-status-2xx', { hasText: '201' }).waitFor()
    await expect(answer.locator('dl.headers').textContent()).resolves.toContain('content-type')
    await expect(answer.locator('pre').textContent()).resolves.toContain(uuid)
  })

  it('reports a refused action beside its form, in view, with its reason once', async () => {
    await page.setViewportSize({ width: 400, height: 700 })
    await page.locator('#fault-form input[name=route]').fill('/api/v1/no-such-route/:id')
    await page.locator('#fault-form').getByRole('button', { name: 'Add fault' }).click()
    const box = page.locator('#fault-notice.notice-error')
    await box.waitFor()
    const message = (await box.textContent()) ?? ''
    expect(message).toMatch(/^Add fault failed: .*matches no route of the mock/)
    expect(message.split('matches no route').length - 1).toBe(1)
    const { top, bottom } = await box.evaluate((element) => element.getBoundingClientRect())
    expect(top).toBeGreaterThanOrEqual(0)
    expect(bottom).toBeLessThanOrEqual(700)
    await page.locator('#fault-form input[name=route]').fill('')
  })

  it('fits 400 px without sideways scrolling', async () => {
    await page.setViewportSize({ width: 400, height: 700 })
    await page.evaluate(() => window.scrollTo(0, 0))
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(width).toBeLessThanOrEqual(400)
  })

  it('ticks the mock clock in the header', async () => {
    const first = await page.locator('#clock').textContent()
    expect(first).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/)
    await expect.poll(() => page.locator('#clock').textContent(), { timeout: 3000 }).not.toBe(first)
  })

  it('passes axe (WCAG 2 A and AA): names, roles, contrast, keyboard', async () => {
    await page.setViewportSize({ width: 1440, height: 1000 })
    await page.evaluate(axeSource)
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run(
              o: unknown,
            ): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }>
          }
        }
      ).axe
      const result = await axe.run({
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      })
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    })
    expect(violations).toEqual([])
  })

  it('keeps a full journal of 1,000 entries to one page of the journal panel; Faults stays reachable', async () => {
    await page.setViewportSize({ width: 1440, height: 1000 })
    const since = await drawVersion()
    for (let i = 0; i < 1000; i++)
      await mock.fetch(`${mock.baseUrl}/api/v1/support/tickets?page=${(i % 7) + 1}`, {
        headers: { authorization: `Bearer ${KEY}` },
      })
    await redrawnAfter(since)
    await journalShows(1000)
    await expect(page.locator('#requests-body details').count()).resolves.toBe(20)
    const height = await page.evaluate(() => document.documentElement.scrollHeight)
    expect(height).toBeLessThan(2500)
    await page.locator('#faults').evaluate((element) => element.scrollIntoView({ block: 'center' }))
    const faults = await page.locator('#faults').boundingBox()
    expect(faults!.y).toBeGreaterThanOrEqual(0)
    expect(faults!.y + faults!.height).toBeLessThanOrEqual(1000)
    // Paging moves through the journal, newest first.
    await page.getByRole('button', { name: 'Older →' }).click()
    await page.locator('#requests-body', { hasText: '21–40 of 1000' }).waitFor()
    expect(pageErrors).toEqual([])
  })
})
