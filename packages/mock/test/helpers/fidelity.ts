/** The "real service" of fidelity tests: a mock on a seed with every kind of record, behind a divergence proxy. */
import type { MockApi, RunningServer, SeedInput } from '../../src/node.js'
import { createMockApi } from '../../src/node.js'
import { type DivergenceProxy, startDivergenceProxy } from './divergence-proxy.js'

/** Keys of the upstream account. */
export const UPSTREAM_KEYS = {
  full: 'svc_live_upstream_full',
  read: 'svc_live_upstream_read',
  sandbox: 'svc_test_upstream_sandbox',
} as const

/** Secrets of the upstream that must never reach an import. */
export const UPSTREAM_SECRETS = ['whsec_upstream_reseller_secret', 'whsec_upstream_general_secret']

const SERVICE = '33333333-3333-4333-8333-333333333333'

/** 23 tickets (two pages), 22 invoices, accounts, packages, services, both kinds of webhook with deliveries. */
export function upstreamSeed(tickets = 23): SeedInput {
  const all = ['reseller:hosting', 'reseller:webhooks', 'support:read', 'support:write'] as const
  return {
    resellers: [
      {
        id: 7,
        name: 'Upstream Hosting',
        wallet_balance: 50,
        whm: { status: 'online', accounts_limit: 5, disk_limit_mb: 20480, bandwidth_limit_mb: 204800 },
        packages: [
          { name: 'small', quota: 1000, bandwidth: 10000, maxsql: 1, maxpop: 5, maxftp: 1, maxsub: 1 },
          { name: 'large', quota: 8000, bandwidth: 80000, maxsql: 8, maxpop: 40, maxftp: 4, maxsub: 8 },
        ],
        clients: [{ id: 901 }, { id: 902 }],
        api_keys: [
          { key: UPSTREAM_KEYS.full, scopes: [...all] },
          { key: UPSTREAM_KEYS.read, scopes: ['support:read'] },
          { key: UPSTREAM_KEYS.sandbox, scopes: [...all] },
        ],
        accounts: [
          { username: 'alpha', domain: 'alpha-shop.example', client_id: 901, whm_package: 'small' },
          {
            username: 'bravo',
            domain: 'bravo.example',
            client_id: 902,
            whm_package: 'large',
            status: 'suspended',
          },
        ],
        services: [
          { id: SERVICE, type: 'hosting', name: 'Hosting of alpha-shop.example' },
          { type: 'domain', name: 'bravo.example', status: 'cancelled' },
        ],
        invoices: Array.from({ length: 22 }, (_, i) => ({
          total: 10 + i,
          status: i % 3 === 0 ? ('paid' as const) : ('unpaid' as const),
        })),
        tickets: Array.from({ length: tickets }, (_, i) => ({
          subject: `Question ${i + 1} from jane.doe@alpha-shop.example`,
          department: (['technical', 'billing', 'sales'] as const)[i % 3]!,
          priority: (['low', 'normal', 'high'] as const)[i % 3]!,
          status: (['open', 'in_progress', 'resolved', 'closed'] as const)[i % 4]!,
          ...(i === 0 ? { service_id: SERVICE } : {}),
          messages: [
            { message: `Hello, this is Jane about alpha-shop.example (${i + 1}).` },
            { message: 'A note for staff only.', internal: true, from: 'staff' as const },
            { message: 'We are on it.', from: 'staff' as const },
          ],
        })),
        webhook: { url: 'https://hooks.alpha-shop.example/reseller', secret: UPSTREAM_SECRETS[0]! },
        webhooks: [
          {
            id: 'wh_42',
            url: 'https://hooks.alpha-shop.example/general',
            events: ['ticket.created', 'payment.completed'],
            secret: UPSTREAM_SECRETS[1]!,
            deliveries: [
              {
                delivery_id: 'dlv_1',
                event: 'ticket.created',
                status: 'success',
                http_status: 200,
                duration_ms: 87,
                retries: 0,
                attempted_at: '2026-01-02T03:04:05.123456Z',
              },
              {
                delivery_id: 'dlv_2',
                event: 'payment.completed',
                status: 'failed',
                http_status: 500,
                error: 'receiver answered 500',
                retries: 3,
                attempted_at: '2026-01-02T04:04:05.000001Z',
              },
            ],
          },
        ],
      },
    ],
  }
}

/** The upstream: a mock listening on a free port, and the proxy in front of it. */
export interface Upstream {
  mock: MockApi
  server: RunningServer
  proxy: DivergenceProxy
  close(): Promise<void>
}

export async function startUpstream(seed: SeedInput = upstreamSeed()): Promise<Upstream> {
  const mock = createMockApi({ seed })
  const server = await mock.listen({ port: 0 })
  const proxy = await startDivergenceProxy(server.url)
  return {
    mock,
    server,
    proxy,
    close: async () => {
      await proxy.close()
      await server.close()
    },
  }
}
