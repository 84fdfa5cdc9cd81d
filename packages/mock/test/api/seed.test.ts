import { describe, expect, test } from 'vitest'
import { createMockApi, demoSeed, parseSeed, SeedError, seedSchema } from '../../src/index.js'
import { call, testSeed } from '../helpers/mock.js'

const minimal = { resellers: [{ id: 1, api_keys: [{ key: 'svc_live_x' }] }] }

describe('parseSeed', () => {
  test('a bad scope names its path and rule', () => {
    const seed = {
      resellers: [{ id: 1, api_keys: [{ key: 'svc_live_a' }, { key: 'svc_live_b', scopes: ['x'] }] }],
    }
    expect(() => parseSeed(seed)).toThrow(SeedError)
    expect(() => parseSeed(seed)).toThrow('resellers[0].api_keys[1].scopes[0]: unknown scope "x"')
  })

  test('only resellers, their id and api_keys are required; defaults apply', () => {
    const seed = parseSeed(minimal)
    expect(seed.domain_price).toBe(12.5)
    const reseller = seed.resellers[0]!
    expect(reseller.whm).toBeUndefined()
    expect(reseller.api_keys[0]!.scopes).toEqual([
      'reseller:hosting',
      'reseller:webhooks',
      'support:read',
      'support:write',
    ])
    expect(reseller.wallet_balance).toBe(0)
    expect(() => parseSeed({})).toThrow('resellers: is required')
    expect(() => parseSeed({ resellers: [{ api_keys: [] }] })).toThrow('resellers[0].id: is required')
    expect(() => parseSeed({ resellers: [{ id: 1 }] })).toThrow('resellers[0].api_keys: is required')
  })

  test.each([
    [
      { resellers: [{ id: 1, api_keys: [{ key: 'sk_live_x' }] }] },
      'resellers[0].api_keys[0].key: must start with svc_live_ or svc_test_',
    ],
    [
      { resellers: [{ id: 1, api_keys: [{ key: 'svc_live_x' }], whm: { status: 'down' } }] },
      'resellers[0].whm.status',
    ],
    [
      { resellers: [{ id: 1, api_keys: [{ key: 'svc_live_x' }], typo: 1 }] },
      'resellers[0].typo: is not a known field',
    ],
    [
      { resellers: [{ id: 0, api_keys: [{ key: 'svc_live_x' }] }] },
      'resellers[0].id: must be a positive integer',
    ],
    [{ resellers: [{ id: 'a', api_keys: [{ key: 'svc_live_x' }] }] }, 'resellers[0].id: must be a number'],
    [
      {
        resellers: [
          {
            id: 1,
            api_keys: [{ key: 'svc_live_x' }],
            tickets: [{ subject: 's', department: 'x', messages: [] }],
          },
        ],
      },
      'resellers[0].tickets[0].department: must be one of',
    ],
    [
      {
        resellers: [
          {
            id: 1,
            api_keys: [{ key: 'svc_live_x' }],
            tickets: [{ subject: 's', department: 'sales', messages: [] }],
          },
        ],
      },
      'resellers[0].tickets[0].messages: must hold at least the first message',
    ],
    [{ domain_price: -1, resellers: [] }, 'domain_price: must not be negative'],
  ])('shape rule %#', (seed, message) => {
    expect(() => parseSeed(seed)).toThrow(message)
  })

  test.each([
    [
      {
        resellers: [
          { id: 1, api_keys: [{ key: 'svc_live_x' }] },
          { id: 1, api_keys: [{ key: 'svc_live_y' }] },
        ],
      },
      'resellers[1].id: duplicate reseller id 1',
    ],
    [
      {
        resellers: [
          { id: 1, api_keys: [{ key: 'svc_live_x' }] },
          { id: 2, api_keys: [{ key: 'svc_live_x' }] },
        ],
      },
      'resellers[1].api_keys[0].key: duplicate API key',
    ],
    [{ resellers: [{ id: 1, api_keys: [] }] }, 'resellers[0].api_keys: must list at least one key'],
    [
      {
        resellers: [
          {
            id: 1,
            api_keys: [{ key: 'svc_live_x' }],
            whm: {},
            packages: [{ name: 'p' }],
            accounts: [{ domain: 'a.example', whm_package: 'q' }],
          },
        ],
      },
      'resellers[0].accounts[0].whm_package: unknown package "q"',
    ],
    [
      {
        resellers: [
          {
            id: 1,
            api_keys: [{ key: 'svc_live_x' }],
            packages: [{ name: 'p' }],
            accounts: [{ domain: 'a.example', whm_package: 'p' }],
          },
        ],
      },
      'resellers[0].accounts: a reseller without WHM',
    ],
    [
      {
        resellers: [
          {
            id: 1,
            api_keys: [{ key: 'svc_live_x' }],
            whm: { accounts_limit: 1 },
            packages: [{ name: 'p' }],
            accounts: [
              { domain: 'a.example', whm_package: 'p' },
              { domain: 'b.example', whm_package: 'p' },
            ],
          },
        ],
      },
      'resellers[0].accounts: lists 2 accounts but whm.accounts_limit is 1',
    ],
    [
      {
        resellers: [
          {
            id: 1,
            api_keys: [{ key: 'svc_live_x' }],
            tickets: [
              {
                subject: 's',
                department: 'sales',
                service_id: '11111111-1111-4111-8111-111111111111',
                messages: [{ message: 'm' }],
              },
            ],
          },
        ],
      },
      'resellers[0].tickets[0].service_id: not the id of a service of this reseller',
    ],
    [
      {
        resellers: [
          { id: 1, api_keys: [{ key: 'svc_live_x' }], clients: [{ id: 5 }] },
          { id: 2, api_keys: [{ key: 'svc_live_y' }], clients: [{ id: 5 }] },
        ],
      },
      'resellers[1].clients[0].id: duplicate client id 5',
    ],
  ])('cross rule %#', (seed, message) => {
    expect(() => parseSeed(seed)).toThrow(message)
  })

  test('every issue is listed, with its path', () => {
    try {
      parseSeed({ resellers: [{ id: -1, api_keys: [{ key: 'nope', scopes: ['x'] }] }] })
      expect.unreachable()
    } catch (error) {
      expect((error as SeedError).issues.map((i) => i.path)).toEqual([
        'resellers[0].id',
        'resellers[0].api_keys[0].key',
        'resellers[0].api_keys[0].scopes[0]',
      ])
    }
  })

  test('createMockApi refuses a bad seed', () => {
    expect(() => createMockApi({ seed: { resellers: [] } })).toThrow(
      'resellers: must list at least one reseller',
    )
  })

  test('seedSchema is exported', () => {
    expect(seedSchema.safeParse(minimal).success).toBe(true)
  })
})

