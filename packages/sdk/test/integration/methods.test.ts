/**
 * Every method of packages/sdk/README.md, "Methods", against the real mock through `mock.fetch`: each resolves to data a
 * user can rely on (values checked against the mock's state, not only types).
 */
import { demoSeed } from '@reseller-api/mock'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  type HostingCreated,
  NotFoundError,
  type Ticket,
  type WhmAccount,
  type WhmPackage,
} from '../../src/index.js'
import { constructEvent, SIGNATURE_HEADER, verifySignature } from '../../src/webhooks/index.js'
import { DOMAIN_PRICE, KEYS, newMock, SERVICE_ID, sdk, startReceiver } from './helpers.js'

const names = (packages: WhmPackage[]) => packages.map((p) => p.name).sort()
const usernames = (accounts: WhmAccount[]) => accounts.map((a) => a.username).sort()

describe('hosting (live key)', () => {
  it('create answers 201 with the account, which then exists, counts in usage and shows in WHM', async () => {
    const api = sdk(newMock())
    const before = await api.whm.usage()
    expect(before).toMatchObject({ accounts_used: 1, accounts_limit: 3, disk_limit_mb: 10240 })

    const { data: created, response } = await api.hosting
      .create(501, { domain: 'Shop.Example', whm_package: 'starter' })
      .withResponse()
    expect(response.status).toBe(201)
    expect(created).toMatchObject({
      sandbox: false,
      client_id: 501,
      domain: 'shop.example',
      cpanel_url: 'https://shop.example:2083',
      domain_registered: false,
      amount_debited: 0,
    })
    // The union narrows on `sandbox`: a live answer has no password.
    if (created.sandbox) throw new Error('expected a live answer')
    expect(created.username).toMatch(/^[a-z][a-z0-9_]{0,15}$/)
    expect('password' in created).toBe(false)

    const after = await api.whm.usage()
    expect(after.accounts_used).toBe(before.accounts_used + 1)
    expect(after.accounts_limit).toBe(before.accounts_limit)
    expect(after.disk_used_mb).toBeGreaterThan(before.disk_used_mb)

    const account = await api.whm.accounts.get(created.username)
    expect(account).toMatchObject({
      username: created.username,
      domain: 'shop.example',
      client_id: 501,
      whm_package: 'starter',
      status: 'active',
      suspended_at: null,
    })
    const list = await api.whm.accounts.list()
    expect(usernames(list.data)).toEqual([created.username, 'existing'].sort())
    expect(list.meta).toEqual({ total: 2, per_page: 20, current_page: 1 })
  })

  it('create with register_domain debits the domain price and says so', async () => {
    const api = sdk(newMock())
    const created = await api.hosting.create(502, {
      domain: 'registered.example',
      whm_package: 'pro',
      register_domain: true,
    })
    expect(created).toMatchObject({
      sandbox: false,
      client_id: 502,
      domain: 'registered.example',
      domain_registered: true,
      amount_debited: DOMAIN_PRICE,
    })
    expect((await api.whm.accounts.get(created.username)).whm_package).toBe('pro')
  })

  it('suspend, unsuspend and delete act on the account, as WHM then shows', async () => {
    const api = sdk(newMock())
    const { username } = await api.hosting.create(501, { domain: 'cycle.example', whm_package: 'starter' })

    const suspended = await api.hosting.suspend(501, username)
    expect(suspended).toMatchObject({ username, status: 'suspended', client_id: 501 })
    expect(suspended.suspended_at).toEqual(expect.any(String))
    expect((await api.whm.accounts.get(username)).status).toBe('suspended')

    const unsuspended = await api.hosting.unsuspend(501, username)
    expect(unsuspended).toMatchObject({ username, status: 'active', suspended_at: null })
    expect((await api.whm.accounts.get(username)).status).toBe('active')

    const usedBefore = (await api.whm.usage()).accounts_used
    expect(await api.hosting.delete(501, username)).toEqual({ username, deleted: true })
    await expect(api.whm.accounts.get(username)).rejects.toBeInstanceOf(NotFoundError)
    expect((await api.whm.usage()).accounts_used).toBe(usedBefore - 1)
  })

  it('an account of another client of the same reseller is not found through this client', async () => {
    const api = sdk(newMock())
    await expect(api.hosting.suspend(502, 'existing')).rejects.toBeInstanceOf(NotFoundError)
    expect((await api.whm.accounts.get('existing')).status).toBe('active')
  })
})

