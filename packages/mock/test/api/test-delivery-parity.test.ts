// generateTestDelivery (SDK) makes what the mock really sends: the same headers, the same body
// shape and timestamp formats, the same signature scheme.
import { GeneralEvent, ResellerEvent } from '@reseller-api/sdk/schemas'
import {
  constructEvent,
  DELIVERY_ID_HEADER,
  EVENT_HEADER,
  generateTestDelivery,
} from '@reseller-api/sdk/webhooks'
import { afterEach, expect, it } from 'vitest'
import {
  DELIVERY_ID_HEADER as MOCK_DELIVERY_ID_HEADER,
  EVENT_HEADER as MOCK_EVENT_HEADER,
} from '../../src/webhooks/attempt.js'
import { call, newMock } from '../helpers/mock.js'
import { startReceiver } from '../helpers/webhooks.js'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

it('a test delivery carries the headers of a real delivery, with the same values where they are fixed', async () => {
  expect([DELIVERY_ID_HEADER, EVENT_HEADER]).toEqual([MOCK_DELIVERY_ID_HEADER, MOCK_EVENT_HEADER])
  const mock = newMock(undefined, { insecureWebhooks: true })
  const receiver = await startReceiver()
  cleanups.push(receiver.close, () => mock.clock.stop())
  await call(mock, 'PUT', '/reseller/webhook', { body: { url: receiver.url, secret: 's3cret' } })
  await mock.emit({ reseller_id: 1, event: 'vps.activated' })
  await mock.clock.advance(0)
  const real = receiver.received[0]!
  const test = generateTestDelivery({ event: 'vps.activated', secret: 's3cret' })

  const realServiceHeaders = Object.keys(real.headers).filter((h) => h.startsWith('x-service-'))
  expect(
    Object.keys(test.headers)
      .filter((h) => h.startsWith('x-service-'))
      .sort(),
  ).toEqual(realServiceHeaders.sort())
  for (const name of ['content-type', 'user-agent', EVENT_HEADER])
    expect(test.headers[name]).toBe(real.headers[name])
  expect(test.headers[DELIVERY_ID_HEADER]).toMatch(/^dlv_[0-9a-f]{32}$/)
  expect(real.headers[DELIVERY_ID_HEADER]).toMatch(/^dlv_[0-9a-f]{32}$/)

  // The same envelope and time format as the mock's real event, both accepted by constructEvent.
  const realEvent = ResellerEvent.parse(JSON.parse(real.body))
  const testEvent = ResellerEvent.parse(JSON.parse(test.body))
  expect(Object.keys(testEvent).sort()).toEqual(Object.keys(realEvent).sort())
  const shape = (t: string) => t.replace(/\d/g, '0')
  expect(shape(testEvent.timestamp)).toBe(shape(realEvent.timestamp))
  await expect(constructEvent(test.body, test.headers['x-service-signature'], 's3cret')).resolves.toEqual(
    testEvent,
  )
})

it('general style: the same created_at format as the mock’s general events', async () => {
  const mock = newMock()
  cleanups.push(() => mock.clock.stop())
  const real = GeneralEvent.parse(await mock.emit({ reseller_id: 1, event: 'ticket.created' }))
  const test = GeneralEvent.parse(
    JSON.parse(generateTestDelivery({ event: 'ticket.created', secret: 's' }).body),
  )
  const shape = (t: string) => t.replace(/\d/g, '0')
  expect(shape(test.created_at)).toBe(shape(real.created_at))
})

it('a test delivery sends the same sample data as mock.emit for the same event, in both styles', async () => {
  const mock = newMock(undefined, { insecureWebhooks: true })
  const receiver = await startReceiver()
  cleanups.push(receiver.close, () => mock.clock.stop())
  const sent = (n: number) => JSON.parse(receiver.received[n]!.body) as { event: string; data: unknown }

  await call(mock, 'PUT', '/reseller/webhook', { body: { url: receiver.url, secret: 's3cret' } })
  const resellerTest = await call(mock, 'POST', '/reseller/webhook/test')
  expect(resellerTest.body.data.delivered).toBe(true)
  expect(sent(0).event).toBe('hosting.created')
  const emitted = await mock.emit({ reseller_id: 1, event: 'hosting.created' })
  expect(sent(0).data).toEqual(emitted.data)

  const hook = await call(mock, 'POST', '/webhooks', {
    body: { url: receiver.url, events: ['ticket.replied'] },
  })
  const generalTest = await call(mock, 'POST', `/webhooks/${hook.body.data.id}/test`, {
    body: { event: 'ticket.replied' },
  })
  expect(generalTest.body.data.status).toBe('success')
  const last = sent(receiver.received.length - 1)
  expect(last.event).toBe('ticket.replied')
  const emittedGeneral = await mock.emit({ reseller_id: 1, style: 'general', event: 'ticket.replied' })
  expect(last.data).toEqual(emittedGeneral.data)
})
