// The inspector under a namespace's URL, in real Chromium, against the built CLI: every request the
// page makes (document, script, style, icon, control endpoints, event stream) stays below the
// namespace's URL and succeeds, it shows the namespace's own state and updates live; the root's
// inspector lists the namespaces and links to each. Run: pnpm test:browser.
import { ResellerApi } from '@reseller-api/sdk'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../../../scripts/lib/chromium.js'
import { assertBuilt, type CliRun, startCli } from '../helpers/cli.js'

const KEY = 'svc_live_acme_full'

let cli: CliRun & { url: string }
let browser: Awaited<ReturnType<typeof launchChromium>>
let page: Page
let nsUrl: string
/** Every request of the page with what became of it. */
const requests: { url: string; status: number | 'failed' }[] = []
const pageErrors: string[] = []

beforeAll(async () => {
  assertBuilt()
  cli = await startCli(['--port', '0', '--quiet'])
  const made = await fetch(`${cli.url}/__mock/namespaces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'browser', label: 'Chromium run' }),
  })
  nsUrl = ((await made.json()) as { data: { url: string } }).data.url
  browser = await launchChromium()
  page = await browser.context.newPage()
  page.on('response', (response) => requests.push({ url: response.url(), status: response.status() }))
  page.on('requestfailed', (request) => {
    // The event stream is cut when the page goes: not a failure of the page.
    if (!request.url().endsWith('/__mock/stream')) requests.push({ url: request.url(), status: 'failed' })
  })
  page.on('pageerror', (error) => pageErrors.push(error.message))
})

afterAll(async () => {
  await browser?.close()
  cli?.child.kill('SIGTERM')
  await cli?.exited
})

describe("a namespace's inspector", () => {
  it('loads below the namespace URL with no failed request, and shows and follows the namespace alone', async () => {
    const api = new ResellerApi({ apiKey: KEY, baseUrl: nsUrl, maxRetries: 0 })
    await page.goto(`${nsUrl}/__mock/`)
    await page.locator('#live', { hasText: 'live' }).waitFor()
    await page.locator('h1 .namespace', { hasText: 'namespace browser' }).waitFor()
    await page.locator('#resellers-body', { hasText: 'Acme Hosting' }).waitFor()
    const { ticket_id } = await api.tickets.create({
      subject: 'Only in the browser namespace',
      message: 'Made by the test',
      department: 'technical',
    })
    await page.locator('#tickets-body', { hasText: 'Only in the browser namespace' }).waitFor()
    await page.locator('#requests-body', { hasText: '/api/v1/support/tickets' }).waitFor()
    // An action of the page acts on the namespace: its clock moves, the root's does not.
    await page.locator('#advance-form input[name=amount]').fill('2')
    await page.getByRole('button', { name: 'Advance' }).click()
    await page.locator('#advance-notice', { hasText: 'done' }).waitFor()
    const clocks = await Promise.all(
      [nsUrl, cli.url].map(
        async (base) => ((await (await fetch(`${base}/__mock/clock`)).json()) as any).data.offset_ms,
      ),
    )
    expect(clocks[0]).toBeGreaterThan(0)
    expect(clocks[1]).toBe(0)
    const root = await fetch(`${cli.url}/api/v1/support/tickets/${ticket_id}`, {
      headers: { authorization: `Bearer ${KEY}` },
    })
    expect(root.status).toBe(404)

    expect(requests.length).toBeGreaterThan(5)
    expect(requests.filter((r) => r.status === 'failed' || r.status >= 400)).toEqual([])
    expect(requests.filter((r) => !r.url.startsWith(`${nsUrl}/`))).toEqual([])
    expect(pageErrors).toEqual([])
  })

  it("is listed by the root's inspector, which links to it", async () => {
    requests.length = 0
    await page.goto(`${cli.url}/__mock/`)
    const row = page.locator('#namespaces-body tr', { hasText: 'browser' })
    await row.waitFor()
    await expect(row.textContent()).resolves.toContain('Chromium run')
    await row.locator('a', { hasText: 'browser' }).click()
    await page.waitForURL(`${nsUrl}/__mock/`)
    await page.locator('#live', { hasText: 'live' }).waitFor()
    expect(requests.filter((r) => r.status === 'failed' || r.status >= 400)).toEqual([])
    expect(pageErrors).toEqual([])
  })
})
