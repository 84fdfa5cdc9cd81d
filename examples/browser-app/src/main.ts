/**
 * The page: the reseller API answered in the browser by `@reseller-api/mock` through MSW's
 * service worker (`setupWorker`), the SDK used as in production, and webhook signatures checked with
 * Web Crypto (`@reseller-api/sdk/webhooks`; the page must be a secure context: HTTPS or localhost).
 */
import { createMockApi } from '@reseller-api/mock'
import { ResellerApi } from '@reseller-api/sdk'
import { setupWorker } from 'msw/browser'
import { API_KEY, createSupportDesk } from './desk.ts'

const status = document.getElementById('status')!
const list = document.getElementById('tickets')!
const webhook = document.getElementById('webhook')!
const form = document.getElementById('new-ticket') as HTMLFormElement

// Deliveries go to this page's own server (no network beyond it), hence insecureWebhooks.
const mock = createMockApi({ insecureWebhooks: true })
const worker = setupWorker(...mock.handlers)
// The page's own files and its webhook receiver are not the API's: let them through.
await worker.start({ quiet: true, onUnhandledFrame: 'bypass' })

const api = new ResellerApi({ apiKey: API_KEY, baseUrl: mock.baseUrl })
const desk = await createSupportDesk(api, {
  baseUrl: mock.baseUrl,
  receiverUrl: new URL('/webhook-receiver', location.href).href,
})

async function render(): Promise<void> {
  const tickets = await desk.tickets()
  list.replaceChildren(
    ...tickets.map((ticket) => {
      const item = document.createElement('li')
      item.textContent = `${ticket.subject} (${ticket.status})`
      return item
    }),
  )
  const checked = await desk.lastDelivery()
  if (checked) {
    const { event } = checked
    const subject = event.event === 'ticket.created' ? event.data.subject : ''
    webhook.textContent = `verified ${event.event}: "${subject}"; a tampered copy was ${checked.tamperedAccepted ? 'ACCEPTED' : 'refused'}`
  }
}

form.addEventListener('submit', async (submitted) => {
  submitted.preventDefault()
  const data = new FormData(form)
  await desk.open(String(data.get('subject')), String(data.get('message')))
  form.reset()
  await render()
})

await render()
status.textContent = `Mock running in this page: ${mock.baseUrl} (via MSW's service worker)`
document.body.dataset.ready = 'true'
