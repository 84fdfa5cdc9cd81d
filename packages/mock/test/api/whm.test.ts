import {
  envelope,
  pageEnvelope,
  WhmAccount,
  WhmPackage,
  WhmPackageDeleted,
  WhmUsage,
} from '@reseller-api/sdk/schemas'
import { describe, expect, test } from 'vitest'
import { call, expectError, KEYS, newMock, pkg, testSeed } from '../helpers/mock.js'

describe('usage', () => {
  test('derived from the accounts; limits from the seed', async () => {
    const mock = newMock()
    const before = envelope(WhmUsage).parse((await call(mock, 'GET', '/reseller/whm/usage')).body).data
    // One seeded starter account: 5% of 1000 MB disk, 1% of 10000 MB bandwidth.
    expect(before).toEqual({
      accounts_used: 1,
      accounts_limit: 3,
      disk_used_mb: 50,
      disk_limit_mb: 10240,
      bandwidth_used_mb: 100,
      bandwidth_limit_mb: 102400,
    })
    await call(mock, 'POST', '/reseller/clients/502/hosting', {
      body: { domain: 'pro.example', whm_package: 'pro' },
    })
    const after = (await call(mock, 'GET', '/reseller/whm/usage')).body.data
    expect(after).toMatchObject({ accounts_used: 2, disk_used_mb: 250, bandwidth_used_mb: 500 })
    await call(mock, 'POST', '/reseller/whm/accounts/existing/suspend')
    expect((await call(mock, 'GET', '/reseller/whm/usage')).body.data.accounts_used).toBe(2)
  })
})

describe('accounts', () => {
  test('list is paginated (meta) newest first; detail; 404', async () => {
    const seed = testSeed()
    seed.resellers[0]!.whm!.accounts_limit = 30
    const mock = newMock(seed)
    for (let i = 0; i < 21; i++) {
      await call(mock, 'POST', '/reseller/clients/501/hosting', {
        body: { domain: `site${i}.example`, whm_package: 'starter' },
      })
    }
    const first = pageEnvelope(WhmAccount).parse((await call(mock, 'GET', '/reseller/whm/accounts')).body)
    expect(first.meta).toEqual({ total: 22, per_page: 20, current_page: 1 })
    expect(first.data[0]!.domain).toBe('site20.example')
    const second = (await call(mock, 'GET', '/reseller/whm/accounts?page=2')).body
    expect(second.data.map((a: { username: string }) => a.username)).toEqual(['site0', 'existing'])
    expect((await call(mock, 'GET', '/reseller/whm/accounts/site0')).body.data.domain).toBe('site0.example')
    expectError(await call(mock, 'GET', '/reseller/whm/accounts/nobody'), 404, 'not_found')
    expectError(await call(mock, 'GET', '/reseller/whm/accounts?page=0'), 422, 'validation_error')
  })
})

