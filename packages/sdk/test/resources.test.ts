import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildPath, encodePathSegment } from '../src/core/path.js'
import { type ResellerApi, ValidationError } from '../src/index.js'
import { codePoint } from './helpers/code-points.js'
import { fixtures, ok, page, setup } from './helpers/fake-api.js'

const { uuid } = fixtures
const statusChange = (status: string) => ({ ticket_id: uuid, status })
const webhook = {
  id: 'wh_1',
  url: 'https://hooks.example/in',
  events: ['ticket.created'],
  secret: 'whsec_abc',
  created_at: fixtures.time,
}

type Row = [
  name: string,
  call: (api: ResellerApi) => Promise<unknown>,
  method: string,
  path: string,
  body: unknown,
  answer: unknown,
]

/** Every method (packages/sdk/README.md, "Methods"): what it sends, and that it resolves to the answer's `data`. */
const rows: Row[] = [
  [
    'hosting.create',
    (api) => api.hosting.create(501, { domain: 'shop.example', whm_package: 'starter' }),
    'POST',
    '/reseller/clients/501/hosting',
    { domain: 'shop.example', whm_package: 'starter', register_domain: false, send_welcome_email: true },
    fixtures.hostingLive(),
  ],
  [
    'hosting.suspend',
    (api) => api.hosting.suspend(501, 'alice'),
    'POST',
    '/reseller/clients/501/hosting/alice/suspend',
    undefined,
    fixtures.account(),
  ],
  [
    'hosting.unsuspend',
    (api) => api.hosting.unsuspend(501, 'alice'),
    'POST',
    '/reseller/clients/501/hosting/alice/unsuspend',
    undefined,
    fixtures.account(),
  ],
  [
    'hosting.delete',
    (api) => api.hosting.delete(501, 'alice'),
    'DELETE',
    '/reseller/clients/501/hosting/alice',
    undefined,
    { username: 'alice', deleted: true },
  ],
  ['whm.usage', (api) => api.whm.usage(), 'GET', '/reseller/whm/usage', undefined, fixtures.usage()],
  [
    'whm.accounts.get',
    (api) => api.whm.accounts.get('alice'),
    'GET',
    '/reseller/whm/accounts/alice',
    undefined,
    fixtures.account(),
  ],
  [
    'whm.accounts.suspend',
    (api) => api.whm.accounts.suspend('alice'),
    'POST',
    '/reseller/whm/accounts/alice/suspend',
    undefined,
    fixtures.account(),
  ],
  [
    'whm.accounts.unsuspend',
    (api) => api.whm.accounts.unsuspend('alice'),
    'POST',
    '/reseller/whm/accounts/alice/unsuspend',
    undefined,
    fixtures.account(),
  ],
  [
    'whm.accounts.delete',
    (api) => api.whm.accounts.delete('alice'),
    'DELETE',
    '/reseller/whm/accounts/alice',
    undefined,
    { username: 'alice', deleted: true },
  ],
  [
    'whm.packages.create',
    (api) => api.whm.packages.create(fixtures.pkg('gold')),
    'POST',
    '/reseller/whm/packages',
    fixtures.pkg('gold'),
    fixtures.pkg('gold'),
  ],
  [
    'whm.packages.delete',
    (api) => api.whm.packages.delete('gold'),
    'DELETE',
    '/reseller/whm/packages/gold',
    undefined,
    { name: 'gold', deleted: true },
  ],
  [
    'tickets.create',
    (api) => api.tickets.create({ subject: 'Down', message: 'Site is down', department: 'technical' }),
    'POST',
    '/support/tickets',
    { subject: 'Down', message: 'Site is down', department: 'technical', priority: 'normal' },
    { ticket_id: uuid, subject: 'Down', department: 'technical', priority: 'normal', status: 'open' },
  ],
  [
    'tickets.get',
    (api) => api.tickets.get(uuid),
    'GET',
    `/support/tickets/${uuid}`,
    undefined,
    fixtures.ticketDetail(),
  ],
  [
    'tickets.reply',
    (api) => api.tickets.reply(uuid, { message: 'Any news?' }),
    'POST',
    `/support/tickets/${uuid}/messages`,
    { message: 'Any news?' },
    { id: 2, message: 'Any news?', from: 'client', created_at: fixtures.time },
  ],
  [
    'tickets.close',
    (api) => api.tickets.close(uuid),
    'PATCH',
    `/support/tickets/${uuid}/close`,
    undefined,
    statusChange('closed'),
  ],
  [
    'tickets.reopen',
    (api) => api.tickets.reopen(uuid),
    'PATCH',
    `/support/tickets/${uuid}/reopen`,
    undefined,
    statusChange('open'),
  ],
  [
    'resellerWebhook.get',
    (api) => api.resellerWebhook.get(),
    'GET',
    '/reseller/webhook',
    undefined,
    { url: null, has_secret: false },
  ],
  [
    'resellerWebhook.update',
    (api) => api.resellerWebhook.update({ url: 'http://localhost:3000/hook', secret: 's3cret' }),
    'PUT',
    '/reseller/webhook',
    { url: 'http://localhost:3000/hook', secret: 's3cret' },
    { url: 'http://localhost:3000/hook', has_secret: true },
  ],
  [
    'resellerWebhook.test',
    (api) => api.resellerWebhook.test(),
    'POST',
    '/reseller/webhook/test',
    undefined,
    { url: 'http://localhost:3000/hook', status_code: 200, delivered: true, error: null },
  ],
  [
    'webhooks.create',
    (api) => api.webhooks.create({ url: 'https://hooks.example/in', events: ['ticket.created'] }),
    'POST',
    '/webhooks',
    { url: 'https://hooks.example/in', events: ['ticket.created'] },
    webhook,
  ],
  [
    'webhooks.test (default event)',
    (api) => api.webhooks.test('wh_1'),
    'POST',
    '/webhooks/wh_1/test',
    { event: 'test' },
    fixtures.delivery(),
  ],
  [
    'webhooks.test (named event)',
    (api) => api.webhooks.test('wh_1', { event: 'ticket.created' }),
    'POST',
    '/webhooks/wh_1/test',
    { event: 'ticket.created' },
    fixtures.delivery(),
  ],
]