describe('demo seed', () => {
  test('is valid and shows every feature', async () => {
    const seed = parseSeed(demoSeed)
    expect(seed.resellers.length).toBeGreaterThanOrEqual(2)
    const statuses = seed.resellers.map((r) => r.whm?.status ?? 'none')
    expect(statuses).toEqual(expect.arrayContaining(['online', 'offline', 'none']))
    const keys = seed.resellers.flatMap((r) => r.api_keys.map((k) => k.key))
    expect(keys.some((k) => k.startsWith('svc_live_'))).toBe(true)
    expect(keys.some((k) => k.startsWith('svc_test_'))).toBe(true)
    const acme = seed.resellers[0]!
    expect(new Set(acme.tickets.map((t) => t.status))).toEqual(
      new Set(['open', 'in_progress', 'resolved', 'closed']),
    )
    expect(acme.tickets.some((t) => t.messages.some((m) => m.internal))).toBe(true)
    expect(acme.tickets.length).toBeGreaterThan(20)
    expect(acme.invoices.length).toBeGreaterThan(20)
    expect(acme.services.length).toBeGreaterThan(0)
    expect(acme.packages.length).toBeGreaterThan(0)

    const mock = createMockApi()
    const page2 = await call(mock, 'GET', '/support/tickets?page=2', { key: 'svc_live_acme_full' })
    expect(page2.body.meta.total).toBe(acme.tickets.length)
    expect(page2.body.data.length).toBe(acme.tickets.length - 20)
    const beta = await call(mock, 'GET', '/reseller/whm/usage', { key: 'svc_live_beta_full' })
    expect(beta.body.error.code).toBe('whm_unavailable')
  })

  test('seeds are not mutated by loading (the same seed object can start two mocks)', () => {
    const seed = testSeed()
    const copy = structuredClone(seed)
    createMockApi({ seed })
    createMockApi({ seed })
    expect(seed).toEqual(copy)
  })
})
