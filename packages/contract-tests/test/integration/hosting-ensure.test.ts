/**
 * `api.hosting.ensure` against the mock: provisioning that runs at most once when an answer is lost
 * (the mock's `drop` faults, a timeout after the request applied, a late request), a domain of
 * another client, a full plan, `register_domain` (one debit), a sandbox key
 * (docs/errors-and-retries.md, "When an answer is lost").
 */
import type { MockApi } from '@reseller-api/mock'
import {
  ConnectionError,
  DomainTakenError,
  type FetchFunction,
  type HostingEnsured,
  QuotaExceededError,
  ResellerApi,
  TimeoutError,
} from '@reseller-api/sdk'
import { describe, expect, it, vi } from 'vitest'
import { DOMAIN_PRICE, integrationSeed, KEYS, newMock, sdk } from './helpers.js'

const HOSTING = '/api/v1/reseller/clients/:client_id/hosting'
const ACCOUNTS = '/api/v1/reseller/whm/accounts'
const STARTER = { whm_package: 'starter' } as const

/** A mock whose reseller 1 has money for several registrations (100, a domain costs 12.5). */
function richMock(): MockApi {
  const seed = integrationSeed()
  seed.resellers![0]!.wallet_balance = 100
  return newMock(seed)
}

/** The accounts holding `domain`, as the mock stores them. */
function accountsOf(mock: MockApi, domain: string) {
  return (mock.state().tables.accounts as { domain: string; client_id: number }[]).filter(
    (a) => a.domain === domain,
  )
}

function wallet(mock: MockApi): number {
  return (mock.state().tables.resellers as { id: number; wallet_balance: number }[]).find((r) => r.id === 1)!
    .wallet_balance
}

/** The hosting POSTs and account lookups the mock saw, in order, as `METHOD status`. */
function traffic(mock: MockApi): string[] {
  return mock.requests
    .list()
    .filter((e) => e.route === HOSTING || e.route === ACCOUNTS)
    .map((e) => `${e.method} ${e.route === HOSTING ? 'hosting' : 'accounts'} ${e.status}`)
}

/** The username `ensure` settled on, whichever way it resolved. */
function username(result: HostingEnsured): string {
  return result.created ? result.hosting.username : result.account.username
}

