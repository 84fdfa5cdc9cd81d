/**
 * Every error the SDK documents (packages/sdk/README.md, "Errors"), answered by the real mock,
 * arrives as its class with the documented status and `error.code`. None of these is refused by the SDK before sending: the
 * server judges each one (`headers` is set only on an answered request).
 */
import { describe, expect, it } from 'vitest'
import {
  ApiError,
  AuthenticationError,
  DomainTakenError,
  InsufficientFundsError,
  InvalidStateError,
  NoResellerServiceError,
  NotFoundError,
  PermissionDeniedError,
  QuotaExceededError,
  ResellerApi,
  SandboxReadOnlyError,
  ServerError,
  UnprocessableEntityError,
  ValidationError,
  WhmUnavailableError,
} from '../../src/index.js'
import { expectApiError, KEYS, newMock, sdk } from './helpers.js'

const UNKNOWN_UUID = '9b2f6c1e-4d3a-4e8b-8c7d-0a1b2c3d4e5f'

async function uuidOf(api: ReturnType<typeof sdk>, subject: string): Promise<string> {
  for await (const ticket of api.tickets.list()) if (ticket.subject === subject) return ticket.uuid
  throw new Error(`no ticket "${subject}"`)
}

describe('401 AuthenticationError', () => {
  it('a well-formed key no reseller has', async () => {
    const api = sdk(newMock(), KEYS.unknown)
    const error = await expectApiError(api.tickets.list(), AuthenticationError, 401, 'unauthenticated')
    expect(error.body).toMatchObject({ success: false, error: { code: 'unauthenticated' } })
    // The key is in no message or property of the error.
    expect(error.message).not.toContain(KEYS.unknown)
    expect(JSON.stringify(error)).not.toContain(KEYS.unknown)
    expect(String(error.stack)).not.toContain(KEYS.unknown)
  })

  it('on every kind of endpoint, before the scope is even looked at', async () => {
    const api = sdk(newMock(), KEYS.unknown)
    await expectApiError(api.whm.usage(), AuthenticationError, 401, 'unauthenticated')
    await expectApiError(
      api.hosting.create(501, { domain: 'a.example', whm_package: 'starter' }),
      AuthenticationError,
      401,
      'unauthenticated',
    )
    await expectApiError(api.services.list(), AuthenticationError, 401, 'unauthenticated')
    await expectApiError(api.resellerWebhook.get(), AuthenticationError, 401, 'unauthenticated')
  })
})

describe('403 PermissionDeniedError', () => {
  it('a key without the endpoint scope', async () => {
    const mock = newMock()
    const readOnly = sdk(mock, KEYS.readOnly)
    expect((await readOnly.tickets.list()).meta.total).toBe(2)
    await expectApiError(
      readOnly.tickets.create({ subject: 'x', message: 'y', department: 'general' }),
      PermissionDeniedError,
      403,
      'insufficient_scope',
    )
    await expectApiError(readOnly.whm.usage(), PermissionDeniedError, 403, 'insufficient_scope')
    await expectApiError(readOnly.resellerWebhook.get(), PermissionDeniedError, 403, 'insufficient_scope')
    await expectApiError(
      readOnly.webhooks.create({ url: 'https://hooks.example.com/in', events: ['ticket.created'] }),
      PermissionDeniedError,
      403,
      'insufficient_scope',
    )
    // Nothing was created by the refused call.
    expect((await readOnly.tickets.list()).meta.total).toBe(2)
  })

  it('a key with no scope still lists services and invoices (they need only a valid key)', async () => {
    const api = sdk(newMock(), KEYS.noScope)
    await expectApiError(api.tickets.list(), PermissionDeniedError, 403, 'insufficient_scope')
    expect((await api.services.list()).meta.total).toBe(1)
    expect((await api.invoices.list()).meta.total).toBe(2)
  })

  it('a refusal for scope is not a sandbox refusal', async () => {
    const error = await expectApiError(
      sdk(newMock(), KEYS.noScope).whm.usage(),
      PermissionDeniedError,
      403,
      'insufficient_scope',
    )
    expect(error).not.toBeInstanceOf(SandboxReadOnlyError)
  })
})