describe('every method sends its request and resolves to the answer data', () => {
  it.each(rows)('%s → %s %s', async (_name, call, method, path, body, answer) => {
    const { api, sent } = setup(() => ok(answer))
    await expect(call(api)).resolves.toEqual(answer)
    expect(sent).toHaveLength(1)
    expect(sent[0]?.method).toBe(method)
    expect(sent[0]?.path).toBe(path)
    expect(sent[0]?.body).toEqual(body)
    if (body !== undefined) expect(sent[0]?.headers.get('content-type')).toBe('application/json')
  })

  const lists: [string, (api: ResellerApi) => Promise<{ data: unknown[] }>, string, unknown][] = [
    ['whm.accounts.list', (api) => api.whm.accounts.list(), '/reseller/whm/accounts', fixtures.account()],
    ['whm.packages.list', (api) => api.whm.packages.list(), '/reseller/whm/packages', fixtures.pkg()],
    ['tickets.list', (api) => api.tickets.list({ page: 3 }), '/support/tickets?page=3', fixtures.ticket()],
    [
      'webhooks.deliveries',
      (api) => api.webhooks.deliveries('wh_1'),
      '/webhooks/wh_1/deliveries',
      fixtures.delivery(),
    ],
    ['services.list', (api) => api.services.list(), '/services', fixtures.service()],
    ['invoices.list', (api) => api.invoices.list({ page: 2 }), '/invoices?page=2', fixtures.invoice()],
  ]

  it.each(lists)('%s → GET %s, a page of parsed items', async (_name, call, path, item) => {
    const { api, sent } = setup(() => page([item], { total: 1, per_page: 20, current_page: 1 }))
    const result = await call(api)
    expect(result.data).toEqual([item])
    expect(sent[0]?.method).toBe('GET')
    expect(sent[0]?.path).toBe(path)
  })

  it('keeps answer fields it does not know instead of failing (forward compatibility)', async () => {
    const { api } = setup(() => ok({ ...fixtures.usage(), inodes_used: 5 }))
    expect(await api.whm.usage()).toEqual({ ...fixtures.usage(), inodes_used: 5 })
  })

  it('a sandbox provisioning answer parses as the sandbox variant', async () => {
    const simulated = {
      sandbox: true,
      client_id: 501,
      domain: 'shop.example',
      username: 'sb_shop',
      password: 'not-a-real-password',
      whm_package: 'starter',
      domain_registered: false,
      cpanel_url: 'https://shop.example:2083',
      message: 'Simulated: nothing was created',
    }
    const { api } = setup(() => ok(simulated, 201))
    const created = await api.hosting.create(501, {
      domain: 'shop.example',
      whm_package: 'starter',
      register_domain: true,
    })
    expect(created.sandbox).toBe(true)
    if (created.sandbox) expect(created.message).toContain('Simulated')
  })
})

