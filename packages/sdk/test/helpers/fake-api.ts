/**
 * A hand-written `fetch` for unit tests of the transport: each test says what the "server" answers,
 * and every request the client sends is recorded (method, URL, headers, body).
 */
import { ResellerApi, type ResellerApiOptions } from '../../src/index.js'

/** A live key whose value must never show up anywhere. */
export const LIVE_KEY = 'svc_live_TOPSECRET_k3y_0123456789'
/** A sandbox key. */
export const SANDBOX_KEY = 'svc_test_TOPSECRET_sandbox_987'
/** Base URL used by the tests. */
export const BASE_URL = 'https://api.reseller.test'
/** Prefix every request path starts with. */
export const API = `${BASE_URL}/api/v1`

/** A recorded request. */
export interface Sent {
  method: string
  url: string
  path: string
  headers: Headers
  body: unknown
}

/** What a test's "server" does with one request: answer, or throw (no answer). */
export type Handler = (request: Request, sent: Sent, index: number) => Response | Promise<Response>

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

/** A success envelope around `data`. */
export function ok(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return json(status, { success: true, data }, headers)
}

/** A paginated success envelope. */
export function page(
  data: unknown[],
  meta: { total: number; per_page: number; current_page: number },
): Response {
  return json(200, { success: true, data, meta })
}

/** An error envelope. */
export function fail(
  status: number,
  code: string,
  message = `failed with ${code}`,
  extra: { fields?: Record<string, string[]>; headers?: Record<string, string> } = {},
): Response {
  return json(
    status,
    { success: false, error: { code, message, ...(extra.fields ? { fields: extra.fields } : {}) } },
    extra.headers,
  )
}

/** A fetch that records every request and answers with `handler`. */
export function fakeFetch(handler: Handler) {
  const sent: Sent[] = []
  const fetch = async (request: Request): Promise<Response> => {
    const text = await request.clone().text()
    const url = new URL(request.url)
    const record: Sent = {
      method: request.method,
      url: request.url,
      path: url.pathname.replace('/api/v1', '') + url.search,
      headers: request.headers,
      body: text === '' ? undefined : JSON.parse(text),
    }
    sent.push(record)
    return handler(request, record, sent.length - 1)
  }
  return { fetch, sent }
}

/** A client on a fake fetch; returns both. */
export function setup(handler: Handler, options: Partial<ResellerApiOptions> = {}) {
  const { fetch, sent } = fakeFetch(handler)
  const api = new ResellerApi({ apiKey: LIVE_KEY, baseUrl: BASE_URL, fetch, ...options })
  return { api, sent }
}

/** Valid records of every schema, for answers. */
export const fixtures = {
  uuid: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b',
  uuid2: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
  time: '2026-01-02T03:04:05.123456Z',
  ticket(id = 1) {
    return {
      id,
      uuid: fixtures.uuid,
      user_id: 7,
      subject: `Ticket ${id}`,
      department: 'technical',
      status: 'open',
      priority: 'normal',
      messages_count: 1,
      created_at: fixtures.time,
      updated_at: fixtures.time,
    }
  },
  ticketDetail() {
    return {
      ...fixtures.ticket(),
      service_id: null,
      messages: [{ id: 1, message: 'Hello', from: 'client', created_at: fixtures.time }],
    }
  },
  account(username = 'alice') {
    return {
      username,
      domain: 'alice.example',
      client_id: 501,
      whm_package: 'starter',
      status: 'active',
      disk_used_mb: 10,
      bandwidth_used_mb: 20,
      created_at: fixtures.time,
      suspended_at: null,
    }
  },
  pkg(name = 'starter') {
    return { name, quota: 1024, bandwidth: 10240, maxsql: 1, maxpop: 5, maxftp: 1, maxsub: 1 }
  },
  usage() {
    return {
      accounts_used: 1,
      accounts_limit: 3,
      disk_used_mb: 10,
      disk_limit_mb: 10240,
      bandwidth_used_mb: 20,
      bandwidth_limit_mb: 102400,
    }
  },
  hostingLive() {
    return {
      sandbox: false,
      client_id: 501,
      domain: 'shop.example',
      username: 'shopexam',
      cpanel_url: 'https://shop.example:2083',
      domain_registered: false,
      amount_debited: 0,
    }
  },
  delivery(id = 'd1') {
    return {
      delivery_id: id,
      event: 'test',
      status: 'success',
      http_status: 200,
      duration_ms: 12,
      retries: 0,
      attempted_at: fixtures.time,
      next_attempt_at: null,
    }
  },
  service() {
    return {
      id: fixtures.uuid,
      type: 'hosting',
      name: 'Shared hosting',
      status: 'active',
      created_at: fixtures.time,
    }
  },
  invoice() {
    return {
      id: 1,
      number: 'INV-0001',
      status: 'paid',
      total: 12.5,
      currency: 'EUR',
      created_at: fixtures.time,
      due_at: null,
    }
  },
}