describe('403 SandboxReadOnlyError', () => {
  it('a sandbox key writing on the support API', async () => {
    const mock = newMock()
    const sandbox = sdk(mock, KEYS.sandbox)
    const error = await expectApiError(
      sandbox.tickets.create({ subject: 'x', message: 'y', department: 'general' }),
      SandboxReadOnlyError,
      403,
      'sandbox_read_only',
    )
    expect(error).toBeInstanceOf(PermissionDeniedError)

    const uuid = await uuidOf(sandbox, 'Open one')
    await expectApiError(
      sandbox.tickets.reply(uuid, { message: 'hi' }),
      SandboxReadOnlyError,
      403,
      'sandbox_read_only',
    )
    await expectApiError(sandbox.tickets.close(uuid), SandboxReadOnlyError, 403, 'sandbox_read_only')
    const closed = await uuidOf(sandbox, 'Closed one')
    await expectApiError(sandbox.tickets.reopen(closed), SandboxReadOnlyError, 403, 'sandbox_read_only')
    // Nothing changed.
    expect((await sandbox.tickets.get(uuid)).messages_count).toBe(2)
    expect((await sandbox.tickets.get(uuid)).status).toBe('open')
  })
})

describe('404 NotFoundError', () => {
  it('unknown ticket, account, client, package and webhook', async () => {
    const api = sdk(newMock())
    await expectApiError(api.tickets.get(UNKNOWN_UUID), NotFoundError, 404, 'not_found')
    await expectApiError(api.tickets.reply(UNKNOWN_UUID, { message: 'hi' }), NotFoundError, 404, 'not_found')
    await expectApiError(api.tickets.close(UNKNOWN_UUID), NotFoundError, 404, 'not_found')
    await expectApiError(api.whm.accounts.get('nobody'), NotFoundError, 404, 'not_found')
    await expectApiError(api.whm.accounts.suspend('nobody'), NotFoundError, 404, 'not_found')
    await expectApiError(api.whm.packages.delete('platinum'), NotFoundError, 404, 'not_found')
    await expectApiError(
      api.hosting.create(999, { domain: 'a.example', whm_package: 'starter' }),
      NotFoundError,
      404,
      'not_found',
    )
    await expectApiError(api.hosting.delete(501, 'nobody'), NotFoundError, 404, 'not_found')
    await expectApiError(api.webhooks.test('wh_nope'), NotFoundError, 404, 'not_found')
    await expectApiError(api.webhooks.deliveries('wh_nope'), NotFoundError, 404, 'not_found')
  })

  it('another reseller’s client is not found', async () => {
    // Client 601 belongs to reseller 2: reseller 1 cannot see it (404 before anything else).
    await expectApiError(
      sdk(newMock()).hosting.create(601, { domain: 'a.example', whm_package: 'starter' }),
      NotFoundError,
      404,
      'not_found',
    )
  })

  it('the reseller webhook test with no webhook configured', async () => {
    await expectApiError(sdk(newMock()).resellerWebhook.test(), NotFoundError, 404, 'not_found')
  })
})

