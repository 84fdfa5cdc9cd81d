// Hostile webhook targets: the address policy at creation and again at delivery,
// for general and reseller webhooks. The policy itself: webhook-target-policy.test.ts.

import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { SeedInput } from '../../src/node.js'
import { OPAQUE_FAILURE } from '../../src/webhooks/dispatcher.js'
import { call, expectError, KEYS, newMock, state, testSeed } from '../helpers/mock.js'
import { startReceiver } from '../helpers/webhooks.js'

const ISSUE_URLS = [
  'https://[::127.0.0.1]/hook',
  'https://[fec0::1]/hook',
  'https://[64:ff9b::127.0.0.1]/hook',
  'https://198.18.0.1/hook',
  'https://localhost./hook',
]

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function receiver() {
  const r = await startReceiver()
  cleanups.push(() => r.close())
  return r
}

/** The test seed with webhooks set on reseller 1 (as a seed or an earlier insecure run may store them). */
function seedWith(resellerUrl: string | undefined, generalUrl?: string): SeedInput {
  const seed = testSeed()
  const acme = seed.resellers[0]! as Record<string, unknown>
  if (resellerUrl) acme.webhook = { url: resellerUrl, secret: 'reseller-secret' }
  if (generalUrl) acme.webhooks = [{ id: 'wh_seeded', url: generalUrl, events: ['ticket.created'] }]
  return seed
}

describe('general webhooks: creation', () => {
  it.each(ISSUE_URLS)('POST /webhooks refuses %s with 422 on url, creating nothing', async (url) => {
    const mock = newMock()
    const before = (await state(mock)).tables.webhooks?.length ?? 0
    const answer = await call(mock, 'POST', '/webhooks', { body: { url, events: ['ticket.created'] } })
    expectError(answer, 422, 'validation_error')
    expect(answer.body.error.fields.url[0]).toMatch(/^must point to a public host: /)
    expect((await state(mock)).tables.webhooks?.length ?? 0).toBe(before)
  })

  it('accepts a public HTTPS URL, and any local URL with insecureWebhooks', async () => {
    const created = await call(newMock(), 'POST', '/webhooks', {
      body: { url: 'https://hooks.example.com/x', events: ['ticket.created'] },
    })
    expect(created.status).toBe(201)
    for (const url of ISSUE_URLS.concat('http://127.0.0.1:9/hook')) {
      const answer = await call(newMock(undefined, { insecureWebhooks: true }), 'POST', '/webhooks', {
        body: { url, events: ['ticket.created'] },
      })
      expect(answer.status, url).toBe(201)
    }
  })
})

describe('delivery-time checks (targets stored by a seed, a state file or an insecure run)', () => {
  it('a general delivery to a local target fails as refused, and nothing is sent', async () => {
    const r = await receiver()
    const mock = newMock(seedWith(undefined, r.url.replace('http://127.0.0.1', 'https://[::ffff:127.0.0.1]')))
    await call(mock, 'POST', '/support/tickets', {
      body: { subject: 's', department: 'technical', message: 'm' },
    })
    await mock.clock.advance(0)
    const deliveries = (await state(mock)).tables.deliveries!
    expect(deliveries).toHaveLength(1)
    expect(deliveries[0]).toMatchObject({ status: 'failed', http_status: null })
    expect(deliveries[0]!.error).toMatch(
      /^target refused: ::ffff:7f00:1 maps to 127\.0\.0\.1, which is a loopback address; .*--insecure-webhooks/,
    )
    expect(r.received).toHaveLength(0)
  })

  it('a reseller delivery reaches a loopback receiver without insecureWebhooks (the public-host rule binds general webhooks only)', async () => {
    const r = await receiver()
    const mock = newMock(seedWith(r.url))
    await mock.emit({
      reseller_id: 1,
      event: 'hosting.created',
      data: { client_id: 501, domain: 'x.example', username: 'xuser', whm_package: 'starter' },
    } as never)
    await mock.clock.advance(0)
    const [delivery] = (await state(mock)).tables.deliveries!
    expect(delivery).toMatchObject({ status: 'success', http_status: 200 })
    expect(r.received).toHaveLength(1)
  })

  it('the reseller test endpoint cannot probe ports: a closed port and an open non-HTTP port answer alike', async () => {
    const closed = await startReceiver()
    await closed.close()
    // A TCP service that is not HTTP (a database, SSH): it accepts and hangs up.
    const tcp = createServer((socket) => socket.destroy())
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise<void>((resolve) => tcp.close(() => resolve())))
    const open = `http://127.0.0.1:${(tcp.address() as AddressInfo).port}/hook`
    const results = []
    for (const url of [closed.url, open]) {
      const answer = await call(newMock(seedWith(url)), 'POST', '/reseller/webhook/test', { key: KEYS.a })
      expect(answer.status).toBe(200)
      const { url: _url, ...rest } = answer.body.data
      results.push(rest)
    }
    expect(results[0]).toEqual({ status_code: null, delivered: false, error: OPAQUE_FAILURE })
    expect(results[1]).toEqual(results[0])
  })

  it('with insecureWebhooks a failed reseller delivery says why', async () => {
    const closed = await startReceiver()
    await closed.close()
    const answer = await call(
      newMock(seedWith(closed.url), { insecureWebhooks: true }),
      'POST',
      '/reseller/webhook/test',
      {
        key: KEYS.a,
      },
    )
    expect(answer.body.data.delivered).toBe(false)
    expect(answer.body.data.error).not.toBe(OPAQUE_FAILURE)
    expect(answer.body.data.error).toMatch(/ECONNREFUSED|refused|fetch failed/i)
  })
})
