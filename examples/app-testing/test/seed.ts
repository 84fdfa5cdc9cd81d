import type { SeedInput } from '@reseller-api/mock'

/**
 * The state these tests start from: a WHM plan of 3 accounts with 1 used (`taken.example`),
 * 3 clients, a live key and a sandbox key. Small on purpose: a test reads like its seed.
 */
export const seed: SeedInput = {
  resellers: [
    {
      id: 1,
      name: 'Acme Hosting',
      wallet_balance: 100,
      whm: { status: 'online', accounts_limit: 3, disk_limit_mb: 10240, bandwidth_limit_mb: 102400 },
      packages: [
        { name: 'starter', quota: 1024, bandwidth: 10240, maxsql: 1, maxpop: 5, maxftp: 1, maxsub: 1 },
      ],
      clients: [
        { id: 501, name: 'Client One', email: 'one@example.com' },
        { id: 502, name: 'Client Two', email: 'two@example.com' },
        { id: 503, name: 'Client Three', email: 'three@example.com' },
      ],
      accounts: [{ domain: 'taken.example', client_id: 501, whm_package: 'starter' }],
      api_keys: [
        { key: 'svc_live_acme', scopes: ['reseller:hosting', 'support:read', 'support:write'] },
        { key: 'svc_test_acme', scopes: ['reseller:hosting', 'support:read', 'support:write'] },
      ],
    },
  ],
}