describe('422 ValidationError from the server', () => {
  it('an unknown whm_package (only the server knows the packages): fields.whm_package', async () => {
    const api = sdk(newMock())
    const error = await expectApiError(
      api.hosting.create(501, { domain: 'new.example', whm_package: 'platinum' }),
      ValidationError,
      422,
      'validation_error',
    )
    expect(error).toBeInstanceOf(UnprocessableEntityError)
    expect(Object.keys(error.fields)).toEqual(['whm_package'])
    expect(error.fields.whm_package?.[0]).toEqual(expect.stringContaining('platinum'))
    expect((await api.whm.usage()).accounts_used).toBe(1)
  })

  it('an http:// general webhook URL on a mock without insecure webhooks: fields.url', async () => {
    const api = sdk(newMock())
    const error = await expectApiError(
      api.webhooks.create({ url: 'http://hooks.example.com/in', events: ['ticket.created'] }),
      ValidationError,
      422,
      'validation_error',
    )
    expect(Object.keys(error.fields)).toEqual(['url'])
    expect(error.fields.url?.join(' ')).toMatch(/https/i)
  })

  it('a private host for a general webhook: fields.url', async () => {
    const error = await expectApiError(
      sdk(newMock()).webhooks.create({ url: 'https://127.0.0.1/in', events: ['ticket.created'] }),
      ValidationError,
      422,
      'validation_error',
    )
    expect(Object.keys(error.fields)).toEqual(['url'])
  })

  it('a package name the reseller already uses: fields.name', async () => {
    const error = await expectApiError(
      sdk(newMock()).whm.packages.create({
        name: 'starter',
        quota: 1,
        bandwidth: 1,
        maxsql: 1,
        maxpop: 1,
        maxftp: 1,
        maxsub: 1,
      }),
      ValidationError,
      422,
      'validation_error',
    )
    expect(Object.keys(error.fields)).toEqual(['name'])
  })
})

describe('422 InvalidStateError', () => {
  it('reply to a closed ticket; close a closed one; reopen an open one', async () => {
    const api = sdk(newMock())
    const closed = await uuidOf(api, 'Closed one')
    const error = await expectApiError(
      api.tickets.reply(closed, { message: 'anyone?' }),
      InvalidStateError,
      422,
      'invalid_state',
    )
    expect(error).toBeInstanceOf(UnprocessableEntityError)
    await expectApiError(api.tickets.close(closed), InvalidStateError, 422, 'invalid_state')
    expect((await api.tickets.get(closed)).messages_count).toBe(1)

    const open = await uuidOf(api, 'Open one')
    await expectApiError(api.tickets.reopen(open), InvalidStateError, 422, 'invalid_state')
    expect((await api.tickets.get(open)).status).toBe('open')

    // A new ticket: reopen refused while open, accepted once closed, refused again when open.
    const { ticket_id } = await api.tickets.create({ subject: 'Cycle', message: 'x', department: 'abuse' })
    await expectApiError(api.tickets.reopen(ticket_id), InvalidStateError, 422, 'invalid_state')
    await api.tickets.close(ticket_id)
    await api.tickets.reopen(ticket_id)
    await expectApiError(api.tickets.reopen(ticket_id), InvalidStateError, 422, 'invalid_state')
  })
})

describe('422 NoResellerServiceError and 503 WhmUnavailableError', () => {
  it('whm.status "none": WHM endpoints and provisioning answer no_reseller_service', async () => {
    const api = sdk(newMock(), KEYS.none)
    await expectApiError(api.whm.usage(), NoResellerServiceError, 422, 'no_reseller_service')
    await expectApiError(api.whm.accounts.list(), NoResellerServiceError, 422, 'no_reseller_service')
    await expectApiError(api.whm.packages.list(), NoResellerServiceError, 422, 'no_reseller_service')
    const error = await expectApiError(
      api.hosting.create(701, { domain: 'none.example', whm_package: 'starter' }),
      NoResellerServiceError,
      422,
      'no_reseller_service',
    )
    expect(error).toBeInstanceOf(UnprocessableEntityError)
  })

  it('whm.status "offline": WHM endpoints and provisioning answer whm_unavailable (503)', async () => {
    const api = sdk(newMock(), KEYS.offline)
    const error = await expectApiError(api.whm.usage(), WhmUnavailableError, 503, 'whm_unavailable')
    expect(error).toBeInstanceOf(ServerError)
    await expectApiError(api.whm.accounts.list(), WhmUnavailableError, 503, 'whm_unavailable')
    await expectApiError(
      api.hosting.create(601, { domain: 'offline.example', whm_package: 'basic' }),
      WhmUnavailableError,
      503,
      'whm_unavailable',
    )
  })

  it('a GET answered 503 whm_unavailable is retried and still ends as WhmUnavailableError', async () => {
    const mock = newMock()
    let calls = 0
    const counting: typeof fetch = (input, init) => {
      calls++
      return mock.fetch(input, init)
    }
    const api = new ResellerApi({
      apiKey: KEYS.offline,
      baseUrl: mock.baseUrl,
      fetch: counting,
      maxRetries: 1,
      strictResponses: true,
    })
    await expectApiError(api.whm.usage(), WhmUnavailableError, 503, 'whm_unavailable')
    expect(calls).toBe(2)
    // A POST answered 503 is sent once.
    calls = 0
    await expectApiError(
      api.hosting.create(601, { domain: 'offline.example', whm_package: 'basic' }),
      WhmUnavailableError,
      503,
      'whm_unavailable',
    )
    expect(calls).toBe(1)
  })
})

