import { describe, expect, it } from 'vitest'
import {
  ApiKey,
  checkEventEnvelope,
  DEPARTMENTS,
  Delivery,
  ERROR_CODES,
  ErrorBody,
  GENERAL_EVENTS,
  HostingCreateBody,
  HostingCreated,
  keyMode,
  PageMeta,
  PageParams,
  PageQuery,
  PRIORITIES,
  RESELLER_EVENTS,
  ResellerWebhookUpdateBody,
  SCOPES,
  Scope,
  TICKET_STATUSES,
  Ticket,
  TicketCreateBody,
  TicketDetail,
  TicketReplyBody,
  TimestampMicros,
  TimestampWithOffset,
  validate,
  WebhookCreateBody,
  WebhookEvent,
  WebhookTestBody,
  WhmPackageCreateBody,
} from '../src/schemas.js'

/** The field errors of a value that must be refused. */
function refused(schema: Parameters<typeof validate>[0], value: unknown) {
  const result = validate(schema, value)
  if (result.success) throw new Error(`expected ${JSON.stringify(value)} to be refused`)
  return result.fields
}

function accepted<T>(schema: Parameters<typeof validate>[0], value: T) {
  const result = validate(schema, value)
  if (!result.success) throw new Error(`expected acceptance, got ${JSON.stringify(result.fields)}`)
  return result.data
}

const ticket = { subject: 'Site down', message: 'Help', department: 'technical' }

describe('create-ticket body', () => {
  it('accepts a subject of exactly 255 characters and refuses 256, naming the field and the rule', () => {
    accepted(TicketCreateBody, { ...ticket, subject: 'a'.repeat(255) })
    expect(refused(TicketCreateBody, { ...ticket, subject: 'a'.repeat(256) })).toEqual({
      subject: ['must be at most 255 characters'],
    })
  })

  it('accepts a message of exactly 5000 characters and refuses 5001', () => {
    accepted(TicketCreateBody, { ...ticket, message: 'm'.repeat(5000) })
    expect(refused(TicketCreateBody, { ...ticket, message: 'm'.repeat(5001) })).toEqual({
      message: ['must be at most 5000 characters'],
    })
  })

  it('refuses empty subject and message', () => {
    expect(refused(TicketCreateBody, { ...ticket, subject: '', message: '' })).toEqual({
      subject: ['must not be empty'],
      message: ['must not be empty'],
    })
  })

  it('names every missing required field', () => {
    expect(refused(TicketCreateBody, {})).toEqual({
      subject: ['is required'],
      message: ['is required'],
      department: ['is required'],
    })
  })

  it.each(DEPARTMENTS)('accepts department %s', (department) => {
    accepted(TicketCreateBody, { ...ticket, department })
  })

  it('refuses an unknown department, listing the allowed ones', () => {
    expect(refused(TicketCreateBody, { ...ticket, department: 'hr' }).department?.[0]).toBe(
      'must be one of technical, billing, sales, abuse, general',
    )
  })

  it.each(PRIORITIES)('accepts priority %s', (priority) => {
    expect(accepted(TicketCreateBody, { ...ticket, priority })).toMatchObject({ priority })
  })

  it('defaults the priority to normal and refuses an unknown one', () => {
    expect(accepted(TicketCreateBody, ticket)).toMatchObject({ priority: 'normal' })
    expect(refused(TicketCreateBody, { ...ticket, priority: 'critical' })).toHaveProperty('priority')
  })

  it('refuses a service_id that is not a UUID', () => {
    accepted(TicketCreateBody, { ...ticket, service_id: '8d0e7b2c-4f3a-4e7b-9a53-1f2e3d4c5b6a' })
    expect(refused(TicketCreateBody, { ...ticket, service_id: '42' })).toEqual({
      service_id: ['must be a UUID'],
    })
  })

  it('refuses bad types and unknown fields, naming each', () => {
    expect(refused(TicketCreateBody, { ...ticket, subject: 42, urgent: true })).toEqual({
      subject: ['must be a string'],
      urgent: ['is not a known field'],
    })
  })

  it('refuses a body that is not an object', () => {
    expect(refused(TicketCreateBody, 'hello')).toEqual({ body: ['must be an object'] })
    expect(refused(TicketCreateBody, null)).toEqual({ body: ['must be an object'] })
  })

  it('applies the same message limits to replies', () => {
    accepted(TicketReplyBody, { message: 'm'.repeat(5000) })
    expect(refused(TicketReplyBody, { message: 'm'.repeat(5001) })).toHaveProperty('message')
    expect(refused(TicketReplyBody, {})).toEqual({ message: ['is required'] })
  })
})

