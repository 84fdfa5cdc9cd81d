/**
 * Fixtures of the integration tests: the SDK against the real mock (its source, through the
 * aliases of vitest.config.ts), called through `mock.fetch`: no global interception.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createMockApi, type MockApi, type SeedInput } from '@reseller-api/mock'
import { expect } from 'vitest'
import { ApiError, ResellerApi } from '../../src/index.js'

export const ALL_SCOPES = ['reseller:hosting', 'reseller:webhooks', 'support:read', 'support:write'] as const

/** Keys of {@link integrationSeed}. All well-formed; each reseller has its own. */
export const KEYS = {
  /** Reseller 1 "Acme" (WHM online, 3 slots, 1 used, wallet 20): every scope. */
  live: 'svc_live_it_acme_full',
  /** Reseller 1, sandbox: every scope. */
  sandbox: 'svc_test_it_acme_sandbox',
  /** Reseller 1, `support:read` only. */
  readOnly: 'svc_live_it_acme_read',
  /** Reseller 1, no scope at all. */
  noScope: 'svc_live_it_acme_none',
  /** Reseller 2 "Offline": WHM offline. */
  offline: 'svc_live_it_offline',
  /** Reseller 3 "NoWhm": whm.status `none`. */
  none: 'svc_live_it_none',
  /** Well-formed, known to no reseller. */
  unknown: 'svc_live_it_nobody_has_this_key',
} as const

/** Price of a domain registration in {@link integrationSeed}. */
export const DOMAIN_PRICE = 12.5

export const SERVICE_ID = '3f0c2a8e-1b7d-4c55-9e21-6a4b8d2c0f11'

/** Three resellers, one per WHM state (the seed format of docs/running-the-mock.md, "Seed format"). */
export function integrationSeed(): SeedInput {
  return {
    domain_price: DOMAIN_PRICE,
    resellers: [
      {
        id: 1,
        name: 'Acme',
        wallet_balance: 20,
        whm: { status: 'online', accounts_limit: 3, disk_limit_mb: 10240, bandwidth_limit_mb: 102400 },
        packages: [
          { name: 'starter', quota: 1000, bandwidth: 10000, maxsql: 1, maxpop: 5, maxftp: 1, maxsub: 1 },
          { name: 'pro', quota: 4000, bandwidth: 40000, maxsql: 5, maxpop: 20, maxftp: 2, maxsub: 5 },
        ],
        clients: [
          { id: 501, name: 'One', email: 'one@example.com' },
          { id: 502, name: 'Two', email: 'two@example.com' },
        ],
        api_keys: [
          { key: KEYS.live, scopes: [...ALL_SCOPES] },
          { key: KEYS.sandbox, scopes: [...ALL_SCOPES] },
          { key: KEYS.readOnly, scopes: ['support:read'] },
          { key: KEYS.noScope, scopes: [] },
        ],
        accounts: [
          { username: 'existing', domain: 'existing.example', client_id: 501, whm_package: 'starter' },
        ],
        services: [{ id: SERVICE_ID, type: 'hosting', name: 'Hosting of existing.example' }],
        invoices: [
          { number: 'INV-1', total: 10, status: 'paid', created_at: '2025-01-01T00:00:00.000Z' },
          { number: 'INV-2', total: 20.5, created_at: '2025-02-01T00:00:00.000Z' },
        ],
        tickets: [
          {
            subject: 'Open one',
            department: 'technical',
            messages: [
              { message: 'hello' },
              { message: 'internal note', internal: true, from: 'staff' },
              { message: 'staff answer', from: 'staff' },
            ],
          },
          { subject: 'Closed one', department: 'sales', status: 'closed', messages: [{ message: 'bye' }] },
        ],
      },
      {
        id: 2,
        name: 'Offline',
        wallet_balance: 100,
        whm: { status: 'offline', accounts_limit: 10 },
        packages: [{ name: 'basic', quota: 500 }],
        clients: [{ id: 601 }],
        api_keys: [{ key: KEYS.offline }],
      },
      {
        id: 3,
        name: 'NoWhm',
        whm: { status: 'none' },
        clients: [{ id: 701 }],
        api_keys: [{ key: KEYS.none }],
      },
    ],
  }
}

/** A fresh mock (own state) on `seed`. */
export function newMock(seed: SeedInput = integrationSeed(), options: { insecureWebhooks?: boolean } = {}) {
  return createMockApi({ seed, ...options })
}

/** An SDK client talking to `mock` through `mock.fetch`, without retries (a failure shows at once). */
export function sdk(mock: MockApi, apiKey: string = KEYS.live): ResellerApi {
  // Strict answers: anything the mock answers that the SDK's schemas do not know is drift, and fails.
  return new ResellerApi({
    apiKey,
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    maxRetries: 0,
    strictResponses: true,
  })
}

/**
 * Awaits `promise`, expects it to reject with an instance of `Class` carrying `status` and `code`,
 * and returns the error for further checks.
 */
export async function expectApiError<E extends ApiError>(
  promise: Promise<unknown>,
  Class: abstract new (...args: never[]) => E,
  status: number,
  code: string,
): Promise<E> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected ${Class.name} (${status} ${code}), resolved ${JSON.stringify(value)}`)
    },
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(Class)
  expect(error).toBeInstanceOf(ApiError)
  const apiError = error as E
  expect({ name: apiError.name, status: apiError.status, code: apiError.code }).toEqual({
    name: Class.name,
    status,
    code,
  })
  // The server answered: headers are there (a refusal before sending has none).
  expect(apiError.headers).toBeInstanceOf(Headers)
  return apiError
}

/** What a receiver got. */
export interface Received {
  headers: IncomingMessage['headers']
  body: string
}

/** A `node:http` webhook receiver on 127.0.0.1 answering `status` to every POST. */
export async function startReceiver(status = 200) {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
