/**
 * Nothing done under one namespace's URL changes, moves, fails, delays or shows under another's or
 * the root's (docs/running-the-mock.md, "Namespaces"): store, reset, clock, faults, journal, ids,
 * webhook deliveries and their retries, each checked between two namespaces and the root of the
 * built CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, type CliRun, startCli } from '../helpers/cli.js'
import { startReceiver } from '../helpers/webhooks.js'

const KEY = 'svc_live_acme_full'
let cli: CliRun & { url: string }
let A: string
let B: string
let root: string

async function call(base: string, method: string, path: string, body?: unknown, key?: string) {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' }
  if (key) headers.authorization = `Bearer ${key}`
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as { data?: any; error?: any; meta?: any } }
}

const api = (base: string, method: string, path: string, body?: unknown) =>
  call(base, method, `/api/v1${path}`, body, KEY)
const ticketCount = async (base: string) =>
  (await api(base, 'GET', '/support/tickets')).body.meta.total as number
const newTicket = (base: string, subject: string) =>
  api(base, 'POST', '/support/tickets', { subject, message: 'Help, please.', department: 'technical' })

beforeAll(async () => {
  assertBuilt()
  cli = await startCli(['--port', '0', '--insecure-webhooks', '--quiet'])
  root = cli.url
  const made = async (id: string) =>
    (await call(root, 'POST', '/__mock/namespaces', { id })).body.data.url as string
  A = await made('a')
  B = await made('b')
})

afterAll(async () => {
  cli?.child.kill('SIGTERM')
  await cli?.exited
})

describe('two namespaces and the root', () => {
  it('keep their own store and ids: a ticket made in one shows in no other; a namespace draws ids as a fresh mock does', async () => {
    const [rootBefore, aBefore, bBefore] = [
      await ticketCount(root),
      await ticketCount(A),
      await ticketCount(B),
    ]
    expect(aBefore).toBe(rootBefore)
    const inRoot = await newTicket(root, 'made at the root')
    const inA = await newTicket(A, 'made in a')
    expect(inA.status).toBe(201)
    // Same seed, same random_seed, same calls: the same uuid, as two fresh mocks would draw.
    expect(inA.body.data.ticket_id).toBe(inRoot.body.data.ticket_id)
    expect(await ticketCount(A)).toBe(aBefore + 1)
    expect(await ticketCount(B)).toBe(bBefore)
    expect(await ticketCount(root)).toBe(rootBefore + 1)
    const inB = await api(B, 'GET', `/support/tickets/${inA.body.data.ticket_id}`)
    expect(inB.status).toBe(404)
    // Another random_seed, other ids.
    const other = (await call(root, 'POST', '/__mock/namespaces', { id: 'other-seed', random_seed: 'x' }))
      .body.data
    expect((await newTicket(other.url, 'elsewhere')).body.data.ticket_id).not.toBe(inA.body.data.ticket_id)
    await call(root, 'DELETE', '/__mock/namespaces/other-seed')
  })

  it("reset each its own: the root's reset leaves the namespaces, a namespace's reset goes back to its own seed", async () => {
    await newTicket(A, 'kept through the root reset')
    const inA = await ticketCount(A)
    await call(root, 'POST', '/__mock/reset')
    expect(await ticketCount(A)).toBe(inA)
    await newTicket(root, 'kept through the reset of a')
    const inRoot = await ticketCount(root)
    await call(A, 'POST', '/__mock/reset')
    expect(await ticketCount(root)).toBe(inRoot)
    expect(await ticketCount(A)).toBe(await ticketCount(B))
    // A namespace of its own seed resets to that seed.
    const seed = {
      resellers: [
        {
          id: 7,
          name: 'Own Seed Ltd',
          api_keys: [{ key: 'svc_live_own', scopes: ['support:read', 'support:write'] }],
        },
      ],
    }
    const own = (await call(root, 'POST', '/__mock/namespaces', { id: 'own', seed })).body.data
    expect(own.keys).toEqual([
      {
        key: 'svc_live_own',
        mode: 'live',
        scopes: ['support:read', 'support:write'],
        reseller_id: 7,
        reseller: 'Own Seed Ltd',
      },
    ])
    expect((await call(own.url, 'GET', '/api/v1/support/tickets', undefined, KEY)).status).toBe(401)
    await call(
      own.url,
      'POST',
      '/api/v1/support/tickets',
      { subject: 's', message: 'm', department: 'billing' },
      'svc_live_own',
    )
    await call(own.url, 'POST', '/__mock/reset')
    const after = await call(own.url, 'GET', '/api/v1/support/tickets', undefined, 'svc_live_own')
    expect(after.body.meta.total).toBe(0)
    expect((await call(root, 'GET', '/api/v1/support/tickets', undefined, 'svc_live_own')).status).toBe(401)
    await call(root, 'DELETE', '/__mock/namespaces/own')
  })

  it('move their own clock', async () => {
    const advanced = await call(A, 'POST', '/__mock/clock/advance', { seconds: 3600 })
    expect(advanced.body.data.offset_ms).toBe(3_600_000)
    expect((await call(B, 'GET', '/__mock/clock')).body.data.offset_ms).toBe(0)
    expect((await call(root, 'GET', '/__mock/clock')).body.data.offset_ms).toBe(0)
  })

  it('meet their own faults and keep their own journal', async () => {
    await call(A, 'DELETE', '/__mock/requests')
    await call(B, 'DELETE', '/__mock/requests')
    await call(root, 'DELETE', '/__mock/requests')
    await call(A, 'POST', '/__mock/faults', {
      match: { route: '/api/v1/reseller/whm/usage' },
      respond: { status: 503 },
    })
    expect((await api(A, 'GET', '/reseller/whm/usage')).status).toBe(503)
    expect((await api(B, 'GET', '/reseller/whm/usage')).status).toBe(200)
    expect((await api(root, 'GET', '/reseller/whm/usage')).status).toBe(200)
    expect((await call(B, 'GET', '/__mock/faults')).body.data).toEqual([])
    expect((await call(root, 'GET', '/__mock/faults')).body.data).toEqual([])
    const journal = (await call(A, 'GET', '/__mock/requests')).body.data
    expect(journal.map((e: { path: string; status: number }) => [e.path, e.status])).toEqual([
      ['/api/v1/reseller/whm/usage', 503],
    ])
    expect(
      (await call(B, 'GET', '/__mock/requests')).body.data.map((e: { status: number }) => e.status),
    ).toEqual([200])
    expect(
      (await call(root, 'GET', '/__mock/requests')).body.data.map((e: { status: number }) => e.status),
    ).toEqual([200])
    // The root's reset leaves a's fault; a's reset clears it.
    await call(root, 'POST', '/__mock/reset')
    expect((await api(A, 'GET', '/reseller/whm/usage')).status).toBe(503)
    await call(A, 'POST', '/__mock/reset')
    expect((await api(A, 'GET', '/reseller/whm/usage')).status).toBe(200)
  })

  it('deliver their own webhooks, retried on their own clock', async () => {
    const toA = await startReceiver((n) => (n === 1 ? 500 : 200))
    const toB = await startReceiver()
    const toRoot = await startReceiver()
    try {
      await api(A, 'PUT', '/reseller/webhook', { url: toA.url, secret: 'secret-a' })
      await api(B, 'PUT', '/reseller/webhook', { url: toB.url, secret: 'secret-b' })
      await api(root, 'PUT', '/reseller/webhook', { url: toRoot.url, secret: 'secret-root' })
      const emitted = await call(A, 'POST', '/__mock/events', { reseller_id: 1, event: 'wallet.credited' })
      expect(emitted.status).toBe(201)
      // An advance of 0 waits for the deliveries due now.
      await call(A, 'POST', '/__mock/clock/advance', { seconds: 0 })
      expect(toA.received).toHaveLength(1)
      const [delivery] = (await call(A, 'GET', '/__mock/deliveries')).body.data
      expect(delivery).toMatchObject({ event: 'wallet.credited', attempts: 1, status: 'failed' })
      expect(delivery.next_attempt_at).not.toBeNull()
      // b's and the root's clocks move: a's retry stays due on a's clock.
      await call(B, 'POST', '/__mock/clock/advance', { seconds: 7200 })
      await call(root, 'POST', '/__mock/clock/advance', { seconds: 7200 })
      expect(toA.received).toHaveLength(1)
      await call(A, 'POST', '/__mock/clock/advance', { seconds: 60 })
      expect(toA.received).toHaveLength(2)
      expect(toB.received).toHaveLength(0)
      expect(toRoot.received).toHaveLength(0)
      expect((await call(B, 'GET', '/__mock/deliveries')).body.data).toEqual([])
      expect((await call(root, 'GET', '/__mock/deliveries')).body.data).toEqual([])
      // A delivery id of a is unknown to b.
      const resend = await call(B, 'POST', `/__mock/deliveries/${delivery.delivery_id}/redeliver`)
      expect(resend.status).toBe(404)
      // Deleting a namespace drops its scheduled retries: nothing arrives after.
      const retried = (await call(A, 'POST', '/__mock/events', { reseller_id: 1, event: 'wallet.credited' }))
        .status
      expect(retried).toBe(201)
    } finally {
      await Promise.all([toA.close(), toB.close(), toRoot.close()])
    }
  })
})
