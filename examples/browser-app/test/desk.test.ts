// The desk's logic in Node, against the same mock through mock.fetch: what the page does in
// Chromium (test/app.browser.test.ts), minus the DOM and the service worker.
import { createMockApi } from '@reseller-api/mock'
import { ResellerApi } from '@reseller-api/sdk'
import { describe, expect, it } from 'vitest'
import { API_KEY, createSupportDesk } from '../src/desk.ts'

async function newDesk() {
  const mock = createMockApi({ insecureWebhooks: true })
  const api = new ResellerApi({ apiKey: API_KEY, baseUrl: mock.baseUrl, fetch: mock.fetch })
  const desk = await createSupportDesk(api, {
    baseUrl: mock.baseUrl,
    // Nothing listens there: the delivery fails and is retried, its record is what the desk checks.
    receiverUrl: 'http://127.0.0.1:9/webhook-receiver',
    controlFetch: mock.fetch,
  })
  return { mock, desk }
}

describe('the support desk', () => {
  it('opens a ticket and lists it first', async () => {
    const { desk } = await newDesk()
    const uuid = await desk.open('Printer on fire', 'Please help')
    const [newest] = await desk.tickets()
    expect(newest).toMatchObject({ uuid, subject: 'Printer on fire', status: 'open' })
  })

  it('verifies the ticket.created delivery its webhook was sent, and refuses a tampered copy', async () => {
    const { desk } = await newDesk()
    expect(await desk.lastDelivery()).toBeNull()
    const uuid = await desk.open('Signed', 'Check me')
    const checked = await desk.lastDelivery()
    expect(checked?.tamperedAccepted).toBe(false)
    expect(checked?.event).toMatchObject({
      event: 'ticket.created',
      data: { ticket_id: uuid, subject: 'Signed' },
    })
  })
})
