/**
 * A mock bound to a non-loopback address (a shared mock) holds the reseller webhook to the general
 * target policy, when set and before each attempt; on loopback it keeps reaching local receivers.
 * Only loopback traffic: the servers bind 0.0.0.0 but every request goes to 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createMockApi, type MockApi, type SeedInput } from '../../src/node.js'
import { startStandalone } from '../../src/server/host/standalone.js'
import { KEYS, testSeed } from '../helpers/mock.js'
import { startReceiver } from '../helpers/webhooks.js'

const cleanups: (() => unknown)[] = []
/** How a delivery to the receiver on 127.0.0.1 is refused without insecure webhooks. */
const REFUSED_LOOPBACK =
  /^target refused: 127\.0\.0\.1 is a loopback address; the mock sends to loopback and private addresses, and over http:\/\/, only when started with --insecure-webhooks .*; nothing was sent$/
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function receiver() {
  const r = await startReceiver()
  cleanups.push(() => r.close())
  return r
}

/** The test seed with reseller 1's webhook at `url`. */
function seedWith(url: string): SeedInput {
  const seed = testSeed()
  ;(seed.resellers[0] as Record<string, unknown>).webhook = { url, secret: 'reseller-secret' }
  return seed
}

/** A mock served on `host`; requests go to 127.0.0.1 on its port. */
async function served(host: string, options: { seed?: SeedInput; insecureWebhooks?: boolean } = {}) {
  const mock = createMockApi({ seed: options.seed ?? testSeed(), insecureWebhooks: options.insecureWebhooks })
  const server = await mock.listen({ port: 0, host })
  cleanups.push(async () => {
    await server.close()
    mock.clock.stop()
  })
  return { mock, base: `http://127.0.0.1:${server.port}` }
}

async function api(base: string, method: string, path: string, body?: unknown) {
  const answer = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${KEYS.a}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: answer.status, body: await answer.json() }
}

const emitHostingCreated = (mock: MockApi) =>
  mock.emit({
    reseller_id: 1,
    event: 'hosting.created',
    data: { client_id: 501, domain: 'x.example', username: 'xuser', whm_package: 'starter' },
  } as never)

describe('reseller webhook on a shared bind (0.0.0.0)', () => {
  it('PUT /reseller/webhook refuses a local or http:// target with 422 on url; a public HTTPS one is set', async () => {
    const { base } = await served('0.0.0.0')
    for (const url of ['http://127.0.0.1:9000/hook', 'https://localhost/hook', 'https://10.0.0.5/hook']) {
      const answer = await api(base, 'PUT', '/reseller/webhook', { url, secret: 's' })
      expect(answer.status, url).toBe(422)
      expect(answer.body.error.code).toBe('validation_error')
      expect(answer.body.error.fields.url.join(' ')).toMatch(/--insecure-webhooks/)
    }
    expect((await api(base, 'GET', '/reseller/webhook')).body.data).toEqual({ url: null, has_secret: false })
    const ok = await api(base, 'PUT', '/reseller/webhook', {
      url: 'https://hooks.example.com/r',
      secret: 's',
    })
    expect(ok.status).toBe(200)
  })

  it('a local reseller webhook from the seed is refused before each attempt: nothing reaches it', async () => {
    const r = await receiver()
    const { mock, base } = await served('0.0.0.0', { seed: seedWith(r.url) })
    await emitHostingCreated(mock)
    await mock.clock.advance(0)
    const [delivery] = mock.db.deliveries.findMany()
    expect(delivery).toMatchObject({ status: 'failed', http_status: null })
    // A policy decision, said as one: the address's kind and the flag that lifts it.
    expect(delivery!.error).toMatch(REFUSED_LOOPBACK)
    const test = await api(base, 'POST', '/reseller/webhook/test')
    expect(test.body.data).toMatchObject({ delivered: false, status_code: null })
    expect(test.body.data.error).toMatch(REFUSED_LOOPBACK)
    expect(r.received).toHaveLength(0)
  })

  it('the CLI server: the delivery record, the test endpoint and the request log name the loopback or private address and the flag', async () => {
    const r = await receiver()
    const log: string[] = []
    const standalone = await startStandalone({
      port: 0,
      host: '0.0.0.0',
      seed: seedWith(r.url),
      log: (line) => log.push(line),
    })
    cleanups.push(() => standalone.close())
    const base = `http://127.0.0.1:${new URL(standalone.url).port}`
    const test = await api(base, 'POST', '/reseller/webhook/test')
    expect(test.body.data).toMatchObject({ delivered: false, status_code: null })
    expect(test.body.data.error).toMatch(REFUSED_LOOPBACK)
    expect(test.body.data.error).not.toMatch(/details hidden|no HTTP answer/)
    const history = Array.from(standalone.context.store.deliveries.all())
    expect(history.at(-1)!.error).toBe(test.body.data.error)
    expect(log.find((line) => line.startsWith('webhook '))).toMatch(
      /attempt 1: POST http:\/\/127\.0\.0\.1:\d+\/\S* error \(target refused: 127\.0\.0\.1 is a loopback address; .*--insecure-webhooks/,
    )
    // A private address likewise, over HTTPS too.
    const { store } = standalone.context
    store.resellerWebhooks.update(store.resellerWebhooks.get(1)!, { url: 'https://10.1.2.3/hook' })
    const privateTest = await api(base, 'POST', '/reseller/webhook/test')
    expect(privateTest.body.data.error).toMatch(
      /^target refused: 10\.1\.2\.3 is a private address; .*--insecure-webhooks/,
    )
    expect(r.received).toHaveLength(0)
  })

  it('with insecureWebhooks a shared mock still delivers to local reseller receivers', async () => {
    const r = await receiver()
    const { mock, base } = await served('0.0.0.0', { seed: seedWith(r.url), insecureWebhooks: true })
    const put = await api(base, 'PUT', '/reseller/webhook', { url: r.url, secret: 's' })
    expect(put.status).toBe(200)
    await emitHostingCreated(mock)
    await mock.clock.advance(0)
    expect(mock.db.deliveries.findMany()[0]).toMatchObject({ status: 'success', http_status: 200 })
    expect(r.received).toHaveLength(1)
  })

  it('the CLI server bound to 0.0.0.0 refuses a local reseller webhook too', async () => {
    const standalone = await startStandalone({ port: 0, host: '0.0.0.0', seed: testSeed() })
    cleanups.push(() => standalone.close())
    const answer = await api(`http://127.0.0.1:${new URL(standalone.url).port}`, 'PUT', '/reseller/webhook', {
      url: 'http://127.0.0.1:9000/hook',
      secret: 's',
    })
    expect(answer.status).toBe(422)
  })
})

describe('reseller webhook on a loopback bind', () => {
  it.each(['127.0.0.1', 'localhost'])('bound to %s: local receivers are set and reached', async (host) => {
    const r = await receiver()
    const { mock, base } = await served(host)
    const put = await api(base, 'PUT', '/reseller/webhook', { url: r.url, secret: 's' })
    expect(put.status).toBe(200)
    await emitHostingCreated(mock)
    await mock.clock.advance(0)
    expect(mock.db.deliveries.findMany()[0]).toMatchObject({ status: 'success', http_status: 200 })
    expect(r.received).toHaveLength(1)
  })
})