describe('packages', () => {
  test('list (paginated), create 201, duplicate name → 422 on name', async () => {
    const mock = newMock()
    const list = pageEnvelope(WhmPackage).parse((await call(mock, 'GET', '/reseller/whm/packages')).body)
    expect(list.data.map((p) => p.name)).toEqual(['pro', 'starter'])
    expect(list.meta.total).toBe(2)
    const created = await call(mock, 'POST', '/reseller/whm/packages', { body: pkg('gold') })
    expect(created.status).toBe(201)
    expect(envelope(WhmPackage).parse(created.body).data).toEqual(pkg('gold'))
    const duplicate = await call(mock, 'POST', '/reseller/whm/packages', { body: pkg('gold') })
    expectError(duplicate, 422, 'validation_error')
    expect(Object.keys(duplicate.body.error.fields)).toEqual(['name'])
    // The new package can be provisioned.
    const account = await call(mock, 'POST', '/reseller/clients/501/hosting', {
      body: { domain: 'gold.example', whm_package: 'gold' },
    })
    expect(account.status).toBe(201)
  })

  test('create body: every field required, integers ≥ 0, valid name', async () => {
    const mock = newMock()
    const answer = await call(mock, 'POST', '/reseller/whm/packages', {
      body: { name: 'bad name', quota: -1, bandwidth: 1.5 },
    })
    expectError(answer, 422, 'validation_error')
    expect(Object.keys(answer.body.error.fields).sort()).toEqual(
      ['bandwidth', 'maxftp', 'maxpop', 'maxsql', 'maxsub', 'name', 'quota'].sort(),
    )
  })

  test('delete: 200; in use → 422 invalid_state; unknown → 404', async () => {
    const mock = newMock()
    const deleted = await call(mock, 'DELETE', '/reseller/whm/packages/pro')
    expect(envelope(WhmPackageDeleted).parse(deleted.body).data).toEqual({ name: 'pro', deleted: true })
    expectError(await call(mock, 'DELETE', '/reseller/whm/packages/pro'), 404, 'not_found')
    expectError(await call(mock, 'DELETE', '/reseller/whm/packages/starter'), 422, 'invalid_state')
    await call(mock, 'DELETE', '/reseller/whm/accounts/existing')
    expect((await call(mock, 'DELETE', '/reseller/whm/packages/starter')).status).toBe(200)
    expectError(
      await call(mock, 'POST', '/reseller/clients/501/hosting', {
        body: { domain: 'x.example', whm_package: 'pro' },
      }),
      422,
      'validation_error',
    )
  })

  test('sandbox: create and delete are simulated', async () => {
    const mock = newMock()
    const created = await call(mock, 'POST', '/reseller/whm/packages', {
      key: KEYS.aSandbox,
      body: pkg('sim'),
    })
    expect(created.status).toBe(201)
    const deleted = await call(mock, 'DELETE', '/reseller/whm/packages/pro', { key: KEYS.aSandbox })
    expect(deleted.status).toBe(200)
    const names = (await call(mock, 'GET', '/reseller/whm/packages')).body.data.map(
      (p: { name: string }) => p.name,
    )
    expect(names).toEqual(['pro', 'starter'])
  })
})

describe('WHM gate on every WHM endpoint', () => {
  const endpoints: [string, string, unknown?][] = [
    ['GET', '/reseller/whm/usage'],
    ['GET', '/reseller/whm/accounts'],
    ['GET', '/reseller/whm/accounts/betaacct'],
    ['POST', '/reseller/whm/accounts/betaacct/suspend'],
    ['POST', '/reseller/whm/accounts/betaacct/unsuspend'],
    ['DELETE', '/reseller/whm/accounts/betaacct'],
    ['GET', '/reseller/whm/packages'],
    ['POST', '/reseller/whm/packages', pkg('new')],
    ['DELETE', '/reseller/whm/packages/basic'],
    ['GET', '/reseller/accounts'],
    ['GET', '/reseller/packages'],
    ['GET', '/reseller/usage'],
  ]
  test.each(endpoints)(
    '%s %s: offline → 503 whm_unavailable, none → 422 no_reseller_service',
    async (method, path, body) => {
      const mock = newMock()
      expectError(await call(mock, method, path, { key: KEYS.b, body }), 503, 'whm_unavailable')
      expectError(await call(mock, method, path, { key: KEYS.c, body }), 422, 'no_reseller_service')
    },
  )
})

describe('deprecated routes', () => {
  test.each([
    ['/reseller/accounts', '/reseller/whm/accounts'],
    ['/reseller/packages', '/reseller/whm/packages'],
    ['/reseller/usage', '/reseller/whm/usage'],
  ])('GET %s answers as GET %s plus Deprecation and Link', async (old, replacement) => {
    const mock = newMock()
    const legacy = await call(mock, 'GET', old)
    const current = await call(mock, 'GET', replacement)
    expect(legacy.status).toBe(200)
    expect(legacy.body).toEqual(current.body)
    expect(legacy.headers.get('deprecation')).toBe('true')
    expect(legacy.headers.get('link')).toBe(`</api/v1${replacement}>; rel="successor-version"`)
    expect(current.headers.get('deprecation')).toBeNull()
  })
})
