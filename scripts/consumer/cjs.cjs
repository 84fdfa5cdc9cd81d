// CommonJS consumer: require() of the ES-module packages (Node's require of ES modules).
const assert = require('node:assert/strict')
const { createMockApi, demoSeed } = require('@reseller-api/mock')
const { NotFoundError, ResellerApi, ValidationError } = require('@reseller-api/sdk')
const { signPayload, verifySignature } = require('@reseller-api/sdk/webhooks')

async function main() {
  assert.equal(typeof ResellerApi, 'function')
  assert.equal(typeof createMockApi, 'function')
  const mock = createMockApi({ seed: demoSeed })
  const api = new ResellerApi({ apiKey: 'svc_live_acme_full', baseUrl: mock.baseUrl, fetch: mock.fetch })

  const page = await api.tickets.list()
  assert.equal(page.data.length, 20)
  assert.equal(page.meta.total, 25)
  const next = await page.getNextPage()
  assert.equal(next.data.length, 5)
  assert.equal(next.hasNextPage(), false)

  const usage = await api.whm.usage()
  assert.equal(typeof usage.accounts_used, 'number')

  await assert.rejects(api.whm.accounts.get('nobody'), (error) => {
    assert.ok(error instanceof NotFoundError)
    assert.equal(error.status, 404)
    return true
  })
  await assert.rejects(
    api.tickets.create({ subject: 'x'.repeat(300), message: 'm', department: 'sales' }),
    (error) => error instanceof ValidationError && Array.isArray(error.fields.subject),
  )

  const body = '{"hello":"world"}'
  const signature = await signPayload(body, 'consumer-secret')
  assert.equal(await verifySignature(body, signature, 'consumer-secret'), true)
  assert.equal(await verifySignature(body, signature, 'wrong-secret'), false)
  assert.equal(await verifySignature(body, undefined, 'consumer-secret'), false)

  console.log('cjs: tickets.list total=%d, verifySignature ok', page.meta.total)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