describe('422 business rules of provisioning', () => {
  it('QuotaExceededError once accounts_limit is reached', async () => {
    const api = sdk(newMock())
    await api.hosting.create(501, { domain: 'two.example', whm_package: 'starter' })
    await api.hosting.create(502, { domain: 'three.example', whm_package: 'pro' })
    expect(await api.whm.usage()).toMatchObject({ accounts_used: 3, accounts_limit: 3 })
    const error = await expectApiError(
      api.hosting.create(501, { domain: 'four.example', whm_package: 'starter' }),
      QuotaExceededError,
      422,
      'quota_exceeded',
    )
    expect(error).toBeInstanceOf(UnprocessableEntityError)
    expect((await api.whm.usage()).accounts_used).toBe(3)
    // A sandbox key is not bound by the quota: nothing is consumed.
    const sandbox = sdk(newMock(), KEYS.sandbox)
    expect(
      (await sandbox.hosting.create(501, { domain: 'four.example', whm_package: 'starter' })).sandbox,
    ).toBe(true)
  })

  it('DomainTakenError for a domain an account already uses (case-insensitive)', async () => {
    const api = sdk(newMock())
    await expectApiError(
      api.hosting.create(502, { domain: 'existing.example', whm_package: 'starter' }),
      DomainTakenError,
      422,
      'domain_taken',
    )
    await expectApiError(
      api.hosting.create(501, { domain: 'EXISTING.example', whm_package: 'starter' }),
      DomainTakenError,
      422,
      'domain_taken',
    )
    expect((await api.whm.usage()).accounts_used).toBe(1)
  })

  it('InsufficientFundsError when the wallet is below the domain price', async () => {
    const api = sdk(newMock())
    // Wallet 20, price 12.5: the first registration passes, the second finds 7.5.
    const first = await api.hosting.create(501, {
      domain: 'paid.example',
      whm_package: 'starter',
      register_domain: true,
    })
    expect(first.domain_registered).toBe(true)
    const error = await expectApiError(
      api.hosting.create(502, { domain: 'unpaid.example', whm_package: 'starter', register_domain: true }),
      InsufficientFundsError,
      422,
      'insufficient_funds',
    )
    expect(error).toBeInstanceOf(UnprocessableEntityError)
    // Nothing was created by the refused call; without registration it goes through.
    expect((await api.whm.usage()).accounts_used).toBe(2)
    const plain = await api.hosting.create(502, { domain: 'unpaid.example', whm_package: 'starter' })
    expect(plain).toMatchObject({ domain_registered: false, amount_debited: 0 })
  })
})

describe('every error is an ApiError with the parsed body', () => {
  it('body.error.code equals code', async () => {
    const error = await expectApiError(
      sdk(newMock()).tickets.get(UNKNOWN_UUID),
      NotFoundError,
      404,
      'not_found',
    )
    expect(error).toBeInstanceOf(ApiError)
    expect(error.body).toMatchObject({
      success: false,
      error: { code: 'not_found', message: expect.any(String) },
    })
    expect(error.method).toBe('GET')
    expect(error.url).toContain(`/api/v1/support/tickets/${UNKNOWN_UUID}`)
  })
})
