/**
 * The recipe of docs/errors-and-retries.md, "When an answer is lost", for every write other than
 * provisioning, checked against the mock: each write's answer is lost after it applied (`drop:
 * 'after'`), then it is sent again (by hand for a POST, by the client's own retry for PUT, PATCH
 * and DELETE), and the test asserts what the second sending answers and what the state became.
 */
import type { MockApi } from '@reseller-api/mock'
import {
  ConnectionError,
  InvalidStateError,
  NotFoundError,
  ResellerApi,
  ValidationError,
} from '@reseller-api/sdk'
import { describe, expect, it } from 'vitest'
import { KEYS, newMock, startReceiver } from './helpers.js'

const TICKET_UUID = /^[0-9a-f-]{36}$/

/** A client through `mock.fetch` with the SDK's default retries (two), so PUT, PATCH and DELETE are retried. */
function client(mock: MockApi): ResellerApi {
  return new ResellerApi({
    apiKey: KEYS.live,
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    strictResponses: true,
  })
}

/** Loses the answer to the next request of `method` on `route`, after it applied. */
function loseNext(mock: MockApi, method: string, route: string): void {
  mock.faults.add({ match: { method: method as 'POST', route }, drop: 'after', times: 1 })
}

/** Expects `promise` to reject with a ConnectionError of unknown outcome (the answer was lost). */
async function lost(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ConnectionError)
  expect((error as ConnectionError).outcome).toBe('unknown')
}

function rows(mock: MockApi, table: string): Record<string, unknown>[] {
  return mock.state().tables[table] as Record<string, unknown>[]
}

/** The statuses the mock answered for `route`, in order (`null`: the answer was dropped). */
function statuses(mock: MockApi, route: string): (number | null)[] {
  return mock.requests.list({ route }).map((e) => e.status)
}

describe('safe to send again: a second sending changes nothing and says so', () => {
  it.each([
    [
      'api.hosting.suspend',
      '/api/v1/reseller/clients/:client_id/hosting/:cpanel_username/suspend',
      'suspended',
    ],
    ['api.whm.accounts.suspend', '/api/v1/reseller/whm/accounts/:username/suspend', 'suspended'],
  ] as const)(
    '%s: InvalidStateError "already suspended"; the account reads suspended',
    async (name, route) => {
      const mock = newMock()
      const api = client(mock)
      const suspend = () =>
        name === 'api.hosting.suspend'
          ? api.hosting.suspend(501, 'existing')
          : api.whm.accounts.suspend('existing')
      loseNext(mock, 'POST', route)
      await lost(suspend())
      await expect(suspend()).rejects.toBeInstanceOf(InvalidStateError)
      expect((await api.whm.accounts.get('existing')).status).toBe('suspended')
      expect(statuses(mock, route)).toEqual([null, 422])
    },
  )

  it.each([
    ['api.hosting.unsuspend', '/api/v1/reseller/clients/:client_id/hosting/:cpanel_username/unsuspend'],
    ['api.whm.accounts.unsuspend', '/api/v1/reseller/whm/accounts/:username/unsuspend'],
  ] as const)('%s: InvalidStateError "not suspended"; the account reads active', async (name, route) => {
    const mock = newMock()
    const api = client(mock)
    await api.whm.accounts.suspend('existing')
    const unsuspend = () =>
      name === 'api.hosting.unsuspend'
        ? api.hosting.unsuspend(501, 'existing')
        : api.whm.accounts.unsuspend('existing')
    loseNext(mock, 'POST', route)
    await lost(unsuspend())
    await expect(unsuspend()).rejects.toBeInstanceOf(InvalidStateError)
    expect((await api.whm.accounts.get('existing')).status).toBe('active')
  })

  it.each([
    ['api.hosting.delete', '/api/v1/reseller/clients/:client_id/hosting/:cpanel_username'],
    ['api.whm.accounts.delete', '/api/v1/reseller/whm/accounts/:username'],
  ] as const)(
    '%s: the automatic retry meets NotFoundError; the account is gone, once',
    async (name, route) => {
      const mock = newMock()
      const api = client(mock)
      loseNext(mock, 'DELETE', route)
      const remove =
        name === 'api.hosting.delete'
          ? api.hosting.delete(501, 'existing')
          : api.whm.accounts.delete('existing')
      await expect(remove).rejects.toBeInstanceOf(NotFoundError)
      expect(statuses(mock, route)).toEqual([null, 404])
      expect(rows(mock, 'accounts').filter((a) => a.username === 'existing')).toEqual([])
    },
  )

  it('api.whm.packages.create: ValidationError "already exists" on name; the package is there, once', async () => {
    const mock = newMock()
    const api = client(mock)
    const body = { name: 'gold', quota: 2000, bandwidth: 20000, maxsql: 2, maxpop: 10, maxftp: 1, maxsub: 2 }
    loseNext(mock, 'POST', '/api/v1/reseller/whm/packages')
    await lost(api.whm.packages.create(body))
    const again = await api.whm.packages.create(body).catch((e: unknown) => e)
    expect(again).toBeInstanceOf(ValidationError)
    expect((again as ValidationError).fields.name?.[0]).toContain('already exists')
    expect(rows(mock, 'packages').filter((p) => p.name === 'gold')).toHaveLength(1)
  })

  it('api.whm.packages.delete: the automatic retry meets NotFoundError; the package is gone', async () => {
    const mock = newMock()
    const api = client(mock)
    loseNext(mock, 'DELETE', '/api/v1/reseller/whm/packages/:name')
    await expect(api.whm.packages.delete('pro')).rejects.toBeInstanceOf(NotFoundError)
    expect(rows(mock, 'packages').filter((p) => p.name === 'pro')).toEqual([])
  })

  it('api.tickets.close and reopen: the automatic retry meets InvalidStateError; the ticket reads as asked', async () => {
    const mock = newMock()
    const api = client(mock)
    const [open] = (await api.tickets.list()).data.filter((t) => t.status === 'open')
    loseNext(mock, 'PATCH', '/api/v1/support/tickets/:ticket_uuid/close')
    await expect(api.tickets.close(open!.uuid)).rejects.toBeInstanceOf(InvalidStateError)
    expect((await api.tickets.get(open!.uuid)).status).toBe('closed')
    loseNext(mock, 'PATCH', '/api/v1/support/tickets/:ticket_uuid/reopen')
    await expect(api.tickets.reopen(open!.uuid)).rejects.toBeInstanceOf(InvalidStateError)
    expect((await api.tickets.get(open!.uuid)).status).toBe('open')
  })

  it('api.resellerWebhook.update: the automatic retry succeeds with the same configuration', async () => {
    const mock = newMock()
    const api = client(mock)
    loseNext(mock, 'PUT', '/api/v1/reseller/webhook')
    const config = await api.resellerWebhook.update({
      url: 'https://hooks.example.com/r',
      secret: 's3cret-value',
    })
    expect(config).toEqual({ url: 'https://hooks.example.com/r', has_secret: true })
    expect(statuses(mock, '/api/v1/reseller/webhook')).toEqual([null, 200])
  })
})