describe('hosting provisioning body', () => {
  it('applies the defaults of the spec', () => {
    expect(accepted(HostingCreateBody, { domain: 'example.com', whm_package: 'starter' })).toEqual({
      domain: 'example.com',
      whm_package: 'starter',
      register_domain: false,
      send_welcome_email: true,
    })
  })

  it.each(['nodot', '-bad.com', 'exa mple.com', 'example.c', `${'a'.repeat(64)}.com`, ''])(
    'refuses the domain %j',
    (domain) => {
      expect(refused(HostingCreateBody, { domain, whm_package: 'starter' })).toHaveProperty('domain')
    },
  )

  it('accepts subdomains and long TLDs', () => {
    accepted(HostingCreateBody, { domain: 'shop.client-one.co.uk', whm_package: 'starter' })
    accepted(HostingCreateBody, { domain: 'example.photography', whm_package: 'starter' })
  })

  it('refuses a non-boolean register_domain and a missing package', () => {
    expect(refused(HostingCreateBody, { domain: 'example.com', register_domain: 'yes' })).toEqual({
      register_domain: ['must be a boolean'],
      whm_package: ['is required'],
    })
  })
})

describe('hosting provisioning answer', () => {
  const live = {
    sandbox: false,
    client_id: 501,
    domain: 'example.com',
    username: 'example',
    cpanel_url: 'https://example.com:2083',
    domain_registered: true,
    amount_debited: 12.5,
  }
  const sandbox = {
    sandbox: true,
    client_id: 501,
    domain: 'example.com',
    username: 'sb_example',
    password: 'not-a-real-password',
    whm_package: 'starter',
    domain_registered: false,
    cpanel_url: 'https://example.com:2083',
    message: 'Simulated: nothing was created.',
  }

  it('tells live from sandbox answers by the sandbox flag', () => {
    expect(HostingCreated.parse(live)).toEqual(live)
    expect(HostingCreated.parse(sandbox)).toEqual(sandbox)
  })

  it('refuses a sandbox answer whose username lacks sb_ or that registered a domain', () => {
    expect(refused(HostingCreated, { ...sandbox, username: 'example' })).toEqual({
      username: ['must start with sb_'],
    })
    expect(refused(HostingCreated, { ...sandbox, domain_registered: true })).toHaveProperty(
      'domain_registered',
    )
  })
})

describe('WHM package body', () => {
  const pkg = { name: 'starter', quota: 1024, bandwidth: 10240, maxsql: 1, maxpop: 5, maxftp: 1, maxsub: 1 }

  it('accepts zero (unlimited) and refuses negatives, fractions and strings', () => {
    accepted(WhmPackageCreateBody, { ...pkg, quota: 0 })
    expect(refused(WhmPackageCreateBody, { ...pkg, quota: -1, maxsql: 1.5, maxpop: '5' })).toEqual({
      quota: ['must be a non-negative integer'],
      maxsql: ['must be an integer'],
      maxpop: ['must be a number'],
    })
  })

  it('accepts a 64-character name and refuses 65 characters or spaces', () => {
    accepted(WhmPackageCreateBody, { ...pkg, name: 'p'.repeat(64) })
    expect(refused(WhmPackageCreateBody, { ...pkg, name: 'p'.repeat(65) })).toEqual({
      name: ['must be at most 64 characters'],
    })
    expect(refused(WhmPackageCreateBody, { ...pkg, name: 'my package' })).toHaveProperty('name')
  })

  it('requires every field', () => {
    expect(Object.keys(refused(WhmPackageCreateBody, { name: 'x' })).sort()).toEqual(
      ['bandwidth', 'maxftp', 'maxpop', 'maxsql', 'maxsub', 'quota'].sort(),
    )
  })
})

