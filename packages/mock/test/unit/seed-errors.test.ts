// A bad seed is refused with EVERY problem listed at once: field rules and cross rules together.
import { describe, expect, it } from 'vitest'
import { parseSeed, SeedError } from '../../src/index.js'

function issuesOf(seed: unknown): string[] {
  try {
    parseSeed(seed)
  } catch (error) {
    expect(error).toBeInstanceOf(SeedError)
    return (error as SeedError).issues.map((i) => `${i.path}: ${i.message}`)
  }
  throw new Error('the seed was accepted')
}

describe('seed errors are listed all at once', () => {
  it('a field error does not hide the cross-rule errors of the same seed', () => {
    const issues = issuesOf({
      resellers: [
        {
          id: 1,
          api_keys: [{ key: 'svc_live_a', scopes: ['nope'] }],
          clients: [{ id: 5 }, { id: 5, foo: 1 }],
          packages: [{ name: 'starter' }],
          whm: { accounts_limit: 1 },
          accounts: [
            { domain: 'a.example', whm_package: 'starter' },
            { domain: 'b.example', whm_package: 'gold', client_id: 9 },
          ],
        },
        { id: 1, api_keys: [{ key: 'svc_live_a' }] },
      ],
    })
    expect(issues).toEqual(
      expect.arrayContaining([
        // field rules
        'resellers[0].api_keys[0].scopes[0]: unknown scope "nope"',
        'resellers[0].clients[1].foo: is not a known field',
        // cross rules
        'resellers[0].clients[1].id: duplicate client id 5 (first at resellers[0].clients[0].id)',
        'resellers[0].accounts: lists 2 accounts but whm.accounts_limit is 1',
        'resellers[0].accounts[1].whm_package: unknown package "gold"',
        'resellers[0].accounts[1].client_id: unknown client 9 of this reseller',
        'resellers[1].id: duplicate reseller id 1 (first at resellers[0].id)',
        'resellers[1].api_keys[0].key: duplicate API key "svc_live_a" (first at resellers[0].api_keys[0].key)',
      ]),
    )
  })

  it('values of the wrong type are reported by their field rule only, never crash the cross rules', () => {
    const issues = issuesOf({
      resellers: [{ id: 'one', api_keys: 'none', clients: [null, { id: 2 }], accounts: {}, whm: 5 }, 7],
    })
    expect(issues.length).toBeGreaterThanOrEqual(5)
    expect(issues.join('\n')).toMatch(/resellers\[0\]\.id: must be/)
    expect(issues.join('\n')).toMatch(/resellers\[1\]: must be/)
  })

  it('a seed that only breaks cross rules is still refused with them all', () => {
    const issues = issuesOf({
      resellers: [
        { id: 1, api_keys: [{ key: 'svc_live_a' }, { key: 'svc_live_a' }], clients: [{ id: 1 }, { id: 1 }] },
      ],
    })
    expect(issues).toHaveLength(2)
  })
})