describe('arguments are checked before sending', () => {
  const refused: [string, (api: ResellerApi) => Promise<unknown>, Record<string, string[]>][] = [
    [
      'clientId must be a positive integer',
      (api) => api.hosting.suspend(-1, 'alice'),
      { clientId: ['must be a positive integer'] },
    ],
    [
      'clientId must be an integer',
      (api) => api.hosting.delete(1.5, 'alice'),
      { clientId: ['must be an integer'] },
    ],
    [
      'username must be a cPanel username',
      (api) => api.whm.accounts.get('../admin'),
      { username: [expect.stringContaining('cPanel username')] },
    ],
    ['uuid must be a UUID', (api) => api.tickets.get('123'), { uuid: ['must be a UUID'] }],
    [
      'package name',
      (api) => api.whm.packages.delete('a/b'),
      { name: ['may contain only letters, digits, _ and -'] },
    ],
    ['webhook id ".."', (api) => api.webhooks.test('..'), { id: ['must not be "." or ".."'] }],
    ['webhook id "."', (api) => api.webhooks.deliveries('.'), { id: ['must not be "." or ".."'] }],
    ['webhook id empty', (api) => api.webhooks.test(''), { id: ['must not be empty'] }],
    [
      'webhook id with a lone surrogate',
      (api) => api.webhooks.test('wh_\ud800'),
      { id: ['must be well-formed Unicode: it holds a lone surrogate'] },
    ],
    [
      'reply message empty',
      (api) => api.tickets.reply(uuid, { message: '' }),
      { message: ['must not be empty'] },
    ],
    [
      'reply message too long',
      (api) => api.tickets.reply(uuid, { message: 'x'.repeat(5001) }),
      { message: ['must be at most 5000 characters'] },
    ],
    [
      'package fields are integers',
      (api) => api.whm.packages.create({ ...fixtures.pkg(), quota: 1.5 }),
      { quota: ['must be an integer'] },
    ],
    [
      'webhook events: no wildcard',
      (api) => api.webhooks.create({ url: 'https://hooks.example', events: ['*'] as never }),
      { 'events.0': ['wildcards are not allowed ("*"): list event names'] },
    ],
    [
      'webhook URL must parse',
      (api) => api.webhooks.create({ url: 'not a url', events: ['ticket.created'] }),
      { url: ['must be an http:// or https:// URL'] },
    ],
    [
      'webhook test event must be known',
      (api) => api.webhooks.test('wh_1', { event: 'nope' } as never),
      { event: [expect.stringContaining('must be one of test,')] },
    ],
    [
      'reseller webhook URL must be http(s)',
      (api) => api.resellerWebhook.update({ url: 'ftp://x.example', secret: 's' }),
      { url: ['must be an http:// or https:// URL'] },
    ],
  ]

  it.each(refused)('%s', async (_name, call, fields) => {
    const { api, sent } = setup(() => ok({}))
    const error = await call(api).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).fields).toEqual(fields)
    expect(sent).toHaveLength(0)
  })

  it('general webhook URLs are only checked to parse: http and private hosts are the server’s call', async () => {
    const { api, sent } = setup(() => ok({ ...webhook, url: 'http://127.0.0.1:9000/in' }, 201))
    await api.webhooks.create({
      url: 'http://127.0.0.1:9000/in',
      events: ['ticket.created', 'ticket.replied'],
    })
    expect(sent).toHaveLength(1)
  })
})

describe('path parameters are encoded by one helper', () => {
  it('encodes with encodeURIComponent, so nothing escapes its segment', () => {
    expect(encodePathSegment('a/b?c#d %')).toEqual({ success: true, segment: 'a%2Fb%3Fc%23d%20%25' })
    expect(encodePathSegment(501)).toEqual({ success: true, segment: '501' })
    expect(buildPath('/webhooks/{id}/test', { id: 'wh/../x' })).toEqual({
      success: true,
      path: '/webhooks/wh%2F..%2Fx/test',
    })
  })

  it('every value is exactly encodeURIComponent of it (the unreserved ones without the call)', () => {
    const unreservedOrNot = fc.string({
      unit: fc.oneof(fc.constantFrom(...'aZ09-._~!*()/?#% é'.split('')), codePoint()),
    })
    fc.assert(
      fc.property(fc.oneof(unreservedOrNot, fc.string({ unit: codePoint() }), fc.uuid()), (value) => {
        fc.pre(value !== '' && value !== '.' && value !== '..')
        expect(buildPath('/x/{id}/y', { id: value })).toEqual({
          success: true,
          path: `/x/${encodeURIComponent(value)}/y`,
        })
        expect(encodePathSegment(value)).toEqual({ success: true, segment: encodeURIComponent(value) })
      }),
      { numRuns: 500 },
    )
  })

  it('refuses a value holding a lone surrogate, which has no UTF-8 form, by its field', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('a', '-', '/', 'é'), codePoint()) })
    // Scalar values around one half of a UTF-16 pair: nothing next to it can make it whole.
    const half = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code))
    const broken = fc.tuple(text, half, text).map((parts) => parts.join(''))
    fc.assert(
      fc.property(broken, (value) => {
        expect(buildPath('/x/{id}/y', { id: value })).toEqual({
          success: false,
          fields: { id: ['must be well-formed Unicode: it holds a lone surrogate'] },
        })
      }),
      { numRuns: 200 },
    )
  })

  it('refuses "", "." and ".."', () => {
    for (const value of ['', '.', '..']) expect(encodePathSegment(value).success).toBe(false)
    expect(buildPath('/webhooks/{id}', { id: '..' })).toEqual({
      success: false,
      fields: { id: ['must not be "." or ".."'] },
    })
  })

  it('a webhook id with a slash stays one segment on the wire', async () => {
    const { api, sent } = setup(() => ok(fixtures.delivery()))
    await api.webhooks.test('a/../b')
    expect(sent[0]?.path).toBe('/webhooks/a%2F..%2Fb/test')
  })
})