describe('hosting (sandbox key)', () => {
  it('create answers the simulated 201 and changes nothing', async () => {
    const mock = newMock()
    const sandbox = sdk(mock, KEYS.sandbox)
    const live = sdk(mock)
    expect(sandbox.mode).toBe('sandbox')
    expect(live.mode).toBe('live')
    const usageBefore = await live.whm.usage()

    const { data: created, response } = await sandbox.hosting
      .create(501, { domain: 'sandboxed.example', whm_package: 'starter', register_domain: true })
      .withResponse()
    expect(response.status).toBe(201)
    expect(created).toMatchObject({
      sandbox: true,
      client_id: 501,
      domain: 'sandboxed.example',
      whm_package: 'starter',
      domain_registered: false,
      cpanel_url: 'https://sandboxed.example:2083',
    })
    const narrowed: HostingCreated = created
    if (!narrowed.sandbox) throw new Error('expected a sandbox answer')
    expect(narrowed.username.startsWith('sb_')).toBe(true)
    expect(narrowed.password).toEqual(expect.any(String))
    expect(narrowed.message).toMatch(/simulated|sandbox/i)

    expect(await live.whm.usage()).toEqual(usageBefore)
    expect(usernames((await live.whm.accounts.list()).data)).toEqual(['existing'])
    // Nothing was debited: a live registration still finds the whole wallet (20 ≥ 12.5, once).
    const registered = await live.hosting.create(501, {
      domain: 'paid.example',
      whm_package: 'starter',
      register_domain: true,
    })
    expect(registered.domain_registered).toBe(true)
  })
})

describe('whm.accounts', () => {
  it('list, get, suspend, unsuspend and delete the seed account', async () => {
    const api = sdk(newMock())
    const page = await api.whm.accounts.list()
    expect(page.data).toHaveLength(1)
    const [seeded] = page.data
    expect(seeded).toMatchObject({
      username: 'existing',
      domain: 'existing.example',
      client_id: 501,
      whm_package: 'starter',
      status: 'active',
    })
    expect(await api.whm.accounts.get('existing')).toEqual(seeded)

    expect(await api.whm.accounts.suspend('existing')).toMatchObject({ status: 'suspended' })
    expect((await api.whm.accounts.list()).data[0]?.status).toBe('suspended')
    expect(await api.whm.accounts.unsuspend('existing')).toMatchObject({
      status: 'active',
      suspended_at: null,
    })

    expect(await api.whm.accounts.delete('existing')).toEqual({ username: 'existing', deleted: true })
    const empty = await api.whm.accounts.list()
    expect(empty.data).toEqual([])
    expect(empty.meta.total).toBe(0)
    expect((await api.whm.usage()).accounts_used).toBe(0)
  })
})

describe('whm.packages', () => {
  it('list, create and delete; a created package is usable for provisioning', async () => {
    const api = sdk(newMock())
    const list = await api.whm.packages.list()
    expect(names(list.data)).toEqual(['pro', 'starter'])
    expect(list.data.find((p) => p.name === 'starter')).toEqual({
      name: 'starter',
      quota: 1000,
      bandwidth: 10000,
      maxsql: 1,
      maxpop: 5,
      maxftp: 1,
      maxsub: 1,
    })

    const gold = {
      name: 'gold',
      quota: 8000,
      bandwidth: 80000,
      maxsql: 10,
      maxpop: 50,
      maxftp: 5,
      maxsub: 10,
    }
    const { data: created, response } = await api.whm.packages.create(gold).withResponse()
    expect(response.status).toBe(201)
    expect(created).toEqual(gold)
    const withGold = await api.whm.packages.list()
    expect(names(withGold.data)).toEqual(['gold', 'pro', 'starter'])
    expect(withGold.data.find((p) => p.name === 'gold')).toEqual(gold)

    const account = await api.hosting.create(501, { domain: 'gold.example', whm_package: 'gold' })
    expect((await api.whm.accounts.get(account.username)).whm_package).toBe('gold')
    await api.whm.accounts.delete(account.username)

    expect(await api.whm.packages.delete('gold')).toEqual({ name: 'gold', deleted: true })
    expect(names((await api.whm.packages.list()).data)).toEqual(['pro', 'starter'])
  })
})

