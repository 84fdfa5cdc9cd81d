// The inspector (contract §6.5) in real Chromium, against the built package's standalone server:
// it loads, updates live after API calls, and each action works. It also takes the screenshots of
// docs/running-the-mock.md (docs/images/inspector*.png). Run: pnpm test:browser.
import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { createMockApi, type MockApi, type RunningServer } from '@reseller-api/mock'
import { isApiError, ResellerApi } from '@reseller-api/sdk'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../../../scripts/lib/chromium.js'
import { startReceiver } from '../helpers/webhooks.js'

const KEY = 'svc_live_acme_full'
const images = fileURLToPath(new URL('../../../../docs/images/', import.meta.url))

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
    await shows('#clock', /\d{4}-\d\d-\d\dT/)
    expect(elsewhere).toEqual([])
    expect(pageErrors).toEqual([])
  })

  it('updates live, with no reload, when an API call changes the state', async () => {
    const navigations: string[] = []
    page.on('framenavigated', (frame) => navigations.push(frame.url()))
    const uuid = await createTicket('Created while the page watched')
    await shows('#tickets-body', 'Created while the page watched')
    await page.locator('#reply-form select[name=ticket]').selectOption(uuid)
    expect(navigations).toEqual([])
  })

  it('staff reply: an internal note is marked; a public reply moves the ticket to in_progress', async () => {
    const uuid = await createTicket('Needs a staff answer')
    await shows('#tickets-body', 'Needs a staff answer')
    await page.locator('#reply-form select[name=ticket]').selectOption(uuid)
    await page.locator('#reply-form textarea').fill('Checked the logs: nothing to tell the client yet')
    await page.locator('#reply-form input[name=internal]').check()
    await page.getByRole('button', { name: 'Reply as staff' }).click()
    const item = await openTicket(uuid)
    await item.locator('.message.internal', { hasText: 'Checked the logs' }).waitFor()
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
    await page.locator('#status-form select[name=ticket]').selectOption(uuid)
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
    await shows('#notice', /Redeliver dlv_\w+: done/)
    expect(receiver.received).toHaveLength(sent + 1)
    expect(receiver.received[sent]!.body).toBe(first!.body)
    await expect(page.locator('#webhooks-body details', { hasText: hook.id }).count()).resolves.toBe(2)
  })

  it('adds a fault, finds the failed request by the id the SDK error names, removes the fault', async () => {
    await page.locator('#fault-form select[name=method]').selectOption('GET')
    await page.locator('#fault-form input[name=route]').fill('/api/v1/support/tickets')
    await page.locator('#fault-form input[name=status]').fill('503')
    await page.getByRole('button', { name: 'Add fault' }).click()
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
    page.once('dialog', (dialog) => void dialog.accept())
    await page.locator('#reset').click()
    await page
      .locator('#tickets-body', { hasText: 'Gone after the reset' })
      .waitFor({ state: 'detached', timeout: 5000 })
    await shows('#tickets-body', 'How do I order a reseller plan?')
    expect(pageErrors).toEqual([])
    expect(elsewhere).toEqual([])
  })

  it('takes the screenshots of docs/running-the-mock.md', async () => {
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
  })
})