describe('general webhook body', () => {
  it.each(GENERAL_EVENTS)('accepts the event %s', (event) => {
    accepted(WebhookCreateBody, { url: 'https://hooks.example.com/x', events: [event] })
  })

  it.each(['*', 'ticket.*'])('refuses the wildcard %j', (event) => {
    const fields = refused(WebhookCreateBody, { url: 'https://hooks.example.com/x', events: [event] })
    expect(fields['events.0']?.[0]).toMatch(/wildcards are not allowed/)
  })

  it('refuses unknown, duplicate and empty event lists', () => {
    expect(
      refused(WebhookCreateBody, { url: 'https://h.example.com', events: ['hosting.created'] }),
    ).toHaveProperty('events.0')
    expect(
      refused(WebhookCreateBody, {
        url: 'https://h.example.com',
        events: ['ticket.created', 'ticket.created'],
      }),
    ).toEqual({ events: ['must not list an event twice'] })
    expect(refused(WebhookCreateBody, { url: 'https://h.example.com', events: [] })).toEqual({
      events: ['must list at least one event'],
    })
  })

  it('only checks that the URL is http(s): HTTPS-and-public is the server rule', () => {
    accepted(WebhookCreateBody, { url: 'http://127.0.0.1:8080/hook', events: ['ticket.created'] })
    for (const url of ['not a url', 'ftp://hooks.example/x']) {
      expect(refused(WebhookCreateBody, { url, events: ['ticket.created'] })).toEqual({
        url: ['must be an http:// or https:// URL'],
      })
    }
  })

  it('the test body defaults to the test event and refuses unknown ones', () => {
    expect(accepted(WebhookTestBody, {})).toEqual({ event: 'test' })
    expect(accepted(WebhookTestBody, { event: 'ticket.created' })).toEqual({ event: 'ticket.created' })
    expect(refused(WebhookTestBody, { event: 'nope' })).toHaveProperty('event')
  })
})

describe('reseller webhook body', () => {
  it('needs an http(s) URL and a secret of 1 to 255 characters', () => {
    accepted(ResellerWebhookUpdateBody, { url: 'https://example.com/hook', secret: 's'.repeat(255) })
    expect(refused(ResellerWebhookUpdateBody, { url: 'ftp://example.com', secret: '' })).toEqual({
      url: ['must be an http:// or https:// URL'],
      secret: ['must not be empty'],
    })
    expect(
      refused(ResellerWebhookUpdateBody, { url: 'https://x.io', secret: 's'.repeat(256) }),
    ).toHaveProperty('secret')
  })
})

describe('timestamps', () => {
  it('ticket timestamps are UTC with exactly six fractional digits', () => {
    expect(TimestampMicros.safeParse('2026-11-22T10:15:30.123456Z').success).toBe(true)
    for (const bad of [
      '2026-11-22T10:15:30.123Z',
      '2026-11-22T10:15:30Z',
      '2026-11-22T10:15:30.123456+00:00',
    ]) {
      expect(TimestampMicros.safeParse(bad).success, bad).toBe(false)
    }
  })

  it('general events carry a numeric offset', () => {
    expect(TimestampWithOffset.safeParse('2026-11-22T10:15:30+00:00').success).toBe(true)
    expect(TimestampWithOffset.safeParse('2026-11-22T10:15:30-05:30').success).toBe(true)
    expect(TimestampWithOffset.safeParse('2026-11-22T10:15:30Z').success).toBe(false)
  })
})

describe('tickets as answered', () => {
  const listed = {
    id: 1,
    uuid: '8d0e7b2c-4f3a-4e7b-9a53-1f2e3d4c5b6a',
    user_id: 1,
    subject: 'Site down',
    department: 'technical',
    status: 'open',
    priority: 'normal',
    messages_count: 1,
    created_at: '2026-11-22T10:15:30.123456Z',
    updated_at: '2026-11-22T10:15:30.123456Z',
  }

  it.each(TICKET_STATUSES)('accepts the status %s', (status) => {
    expect(Ticket.parse({ ...listed, status }).status).toBe(status)
  })

  it('keeps unknown answer fields out of the typed value instead of failing (forward compatible)', () => {
    expect(Ticket.parse({ ...listed, new_field: 1 })).toEqual(listed)
  })

  it('a detail carries its messages', () => {
    const detail = TicketDetail.parse({
      ...listed,
      service_id: null,
      messages: [{ id: 1, message: 'Help', from: 'client', created_at: listed.created_at }],
    })
    expect(detail.messages).toHaveLength(1)
  })
})

