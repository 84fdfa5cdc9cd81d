// ESM consumer of the packed tarballs: both SDK entries and the mock, with a real call.
import assert from 'node:assert/strict'
import { createMockApi, demoSeed } from '@reseller-api/mock'
import { NotFoundError, ResellerApi, VERSION } from '@reseller-api/sdk'
import { constructEvent, SIGNATURE_HEADER, signPayload, verifySignature } from '@reseller-api/sdk/webhooks'

const mock = createMockApi({ seed: demoSeed })
const api = new ResellerApi({ apiKey: 'svc_live_acme_full', baseUrl: mock.baseUrl, fetch: mock.fetch })
assert.equal(api.mode, 'live')
assert.match(VERSION, /^\d+\.\d+\.\d+/)

const page = await api.tickets.list()
assert.equal(page.data.length, 20)
assert.equal(page.meta.total, 25)
assert.equal(typeof page.data[0].uuid, 'string')
let count = 0
for await (const _ticket of api.tickets.list()) count++
assert.equal(count, 25)

const { data: created, response } = await api.tickets
  .create({ subject: 'From the ESM consumer', message: 'hello', department: 'general' })
  .withResponse()
assert.equal(response.status, 201)
assert.equal((await api.tickets.get(created.ticket_id)).subject, 'From the ESM consumer')

await assert.rejects(api.tickets.get('00000000-0000-4000-8000-000000000000'), (error) => {
  assert.ok(error instanceof NotFoundError)
  assert.equal(error.status, 404)
  assert.equal(error.code, 'not_found')
  return true
})

const body = JSON.stringify({ event: 'ticket.created', created_at: '2025-01-01T00:00:00+00:00', data: {} })
const signature = await signPayload(body, 'consumer-secret')
assert.match(signature, /^sha256=[0-9a-f]{64}$/)
assert.equal(await verifySignature(body, signature, 'consumer-secret'), true)
assert.equal(await verifySignature(body, signature, 'wrong-secret'), false)
assert.equal(SIGNATURE_HEADER, 'x-service-signature')
const resellerBody = JSON.stringify({
  event: 'wallet.credited',
  sandbox: false,
  timestamp: '2025-01-01T00:00:00.000000Z',
  data: { amount: 10, balance: 20, reason: 'top-up' },
})
const event = await constructEvent(resellerBody, await signPayload(resellerBody, 's'), 's')
assert.equal(event.event, 'wallet.credited')

console.log('esm: tickets.list total=%d, verifySignature ok', page.meta.total)