describe('tickets', () => {
  it('create answers 201 and the ticket heads the list, with its first message', async () => {
    const api = sdk(newMock())
    const before = await api.tickets.list()
    expect(before.meta).toEqual({ total: 2, per_page: 20, current_page: 1 })

    const { data: created, response } = await api.tickets
      .create({ subject: 'Disk full', message: 'Our disk is full.', department: 'technical' })
      .withResponse()
    expect(response.status).toBe(201)
    expect(created).toEqual({
      ticket_id: expect.any(String),
      subject: 'Disk full',
      department: 'technical',
      priority: 'normal',
      status: 'open',
    })

    const after = await api.tickets.list()
    expect(after.meta.total).toBe(3)
    const head: Ticket | undefined = after.data[0]
    expect(head).toMatchObject({
      uuid: created.ticket_id,
      subject: 'Disk full',
      department: 'technical',
      status: 'open',
      priority: 'normal',
      messages_count: 1,
    })

    const detail = await api.tickets.get(created.ticket_id)
    expect(detail).toMatchObject({
      uuid: created.ticket_id,
      subject: 'Disk full',
      status: 'open',
      service_id: null,
    })
    expect(detail.messages.map((m) => [m.from, m.message])).toEqual([['client', 'Our disk is full.']])
  })

  it('create keeps priority and a service of the caller', async () => {
    const api = sdk(newMock())
    const created = await api.tickets.create({
      subject: 'About my hosting',
      message: 'Question',
      department: 'billing',
      priority: 'urgent',
      service_id: SERVICE_ID,
    })
    expect(created.priority).toBe('urgent')
    const detail = await api.tickets.get(created.ticket_id)
    expect(detail).toMatchObject({ priority: 'urgent', department: 'billing', service_id: SERVICE_ID })
  })

  it('get shows only non-internal messages, oldest first', async () => {
    const api = sdk(newMock())
    const open = (await api.tickets.list()).data.find((t) => t.subject === 'Open one')
    if (!open) throw new Error('seed ticket missing')
    expect(open.messages_count).toBe(2)
    const detail = await api.tickets.get(open.uuid)
    expect(detail.messages.map((m) => [m.from, m.message])).toEqual([
      ['client', 'hello'],
      ['staff', 'staff answer'],
    ])
  })

  it('reply answers 201 and appears in get(); close then reopen move the status', async () => {
    const api = sdk(newMock())
    const { ticket_id } = await api.tickets.create({
      subject: 'Help',
      message: 'first',
      department: 'general',
    })

    const { data: reply, response } = await api.tickets
      .reply(ticket_id, { message: 'more details' })
      .withResponse()
    expect(response.status).toBe(201)
    expect(reply).toMatchObject({ message: 'more details', from: 'client' })
    expect(reply.id).toEqual(expect.any(Number))

    const detail = await api.tickets.get(ticket_id)
    expect(detail.messages.map((m) => m.message)).toEqual(['first', 'more details'])
    expect(detail.messages.at(-1)?.id).toBe(reply.id)
    expect(detail.messages_count).toBe(2)

    expect(await api.tickets.close(ticket_id)).toEqual({ ticket_id, status: 'closed' })
    expect((await api.tickets.get(ticket_id)).status).toBe('closed')
    expect((await api.tickets.list()).data.find((t) => t.uuid === ticket_id)?.status).toBe('closed')

    expect(await api.tickets.reopen(ticket_id)).toEqual({ ticket_id, status: 'open' })
    expect((await api.tickets.get(ticket_id)).status).toBe('open')
  })

  it('a sandbox key reads the same tickets', async () => {
    const mock = newMock()
    const live = await sdk(mock).tickets.list()
    const sandbox = await sdk(mock, KEYS.sandbox).tickets.list()
    expect(sandbox.data).toEqual(live.data)
  })
})

describe('services and invoices', () => {
  it('list the seed records', async () => {
    const api = sdk(newMock())
    const services = await api.services.list()
    expect(services.meta).toEqual({ total: 1, per_page: 20, current_page: 1 })
    expect(services.data).toEqual([
      {
        id: SERVICE_ID,
        type: 'hosting',
        name: 'Hosting of existing.example',
        status: 'active',
        created_at: expect.any(String),
      },
    ])

    const invoices = await api.invoices.list()
    expect(invoices.meta).toEqual({ total: 2, per_page: 20, current_page: 1 })
    expect(invoices.data.map((i) => [i.number, i.total, i.status, i.currency]).sort()).toEqual([
      ['INV-1', 10, 'paid', 'EUR'],
      ['INV-2', 20.5, 'unpaid', 'EUR'],
    ])
  })

  it('page through the demo seed: 24 invoices are 20 + 4, 4 services', async () => {
    const api = sdk(newMock(demoSeed), 'svc_live_acme_full')
    const first = await api.invoices.list()
    expect(first.data).toHaveLength(20)
    expect(first.meta).toEqual({ total: 24, per_page: 20, current_page: 1 })
    const second = await first.getNextPage()
    expect(second.data).toHaveLength(4)
    expect(second.hasNextPage()).toBe(false)
    const ids = new Set([...first.data, ...second.data].map((i) => i.id))
    expect(ids.size).toBe(24)

    const services = []
    for await (const service of api.services.list()) services.push(service)
    expect(services.map((s) => s.type).sort()).toEqual(['domain', 'email', 'reseller', 'vps'])
  })
})

