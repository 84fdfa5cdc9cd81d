/** Shared test fixtures: a seed with resellers in every WHM state, and an HTTP-shaped request helper. */
import { ErrorBody } from '@reseller-api/sdk/schemas'
import { expect } from 'vitest'
import { createMockApi, type MockApi, type MockApiOptions, type SeedInput } from '../../src/node.js'

export const ALL_SCOPES = ['reseller:hosting', 'reseller:webhooks', 'support:read', 'support:write'] as const

export const SERVICE_A = '11111111-1111-4111-8111-111111111111'
export const SERVICE_B = '22222222-2222-4222-8222-222222222222'

/** Keys of the test seed. */
export const KEYS = {
  /** Reseller 1 (WHM online, 3 slots, 1 used): every scope. */
  a: 'svc_live_a_full',
  aRead: 'svc_live_a_read',
  aWrite: 'svc_live_a_write',
  aHosting: 'svc_live_a_hosting',
  aWebhooks: 'svc_live_a_webhooks',
  aNone: 'svc_live_a_noscope',
  aSandbox: 'svc_test_a_sandbox',
  /** Reseller 2 (WHM offline). */
  b: 'svc_live_b_full',
  bSandbox: 'svc_test_b_sandbox',
  /** Reseller 3 (no reseller service). */
  c: 'svc_live_c_full',
} as const

/** Two (three) resellers in different WHM states. */
export function testSeed(): SeedInput {
  return {
    domain_price: 12.5,
    resellers: [
      {
        id: 1,
        name: 'Acme',
        wallet_balance: 30,
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
          { key: KEYS.a, scopes: [...ALL_SCOPES] },
          { key: KEYS.aRead, scopes: ['support:read'] },
          { key: KEYS.aWrite, scopes: ['support:write'] },
          { key: KEYS.aHosting, scopes: ['reseller:hosting'] },
          { key: KEYS.aWebhooks, scopes: ['reseller:webhooks'] },
          { key: KEYS.aNone, scopes: [] },
          { key: KEYS.aSandbox, scopes: [...ALL_SCOPES] },
        ],
        accounts: [
          { username: 'existing', domain: 'existing.example', client_id: 501, whm_package: 'starter' },
        ],
        services: [{ id: SERVICE_A, type: 'hosting', name: 'Hosting A' }],
        invoices: [{ total: 10 }, { total: 20, status: 'paid' }],
        tickets: [
          {
            subject: 'First',
            department: 'technical',
            messages: [
              { message: 'hello' },
              { message: 'internal note', internal: true, from: 'staff' },
              { message: 'staff answer', from: 'staff' },
            ],
          },
          {
            subject: 'Resolved one',
            department: 'billing',
            status: 'resolved',
            messages: [{ message: 'x' }],
          },
          { subject: 'Closed one', department: 'sales', status: 'closed', messages: [{ message: 'y' }] },
        ],
      },
      {
        id: 2,
        name: 'Beta',
        wallet_balance: 100,
        whm: { status: 'offline', accounts_limit: 10 },
        packages: [{ name: 'basic', quota: 500 }],
        clients: [{ id: 601 }],
        api_keys: [{ key: KEYS.b }, { key: KEYS.bSandbox }],
        accounts: [
          { username: 'betaacct', domain: 'Taken-By-Beta.example', client_id: 601, whm_package: 'basic' },
        ],
        services: [{ id: SERVICE_B, type: 'vps', name: 'VPS B' }],
        tickets: [{ subject: 'Beta ticket', department: 'general', messages: [{ message: 'b' }] }],
      },
      {
        id: 3,
        name: 'Gamma',
        api_keys: [{ key: KEYS.c }],
        clients: [{ id: 701 }],
      },
    ],
  }
}

/** A fresh mock on the test seed (or `seed`). */
export function newMock(seed: SeedInput = testSeed(), options: Omit<MockApiOptions, 'seed'> = {}): MockApi {
  return createMockApi({ seed, ...options })
}

export interface Answer {
  status: number
  headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected field by field
  body: any
}

export interface CallOptions {
  key?: string | null
  body?: unknown
  /** Raw body text (sent as is). */
  raw?: string
  headers?: Record<string, string>
}

/** Sends `METHOD /path` (below `{baseUrl}/api/v1` unless it starts with `/__mock`) through `mock.fetch`. */
export async function call(
  mock: MockApi,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers }
  const key = options.key === undefined ? KEYS.a : options.key
  if (key !== null) headers.authorization = `Bearer ${key}`
  let body: string | undefined
  if (options.raw !== undefined) body = options.raw
  else if (options.body !== undefined) body = JSON.stringify(options.body)
  if (body !== undefined) headers['content-type'] ??= 'application/json'
  const url = path.startsWith('/__mock') ? `${mock.baseUrl}${path}` : `${mock.baseUrl}/api/v1${path}`
  const response = await mock.fetch(url, { method, headers, body })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : JSON.parse(text),
  }
}

/** Asserts an error answer: status, code, and a body that parses with the SDK's `ErrorBody`. */
export function expectError(answer: Answer, status: number, code: string): void {
  expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({ status, code })
  expect(ErrorBody.safeParse(answer.body).success).toBe(true)
}

/** The whole state through the control endpoint. */
export async function state(mock: MockApi) {
  const answer = await call(mock, 'GET', '/__mock/state', { key: null })
  expect(answer.status).toBe(200)
  return answer.body.data as {
    tables: Record<string, Record<string, unknown>[]>
    counters: Record<string, number>
  }
}

/** A body of `n` characters. */
export const chars = (n: number) => 'x'.repeat(n)

/** A WHM package body (small limits), with `extra` fields laid over it. */
export const pkg = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  quota: 100,
  bandwidth: 1000,
  maxsql: 1,
  maxpop: 1,
  maxftp: 1,
  maxsub: 1,
  ...extra,
})

/** Uuid of the ticket with this subject (through the list). */
export async function ticketUuid(mock: MockApi, subject: string, key: string = KEYS.a): Promise<string> {
  for (let p = 1; ; p++) {
    const answer = await call(mock, 'GET', `/support/tickets?page=${p}`, { key })
    if (answer.body.data.length === 0) throw new Error(`no ticket ${subject}`)
    const found = answer.body.data.find((t: { subject: string }) => t.subject === subject)
    if (found) return found.uuid
  }
}