describe('not safe to send again: a second sending does it twice', () => {
  it('api.tickets.create: a second ticket; look for yours (newest first) before sending again', async () => {
    const mock = newMock()
    const api = client(mock)
    const body = { subject: 'Order 1042: DNS', message: 'Please check', department: 'technical' } as const
    const before = rows(mock, 'tickets').length
    loseNext(mock, 'POST', '/api/v1/support/tickets')
    await lost(api.tickets.create(body))
    // The recipe: the newest tickets show whether it was created.
    const newest = (await api.tickets.list()).data[0]
    expect(newest).toMatchObject({
      subject: body.subject,
      status: 'open',
      uuid: expect.stringMatching(TICKET_UUID),
    })
    // What blindly sending again does: a duplicate.
    await api.tickets.create(body)
    expect(rows(mock, 'tickets').length).toBe(before + 2)
  })

  it("api.tickets.reply: a second message; read the ticket's last message before sending again", async () => {
    const mock = newMock()
    const api = client(mock)
    const [open] = (await api.tickets.list()).data.filter((t) => t.status === 'open')
    loseNext(mock, 'POST', '/api/v1/support/tickets/:ticket_uuid/messages')
    await lost(api.tickets.reply(open!.uuid, { message: 'Any news?' }))
    expect((await api.tickets.get(open!.uuid)).messages.at(-1)).toMatchObject({
      message: 'Any news?',
      from: 'client',
    })
    await api.tickets.reply(open!.uuid, { message: 'Any news?' })
    const mine = (await api.tickets.get(open!.uuid)).messages.filter((m) => m.message === 'Any news?')
    expect(mine).toHaveLength(2)
  })

  it('api.webhooks.create: a second webhook with another secret; the first one cannot be listed', async () => {
    const mock = newMock()
    const api = client(mock)
    const body = { url: 'https://hooks.example.com/general', events: ['ticket.created'] as const }
    loseNext(mock, 'POST', '/api/v1/webhooks')
    await lost(api.webhooks.create({ url: body.url, events: [...body.events] }))
    const second = await api.webhooks.create({ url: body.url, events: [...body.events] })
    const hooks = rows(mock, 'webhooks').filter((w) => w.url === body.url)
    expect(hooks).toHaveLength(2)
    expect(hooks.map((w) => w.id)).toContain(second.id)
  })
})

describe('harmless to send again: a second test event', () => {
  it('api.resellerWebhook.test and api.webhooks.test each deliver one more test event', async () => {
    const receiver = await startReceiver()
    try {
      const mock = newMock(undefined, { insecureWebhooks: true })
      const api = client(mock)
      await api.resellerWebhook.update({ url: receiver.url, secret: 's3cret-value' })
      loseNext(mock, 'POST', '/api/v1/reseller/webhook/test')
      await lost(api.resellerWebhook.test())
      expect(await api.resellerWebhook.test()).toMatchObject({ delivered: true })
      expect(receiver.received).toHaveLength(2)
      const hook = await api.webhooks.create({ url: receiver.url, events: ['ticket.created'] })
      loseNext(mock, 'POST', '/api/v1/webhooks/:id/test')
      await lost(api.webhooks.test(hook.id, { event: 'test' }))
      await api.webhooks.test(hook.id, { event: 'test' })
      const tests = (await api.webhooks.deliveries(hook.id)).data.filter((d) => d.event === 'test')
      expect(tests).toHaveLength(2)
      expect(receiver.received).toHaveLength(4)
    } finally {
      await receiver.close()
    }
  })
})