describe('events', () => {
  it('has the eight reseller and nine general event names', () => {
    expect(RESELLER_EVENTS).toHaveLength(8)
    expect(GENERAL_EVENTS).toHaveLength(9)
  })

  it('types vps.activated data and refuses it incomplete', () => {
    const event = {
      event: 'vps.activated',
      sandbox: false,
      timestamp: '2026-11-22T10:15:30Z',
      data: { client_id: 1, order_uuid: 'o-1', server_id: 7, ipv4: '203.0.113.7', status: 'active' },
    }
    const parsed = WebhookEvent.parse(event)
    if (parsed.event === 'vps.activated' && 'sandbox' in parsed) expect(parsed.data.ipv4).toBe('203.0.113.7')
    else throw new Error('not narrowed')
    expect(WebhookEvent.safeParse({ ...event, data: { client_id: 1 } }).success).toBe(false)
  })

  it('the zod-free envelope check of the webhooks entry accepts what the zod schema accepts', () => {
    const reseller = {
      event: 'hosting.created',
      sandbox: true,
      timestamp: '2026-11-22T10:15:30.123456Z',
      data: { client_id: 1, domain: 'a.com', username: 'a', whm_package: 'starter' },
    }
    const general = { event: 'domain.registered', created_at: '2026-11-22T10:15:30+00:00', data: {} }
    for (const event of [reseller, general]) {
      expect(WebhookEvent.safeParse(event).success).toBe(true)
      expect(checkEventEnvelope(event)).toBeUndefined()
    }
    expect(checkEventEnvelope({ ...general, created_at: '2026-11-22T10:15:30Z' })).toEqual({
      created_at: ['must be an ISO 8601 timestamp with a numeric offset (YYYY-MM-DDTHH:MM:SS+HH:MM)'],
    })
    expect(checkEventEnvelope({ event: 'ticket.*', data: {} })).toEqual({
      event: ['unknown event "ticket.*"'],
    })
  })

  it('parses a general-style event with a numeric-offset created_at', () => {
    const parsed = WebhookEvent.parse({
      event: 'payment.completed',
      created_at: '2026-11-22T10:15:30+00:00',
      data: {},
    })
    expect(parsed.event).toBe('payment.completed')
  })
})

describe('keys, scopes, errors, pagination', () => {
  it('tells the mode from the key prefix and refuses other keys', () => {
    expect(keyMode('svc_live_abc123')).toBe('live')
    expect(keyMode('svc_test_abc123')).toBe('sandbox')
    for (const key of ['sk_live_abc', 'svc_live_', 'svc_prod_abc', '', 'svc_live_a b']) {
      expect(keyMode(key), key).toBeUndefined()
      expect(ApiKey.safeParse(key).success).toBe(false)
    }
  })

  it('knows the four scopes and names an unknown one', () => {
    expect(SCOPES).toHaveLength(4)
    expect(refused(Scope, 'x')).toEqual({ body: ['unknown scope "x"'] })
  })

  it('lists every error code the API and the mock answer', () => {
    for (const code of [
      'sandbox_read_only',
      'invalid_state',
      'no_reseller_service',
      'whm_unavailable',
      'quota_exceeded',
      'domain_taken',
      'unauthenticated',
      'insufficient_scope',
      'validation_error',
      'not_found',
      'insufficient_funds',
    ]) {
      expect(ERROR_CODES).toContain(code)
    }
    expect(ErrorBody.parse({ success: false, error: { code: 'future_code', message: 'x' } }).error.code).toBe(
      'future_code',
    )
  })

  it('reads the page query from the wire and refuses 0, negatives and non-numbers', () => {
    expect(accepted(PageQuery, { page: '3' })).toEqual({ page: 3 })
    expect(accepted(PageQuery, {})).toEqual({})
    for (const page of ['0', '-1', 'abc', '1.5', ''])
      expect(refused(PageQuery, { page }), page).toHaveProperty('page')
    expect(refused(PageParams, { page: 0 })).toEqual({ page: ['must be 1 or more'] })
  })

  it('pagination meta needs the three fields', () => {
    expect(PageMeta.parse({ total: 0, per_page: 20, current_page: 1 })).toEqual({
      total: 0,
      per_page: 20,
      current_page: 1,
    })
    expect(refused(PageMeta, { total: 0 })).toEqual({
      per_page: ['is required'],
      current_page: ['is required'],
    })
  })

  it('delivery records allow pending, success and failed', () => {
    const base = {
      delivery_id: 'dlv_1',
      event: 'ticket.created',
      http_status: null,
      retries: 0,
      attempted_at: null,
      next_attempt_at: null,
    }
    for (const status of ['pending', 'success', 'failed'])
      expect(Delivery.parse({ ...base, status }).status).toBe(status)
    expect(Delivery.safeParse({ ...base, status: 'queued' }).success).toBe(false)
  })
})
