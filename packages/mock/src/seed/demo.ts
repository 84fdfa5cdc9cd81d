/**
 * The built-in demo seed: every feature in one state. Start `reseller-mock` without `--seed` (or
 * call `createMockApi()` without one) and try the keys below.
 *
 * - Reseller 1 "Acme Hosting": WHM online, 5 account slots (2 used), a wallet of 100, three
 *   packages, clients 501–506; a live key with every scope, a live read-only support key, a live
 *   hosting-only key, and a sandbox key; 25 tickets in every state (with internal notes), 4
 *   services and 24 invoices (pagination shows), a reseller webhook and a general one (`wh_demo`),
 *   both aimed at an unused local port so that their deliveries fail and retry visibly.
 * - Reseller 2 "Beta Web": WHM offline (503 `whm_unavailable`), a few tickets.
 * - Reseller 3 "Gamma Desk": no reseller service (422 `no_reseller_service`), support scopes only.
 */
import {
  DEPARTMENTS as departments,
  PRIORITIES as priorities,
  TICKET_STATUSES as statuses,
} from '@reseller-api/sdk/schemas'
import type { SeedInput } from './schema.js'

const acmeTickets: NonNullable<SeedInput['resellers'][number]['tickets']> = Array.from(
  { length: 25 },
  (_, i) => {
    const status = statuses[i % statuses.length]!
    const messages: { message: string; internal?: boolean; from?: 'client' | 'staff' }[] = [
      { message: `Hello, we need help with request #${i + 1}.`, from: 'client' },
    ]
    if (status !== 'open') {
      messages.push({ message: 'Escalated to the second level.', internal: true, from: 'staff' })
      messages.push({ message: 'We are looking into it.', from: 'staff' })
    }
    if (status === 'resolved' || status === 'closed') {
      messages.push({ message: 'This should be fixed now.', from: 'staff' })
    }
    return {
      subject: `Demo ticket ${i + 1}: ${departments[i % departments.length]} question`,
      department: departments[i % departments.length]!,
      priority: priorities[i % priorities.length]!,
      status,
      messages,
    }
  },
)

/** The demo seed (the format of docs/running-the-mock.md, "Seed format"). */
export const demoSeed: SeedInput = {
  domain_price: 12.5,
  resellers: [
    {
      id: 1,
      name: 'Acme Hosting',
      wallet_balance: 100,
      whm: { status: 'online', accounts_limit: 5, disk_limit_mb: 10240, bandwidth_limit_mb: 102400 },
      packages: [
        { name: 'starter', quota: 1024, bandwidth: 10240, maxsql: 1, maxpop: 5, maxftp: 1, maxsub: 1 },
        { name: 'business', quota: 5120, bandwidth: 51200, maxsql: 10, maxpop: 50, maxftp: 5, maxsub: 10 },
        { name: 'unlimited', quota: 0, bandwidth: 0, maxsql: 0, maxpop: 0, maxftp: 0, maxsub: 0 },
      ],
      clients: [
        { id: 501, name: 'Client One', email: 'one@example.com' },
        { id: 502, name: 'Client Two', email: 'two@example.com' },
        { id: 503, name: 'Client Three', email: 'three@example.com' },
        { id: 504, name: 'Client Four', email: 'four@example.com' },
        { id: 505, name: 'Client Five', email: 'five@example.com' },
        { id: 506, name: 'Client Six', email: 'six@example.com' },
      ],
      api_keys: [
        {
          key: 'svc_live_acme_full',
          scopes: ['reseller:hosting', 'reseller:webhooks', 'support:read', 'support:write'],
        },
        { key: 'svc_live_acme_support_ro', scopes: ['support:read'] },
        { key: 'svc_live_acme_hosting', scopes: ['reseller:hosting'] },
        {
          key: 'svc_test_acme_sandbox',
          scopes: ['reseller:hosting', 'reseller:webhooks', 'support:read', 'support:write'],
        },
      ],
      accounts: [
        { domain: 'client-one.example', client_id: 501, whm_package: 'starter' },
        { domain: 'client-two.example', client_id: 502, whm_package: 'business', status: 'suspended' },
      ],
      services: [
        { id: '7d1f3a52-6c1e-4b8e-9a55-0c6f1d2e3a01', type: 'reseller', name: 'Reseller Pro plan' },
        { id: '7d1f3a52-6c1e-4b8e-9a55-0c6f1d2e3a02', type: 'domain', name: 'acme-hosting.example' },
        { id: '7d1f3a52-6c1e-4b8e-9a55-0c6f1d2e3a03', type: 'vps', name: 'vps-01', status: 'suspended' },
        {
          id: '7d1f3a52-6c1e-4b8e-9a55-0c6f1d2e3a04',
          type: 'email',
          name: 'Mail for acme',
          status: 'cancelled',
        },
      ],
      invoices: Array.from({ length: 24 }, (_, i) => ({
        total: 19.9 + i,
        currency: 'EUR',
        status: i < 20 ? ('paid' as const) : i < 23 ? ('unpaid' as const) : ('refunded' as const),
        created_at: new Date(Date.UTC(2025, i % 12, 1 + Math.floor(i / 12))).toISOString(),
      })),
      tickets: acmeTickets,
      // Both webhooks point at 127.0.0.1:9, where nothing listens: deliveries fail at once (no DNS, no
      // network) and are retried, which fills the delivery history. Point them at a receiver of your
      // own with PUT /reseller/webhook and POST /webhooks.
      webhook: { url: 'http://127.0.0.1:9/reseller-events', secret: 'acme-reseller-secret' },
      webhooks: [
        {
          id: 'wh_demo',
          url: 'http://127.0.0.1:9/general-events',
          events: ['ticket.created', 'ticket.replied'],
          secret: 'whsec_0123456789abcdef0123456789abcdef',
        },
      ],
    },
    {
      id: 2,
      name: 'Beta Web',
      wallet_balance: 5,
      whm: { status: 'offline', accounts_limit: 10, disk_limit_mb: 20480, bandwidth_limit_mb: 204800 },
      packages: [
        { name: 'basic', quota: 2048, bandwidth: 20480, maxsql: 2, maxpop: 10, maxftp: 1, maxsub: 2 },
      ],
      clients: [{ id: 601, name: 'Beta Client', email: 'client@beta.example' }],
      api_keys: [{ key: 'svc_live_beta_full' }, { key: 'svc_test_beta_sandbox' }],
      tickets: [
        {
          subject: 'Our WHM is unreachable',
          department: 'technical',
          priority: 'urgent',
          status: 'in_progress',
          messages: [
            { message: 'Since this morning WHM answers nothing.' },
            { message: 'Data centre maintenance, see status page.', internal: true, from: 'staff' },
            { message: 'We are on it.', from: 'staff' },
          ],
        },
        {
          subject: 'Invoice question',
          department: 'billing',
          messages: [{ message: 'Why was I charged twice?' }],
        },
      ],
    },
    {
      id: 3,
      name: 'Gamma Desk',
      api_keys: [{ key: 'svc_live_gamma_support', scopes: ['support:read', 'support:write'] }],
      tickets: [
        {
          subject: 'How do I order a reseller plan?',
          department: 'sales',
          priority: 'low',
          messages: [{ message: 'We would like to resell hosting.' }],
        },
      ],
    },
  ],
}