describe('webhooks', () => {
  const receivers: { close(): Promise<void> }[] = []
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()))
  })

  it('resellerWebhook: get, update (the secret never comes back), test delivers a signed event', async () => {
    const receiver = await startReceiver(200)
    receivers.push(receiver)
    const api = sdk(newMock())
    expect(await api.resellerWebhook.get()).toEqual({ url: null, has_secret: false })

    const secret = 'reseller-secret-123'
    const updated = await api.resellerWebhook.update({ url: receiver.url, secret })
    expect(updated).toEqual({ url: receiver.url, has_secret: true })
    expect(JSON.stringify(updated)).not.toContain(secret)
    expect(await api.resellerWebhook.get()).toEqual({ url: receiver.url, has_secret: true })

    const result = await api.resellerWebhook.test()
    expect(result).toEqual({ url: receiver.url, status_code: 200, delivered: true, error: null })
    expect(receiver.received).toHaveLength(1)
    const [delivery] = receiver.received
    if (!delivery) throw new Error('nothing received')
    const signature = delivery.headers[SIGNATURE_HEADER] as string
    expect(await verifySignature(delivery.body, signature, secret)).toBe(true)
    expect(await verifySignature(delivery.body, signature, 'another-secret')).toBe(false)
    const event = await constructEvent(delivery.body, signature, secret)
    expect(event).toMatchObject({ sandbox: true })
  })

  it('resellerWebhook.test reports a receiver that refuses', async () => {
    const receiver = await startReceiver(500)
    receivers.push(receiver)
    const api = sdk(newMock())
    await api.resellerWebhook.update({ url: receiver.url, secret: 's' })
    const result = await api.resellerWebhook.test()
    expect(result).toMatchObject({ url: receiver.url, status_code: 500, delivered: false })
    expect(result.error).toEqual(expect.any(String))
  })

  it('webhooks: create answers 201 with the secret, test delivers signed, deliveries lists newest first', async () => {
    const receiver = await startReceiver(200)
    receivers.push(receiver)
    const mock = newMock(undefined, { insecureWebhooks: true })
    const api = sdk(mock)

    const { data: hook, response } = await api.webhooks
      .create({ url: receiver.url, events: ['ticket.created'] })
      .withResponse()
    expect(response.status).toBe(201)
    expect(hook).toEqual({
      id: expect.any(String),
      url: receiver.url,
      events: ['ticket.created'],
      secret: expect.any(String),
      created_at: expect.any(String),
    })
    expect(hook.secret.length).toBeGreaterThan(0)

    const test = await api.webhooks.test(hook.id, { event: 'test' })
    expect(test).toMatchObject({ event: 'test', status: 'success', http_status: 200, retries: 0 })
    expect(test.delivery_id).toEqual(expect.any(String))
    expect(receiver.received).toHaveLength(1)
    const first = receiver.received[0]!
    expect(await verifySignature(first.body, first.headers[SIGNATURE_HEADER] as string, hook.secret)).toBe(
      true,
    )
    expect(JSON.parse(first.body)).toMatchObject({ event: 'test' })

    // A ticket creation is delivered to the subscribed webhook, on the mock's clock.
    const ticket = await api.tickets.create({ subject: 'Hook me', message: 'hi', department: 'sales' })
    await mock.clock.advance(0)
    await vi.waitFor(() => expect(receiver.received).toHaveLength(2), { timeout: 5000 })
    const second = receiver.received[1]!
    const event = await constructEvent(second.body, second.headers[SIGNATURE_HEADER] as string, hook.secret)
    expect(event).toMatchObject({
      event: 'ticket.created',
      data: { ticket_id: ticket.ticket_id, subject: 'Hook me' },
    })

    await vi.waitFor(
      async () => {
        const deliveries = await api.webhooks.deliveries(hook.id)
        expect(deliveries.meta).toEqual({ total: 2, per_page: 20, current_page: 1 })
        expect(deliveries.data.map((d) => [d.event, d.status])).toEqual([
          ['ticket.created', 'success'],
          ['test', 'success'],
        ])
      },
      { timeout: 5000 },
    )
    const history = await api.webhooks.deliveries(hook.id)
    expect(history.data[1]?.delivery_id).toBe(test.delivery_id)
    // The secret appears in the creation answer only.
    expect(JSON.stringify(history.data)).not.toContain(hook.secret)
  })

  it('webhooks.test records a failed attempt with its status', async () => {
    const receiver = await startReceiver(503)
    receivers.push(receiver)
    const api = sdk(newMock(undefined, { insecureWebhooks: true }))
    const hook = await api.webhooks.create({ url: receiver.url, events: ['ticket.replied'] })
    const delivery = await api.webhooks.test(hook.id)
    expect(delivery).toMatchObject({ event: 'test', status: 'failed', http_status: 503, retries: 0 })
    expect((await api.webhooks.deliveries(hook.id)).data).toEqual([delivery])
  })
})