describe('api.hosting.ensure', () => {
  it('creates once and resolves { created: true, hosting } with the 201 answer', async () => {
    const mock = newMock()
    const result = await sdk(mock).hosting.ensure(501, { domain: 'fresh.example', ...STARTER })
    expect(result).toEqual({
      created: true,
      hosting: expect.objectContaining({ sandbox: false, client_id: 501, domain: 'fresh.example' }),
    })
    expect(accountsOf(mock, 'fresh.example')).toHaveLength(1)
    expect(traffic(mock)).toEqual(['POST hosting 201'])
  })

  it("drop: 'after': the create applied, its answer was lost: the account is found, not created again", async () => {
    const mock = newMock()
    mock.faults.add({ match: { method: 'POST', route: HOSTING }, drop: 'after', times: 1 })
    const result = await sdk(mock).hosting.ensure(501, { domain: 'lost-answer.example', ...STARTER })
    expect(result).toEqual({
      created: false,
      account: expect.objectContaining({ domain: 'lost-answer.example', client_id: 501, status: 'active' }),
    })
    expect(accountsOf(mock, 'lost-answer.example')).toHaveLength(1)
    expect(traffic(mock)).toEqual(['POST hosting null', 'GET accounts 200'])
  })

  it("drop: 'before': nothing applied and no account holds the domain: it creates again, once", async () => {
    const mock = newMock()
    mock.faults.add({ match: { method: 'POST', route: HOSTING }, drop: 'before', times: 1 })
    const result = await sdk(mock).hosting.ensure(501, { domain: 'never-arrived.example', ...STARTER })
    expect(result.created).toBe(true)
    expect(accountsOf(mock, 'never-arrived.example')).toHaveLength(1)
    expect(traffic(mock)).toEqual(['POST hosting null', 'GET accounts 200', 'POST hosting 201'])
  })

  it('a timeout after the create applied: the account is found, not created again', async () => {
    const mock = newMock()
    let held = false
    // The mock answers, then the answer never arrives: the request took effect, the client times out.
    const fetch: FetchFunction = async (request) => {
      const response = await mock.fetch(request.clone())
      if (request.method !== 'POST' || held) return response
      held = true
      return new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true })
      })
    }
    const api = new ResellerApi({
      apiKey: KEYS.live,
      baseUrl: mock.baseUrl,
      fetch,
      maxRetries: 0,
      timeoutMs: 100,
    })
    const result = await api.hosting.ensure(501, { domain: 'slow.example', ...STARTER })
    expect(result).toMatchObject({ created: false, account: { domain: 'slow.example', client_id: 501 } })
    expect(accountsOf(mock, 'slow.example')).toHaveLength(1)
    expect(traffic(mock)).toEqual(['POST hosting 201', 'GET accounts 200'])
  })

  it('a request that lands after the client gave up is never doubled, nor its debit', async () => {
    const mock = richMock()
    // The first create waits 400 ms before it is handled; the client gives up after 100.
    mock.faults.add({ match: { method: 'POST', route: HOSTING }, delayMs: 400, times: 1 })
    const api = new ResellerApi({
      apiKey: KEYS.live,
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      maxRetries: 0,
      timeoutMs: 100,
    })
    const result = await api.hosting.ensure(501, {
      domain: 'late.example',
      register_domain: true,
      ...STARTER,
    })
    // Whichever create landed first made the account; the other met domain_taken.
    await vi.waitFor(() =>
      expect(mock.requests.list({ method: 'POST' }).every((e) => e.status !== null)).toBe(true),
    )
    const [account] = accountsOf(mock, 'late.example')
    expect(accountsOf(mock, 'late.example')).toHaveLength(1)
    expect(username(result)).toBe((account as unknown as { username: string }).username)
    expect(wallet(mock)).toBe(100 - DOMAIN_PRICE)
    expect(
      mock.requests
        .list({ method: 'POST' })
        .map((e) => e.status)
        .sort(),
    ).toEqual([201, 422])
  })

  it('a refused connection (not_sent): it creates again without looking', async () => {
    const mock = newMock()
    let refused = false
    const fetch: FetchFunction = async (request) => {
      if (request.method === 'POST' && !refused) {
        refused = true
        const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' })
        throw new TypeError('fetch failed', { cause })
      }
      return mock.fetch(request)
    }
    const api = new ResellerApi({ apiKey: KEYS.live, baseUrl: mock.baseUrl, fetch, maxRetries: 0 })
    const result = await api.hosting.ensure(501, { domain: 'refused.example', ...STARTER })
    expect(result.created).toBe(true)
    expect(traffic(mock)).toEqual(['POST hosting 201'])
  })

  it('called again after a success, it finds the account: { created: false }', async () => {
    const mock = newMock()
    const api = sdk(mock)
    const first = await api.hosting.ensure(501, { domain: 'twice.example', ...STARTER })
    const second = await api.hosting.ensure(501, { domain: 'TWICE.example', ...STARTER })
    expect(first.created).toBe(true)
    expect(second).toMatchObject({ created: false, account: { domain: 'twice.example', client_id: 501 } })
    expect(username(second)).toBe(username(first))
    expect(accountsOf(mock, 'twice.example')).toHaveLength(1)
  })

  it('a domain of another client rejects with DomainTakenError, and creates nothing', async () => {
    const mock = newMock()
    // existing.example belongs to client 501 in the seed.
    const error = await sdk(mock)
      .hosting.ensure(502, { domain: 'existing.example', ...STARTER })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DomainTakenError)
    expect(error).toMatchObject({ status: 422, code: 'domain_taken' })
    expect(accountsOf(mock, 'existing.example')).toEqual([expect.objectContaining({ client_id: 501 })])
  })

  it("another client's account found after a lost answer is DomainTakenError too", async () => {
    const mock = newMock()
    mock.faults.add({ match: { method: 'POST', route: HOSTING }, drop: 'after', times: 1 })
    const error = await sdk(mock)
      .hosting.ensure(502, { domain: 'existing.example', ...STARTER })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DomainTakenError)
    expect((error as DomainTakenError).message).toContain('client 501')
    expect(traffic(mock)).toEqual(['POST hosting null', 'GET accounts 200'])
  })

  it('a full plan rejects with QuotaExceededError; the lost last slot is found, not refused', async () => {
    const mock = newMock()
    const api = sdk(mock)
    // Three slots, one used by the seed: the second create takes the last one and its answer is lost.
    await api.hosting.create(501, { domain: 'second.example', ...STARTER })
    mock.faults.add({ match: { method: 'POST', route: HOSTING }, drop: 'after', times: 1 })
    await expect(api.hosting.create(501, { domain: 'third.example', ...STARTER })).rejects.toBeInstanceOf(
      ConnectionError,
    )
    const again = await api.hosting.ensure(501, { domain: 'third.example', ...STARTER })
    expect(again).toMatchObject({ created: false, account: { domain: 'third.example' } })
    await expect(api.hosting.ensure(501, { domain: 'fourth.example', ...STARTER })).rejects.toBeInstanceOf(
      QuotaExceededError,
    )
    expect(accountsOf(mock, 'fourth.example')).toHaveLength(0)
  })

  it('register_domain: a lost answer and two more calls debit the wallet exactly once', async () => {
    const mock = richMock()
    const api = sdk(mock)
    mock.faults.add({ match: { method: 'POST', route: HOSTING }, drop: 'after', times: 1 })
    const body = { domain: 'paid.example', register_domain: true, ...STARTER }
    const first = await api.hosting.ensure(501, body)
    const second = await api.hosting.ensure(501, body)
    const third = await api.hosting.ensure(501, body)
    expect([first.created, second.created, third.created]).toEqual([false, false, false])
    expect(wallet(mock)).toBe(100 - DOMAIN_PRICE)
    expect(accountsOf(mock, 'paid.example')).toHaveLength(1)
  })

  it('a sandbox key resolves the simulated answer as { created: true }, and a lost one is sent again', async () => {
    const mock = newMock()
    const api = sdk(mock, KEYS.sandbox)
    const plain = await api.hosting.ensure(501, { domain: 'sandboxed.example', ...STARTER })
    expect(plain).toMatchObject({ created: true, hosting: { sandbox: true, domain: 'sandboxed.example' } })
    mock.faults.add({ match: { method: 'POST', route: HOSTING }, drop: 'after', times: 1 })
    const lost = await api.hosting.ensure(501, { domain: 'sandboxed.example', ...STARTER })
    expect(lost).toMatchObject({ created: true, hosting: { sandbox: true } })
    expect(accountsOf(mock, 'sandboxed.example')).toHaveLength(0)
    // A sandbox create changes nothing: no lookup, the create is sent again.
    expect(traffic(mock)).toEqual(['POST hosting 201', 'POST hosting null', 'POST hosting 201'])
  })

  it('gives up after three sends that did not arrive, with the last ConnectionError (outcome unknown)', async () => {
    const mock = newMock()
    mock.faults.add({ match: { method: 'POST', route: HOSTING }, drop: 'before' })
    const error = await sdk(mock)
      .hosting.ensure(501, { domain: 'unreachable.example', ...STARTER })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error).not.toBeInstanceOf(TimeoutError)
    expect((error as ConnectionError).outcome).toBe('unknown')
    expect(traffic(mock)).toEqual([
      'POST hosting null',
      'GET accounts 200',
      'POST hosting null',
      'GET accounts 200',
      'POST hosting null',
      'GET accounts 200',
    ])
    expect(accountsOf(mock, 'unreachable.example')).toHaveLength(0)
  })
})
