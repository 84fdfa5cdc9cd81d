// Atomic mutations, failing requests that change nothing, independent mocks, reset.
import { describe, expect, test } from 'vitest'
import { call, KEYS, newMock, state, testSeed } from '../helpers/mock.js'

describe('atomicity', () => {
  test('20 parallel provisionings against 3 free slots → exactly 3 accounts, 17 quota_exceeded', async () => {
    const seed = testSeed()
    seed.resellers[0]!.whm!.accounts_limit = 4 // 1 used by the seed: 3 free
    const mock = newMock(seed)
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(mock, 'POST', '/reseller/clients/501/hosting', {
          body: { domain: `parallel${i}.example`, whm_package: 'starter' },
        }),
      ),
    )
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(3)
    const refused = answers.filter((a) => a.status === 422)
    expect(refused).toHaveLength(17)
    expect(refused.every((a) => a.body.error.code === 'quota_exceeded')).toBe(true)
    const usage = (await call(mock, 'GET', '/reseller/whm/usage')).body.data
    expect(usage.accounts_used).toBe(4)
    expect((await call(mock, 'GET', '/reseller/whm/accounts')).body.meta.total).toBe(4)
    const usernames = answers.filter((a) => a.status === 201).map((a) => a.body.data.username)
    expect(new Set(usernames).size).toBe(3)
  })

  test('parallel provisionings of the same domain → one account, the rest domain_taken', async () => {
    const mock = newMock()
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(mock, 'POST', '/reseller/clients/501/hosting', {
          body: { domain: 'same.example', whm_package: 'starter' },
        }),
      ),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422, 422, 422, 422])
    expect(answers.filter((a) => a.status === 422).every((a) => a.body.error.code === 'domain_taken')).toBe(
      true,
    )
  })

  test('parallel domain registrations never overdraw the wallet', async () => {
    const seed = testSeed()
    seed.resellers[0]!.whm!.accounts_limit = 50
    seed.resellers[0]!.wallet_balance = 40 // three registrations at 12.5
    const mock = newMock(seed)
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(mock, 'POST', '/reseller/clients/501/hosting', {
          body: { domain: `wallet${i}.example`, whm_package: 'starter', register_domain: true },
        }),
      ),
    )
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3)
    expect(answers.filter((a) => a.body.error?.code === 'insufficient_funds')).toHaveLength(7)
    const s = await state(mock)
    expect(s.tables.resellers!.find((r) => r.id === 1)!.wallet_balance).toBe(2.5)
  })

  test('parallel closes of one ticket: one succeeds, the rest invalid_state', async () => {
    const mock = newMock()
    const uuid = (await call(mock, 'GET', '/support/tickets')).body.data.at(-1).uuid
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call(mock, 'PATCH', `/support/tickets/${uuid}/close`)),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422, 422, 422, 422])
  })

  test('a failing request changes nothing: no account, no debit, no event, no id consumed', async () => {
    const seed = testSeed()
    seed.resellers[0]!.wallet_balance = 1
    const mock = newMock(seed)
    const before = await state(mock)
    const answer = await call(mock, 'POST', '/reseller/clients/501/hosting', {
      body: { domain: 'fail.example', whm_package: 'starter', register_domain: true },
    })
    expect(answer.body.error.code).toBe('insufficient_funds')
    expect(await state(mock)).toEqual(before)
  })
})

describe('independence and reset', () => {
  test('two mocks share no state', async () => {
    const one = newMock()
    const two = newMock()
    await call(one, 'POST', '/support/tickets', {
      body: { subject: 'only in one', message: 'm', department: 'sales' },
    })
    await call(one, 'POST', '/reseller/clients/501/hosting', {
      body: { domain: 'one.example', whm_package: 'starter' },
    })
    expect((await call(one, 'GET', '/support/tickets')).body.meta.total).toBe(4)
    expect((await call(two, 'GET', '/support/tickets')).body.meta.total).toBe(3)
    expect((await call(two, 'GET', '/reseller/whm/usage')).body.data.accounts_used).toBe(1)
    // The same domain is free in the other mock.
    const again = await call(two, 'POST', '/reseller/clients/501/hosting', {
      body: { domain: 'one.example', whm_package: 'starter' },
    })
    expect(again.status).toBe(201)
    two.reset()
    expect((await call(one, 'GET', '/reseller/whm/usage')).body.data.accounts_used).toBe(2)
  })

  test('reset() returns to the seed, including ticket uuids and the wallet', async () => {
    const mock = newMock()
    const seeded = await state(mock)
    await call(mock, 'POST', '/reseller/clients/501/hosting', {
      body: { domain: 'gone.example', whm_package: 'starter', register_domain: true },
    })
    await call(mock, 'PATCH', `/support/tickets/${seeded.tables.tickets![0]!.uuid}/close`)
    await call(mock, 'PUT', '/reseller/webhook', {
      key: KEYS.a,
      body: { url: 'https://x.example/h', secret: 's' },
    })
    mock.reset()
    const after = await state(mock)
    expect(after.tables).toEqual(seeded.tables)
    expect(after.counters).toEqual(seeded.counters)
  })
})
