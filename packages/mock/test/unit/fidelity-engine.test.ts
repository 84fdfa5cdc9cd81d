// The comparison engine of compare/replay on hand-made exchanges, and the allow file and reports.
import { describe, expect, it } from 'vitest'
import { compareExchange, type Exchange, IdMap } from '../../src/fidelity/engine.js'
import {
  AllowFileError,
  applyAllowRules,
  buildReport,
  exitCodeOf,
  formatJunit,
  formatTable,
  parseAllowFile,
} from '../../src/fidelity/report.js'

/** A tiny OpenAPI document: one list and one detail of tickets. */
const openapi = {
  paths: {
    '/api/v1/support/tickets': {
      get: {
        responses: {
          '200': {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    data: { type: 'array', items: { $ref: '#/components/schemas/Ticket' } },
                    meta: { type: 'object' },
                  },
                },
              },
            },
          },
        },
      },
    },
    '/api/v1/support/tickets/{ticket_uuid}': {
      get: {
        responses: {
          '200': {
            content: {
              'application/json': {
                schema: { type: 'object', properties: { data: { $ref: '#/components/schemas/Ticket' } } },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Ticket: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          status: { $ref: '#/components/schemas/TicketStatus' },
          subject: { type: 'string' },
          created_at: { type: 'string' },
        },
      },
      TicketStatus: { type: 'string', enum: ['open', 'in_progress', 'resolved', 'closed'] },
    },
  },
}

const T1 = {
  id: 1,
  uuid: 'aaaaaaaa-0000-4000-8000-000000000001',
  status: 'open',
  subject: 'One',
  created_at: '2026-01-01T00:00:00.000001Z',
}
const T2 = {
  id: 2,
  uuid: 'aaaaaaaa-0000-4000-8000-000000000002',
  status: 'closed',
  subject: 'Two',
  created_at: '2026-01-01T00:00:00.000002Z',
}

function ex(body: unknown, extra: Partial<Exchange> = {}): Exchange {
  return {
    method: 'GET',
    path: '/api/v1/support/tickets/aaaaaaaa-0000-4000-8000-000000000001',
    status: 200,
    headers: { 'x-request-id': 'req_1', 'content-type': 'application/json' },
    body,
    ...extra,
  }
}

const known = () => new IdMap([T1.uuid, T2.uuid, '1', '2', T1.created_at, T2.created_at, 'One', 'Two'])
const diff = (up: Exchange, mock: Exchange, ids = known()) =>
  compareExchange('step', up, mock, { ids, openapi }).differences

describe('compareExchange', () => {
  it('finds nothing in two equal answers, whatever their request ids', () => {
    const up = ex({ success: true, data: T1 })
    const mock = ex({ success: true, data: T1 }, { headers: { 'x-request-id': 'req_other' } })
    expect(diff(up, mock)).toEqual([])
  })

  it('reports another status at the empty pointer, and another error code at /error/code', () => {
    const up = ex(
      { success: false, error: { code: 'not_found', message: 'No such ticket.' } },
      { status: 404 },
    )
    const mock = ex({ success: false, error: { code: 'gone', message: 'Other words.' } }, { status: 410 })
    expect(diff(up, mock)).toEqual([
      { pointer: '', kind: 'status', upstream: 404, mock: 410 },
      { pointer: '/error/code', kind: 'error_code', upstream: 'not_found', mock: 'gone' },
    ])
  })

  it('compares error prose by type only', () => {
    const up = ex({ success: false, error: { code: 'not_found', message: 'A' } }, { status: 404 })
    const mock = ex({ success: false, error: { code: 'not_found', message: 'B' } }, { status: 404 })
    expect(diff(up, mock)).toEqual([])
  })

  it('reports headers the SDK relies on: presence of X-Request-Id and Retry-After, value of Deprecation and Link', () => {
    const up = ex(null, {
      headers: {
        'retry-after': '3',
        deprecation: 'true',
        link: '<https://api.real.example/api/v1/x>; rel="successor-version"',
      },
    })
    const mock = ex(null, {
      headers: {
        'x-request-id': 'r',
        'retry-after': '9',
        deprecation: 'false',
        link: '<http://127.0.0.1:4010/api/v1/x>; rel="successor-version"',
      },
    })
    expect(diff(up, mock)).toEqual([
      { pointer: '/headers/x-request-id', kind: 'header', upstream: undefined, mock: 'r' },
      { pointer: '/headers/deprecation', kind: 'header', upstream: 'true', mock: 'false' },
    ])
  })

  it("compares a Link below each side's base URL: an origin or a path prefix (a namespace) of its own is no difference", () => {
    const link = (value: string) => ex(null, { headers: { deprecation: 'true', link: value } })
    const mock = link('</api/v1/reseller/whm/usage>; rel="successor-version"')
    for (const up of [
      '</ns/worker-3/api/v1/reseller/whm/usage>; rel="successor-version"',
      '<http://127.0.0.1:4010/ns/worker-3/api/v1/reseller/whm/usage>; rel="successor-version"',
    ])
      expect(diff(link(up), mock)).toEqual([])
    expect(diff(link('</ns/a/api/v1/reseller/whm/accounts>; rel="successor-version"'), mock)).toHaveLength(1)
  })

  it('reports missing and extra fields and JSON types, by JSON pointer (escaped)', () => {
    const up = ex({ success: true, data: { ...T1, 'a/b': 1, count: 3 } })
    const mock = ex({ success: true, data: { ...T1, count: '3', extra: true } })
    expect(diff(up, mock)).toEqual([
      { pointer: '/data/a~1b', kind: 'missing', upstream: 1, mock: undefined },
      { pointer: '/data/count', kind: 'type', upstream: 3, mock: '3' },
      { pointer: '/data/extra', kind: 'extra', upstream: undefined, mock: true },
    ])
  })

  it('reports an enum value outside the OpenAPI document, on either side', () => {
    expect(diff(ex({ data: { ...T1, status: 'escalated' } }), ex({ data: T1 }))).toEqual([
      { pointer: '/data/status', kind: 'enum', upstream: 'escalated', mock: 'open' },
    ])
    expect(diff(ex({ data: T1 }), ex({ data: { ...T1, status: 'weird' } }))).toEqual([
      { pointer: '/data/status', kind: 'enum', upstream: 'open', mock: 'weird' },
    ])
  })

  it('compares the format of a time of this run, and the value of a time from the import', () => {
    const run = (a: string, b: string) =>
      diff(ex({ data: { ...T1, created_at: a } }), ex({ data: { ...T1, created_at: b } }))
    // Times nobody imported: only the format must agree.
    expect(run('2026-05-05T10:00:00.123456Z', '2026-05-05T11:11:11.654321Z')).toEqual([])
    expect(run('2026-05-05T10:00:00+00:00', '2026-05-05T10:00:00.000000Z')).toEqual([
      {
        pointer: '/data/created_at',
        kind: 'timestamp_format',
        upstream: '2026-05-05T10:00:00+00:00',
        mock: '2026-05-05T10:00:00.000000Z',
      },
    ])
    // The imported time must come back as it was.
    expect(run(T1.created_at, '2026-01-01T00:00:00.000009Z')).toEqual([
      {
        pointer: '/data/created_at',
        kind: 'value',
        upstream: T1.created_at,
        mock: '2026-01-01T00:00:00.000009Z',
      },
    ])
  })

  it('reports pagination arithmetic once: meta fields, and the item count as /data', () => {
    const list = (data: unknown[], total: number) =>
      ex(
        { success: true, data, meta: { total, per_page: 20, current_page: 1 } },
        { path: '/api/v1/support/tickets?page=1' },
      )
    expect(diff(list([T2, T1], 7), list([T2], 5))).toEqual([
      { pointer: '/meta/total', kind: 'pagination', upstream: 7, mock: 5 },
      { pointer: '/data', kind: 'pagination', upstream: 2, mock: 1 },
    ])
  })

  it('reports another order of the same items once, as order, not as every field', () => {
    const list = (data: unknown[]) =>
      ex(
        { success: true, data, meta: { total: 2, per_page: 20, current_page: 1 } },
        { path: '/api/v1/support/tickets?page=1' },
      )
    expect(diff(list([T1, T2]), list([T2, T1]))).toEqual([
      { pointer: '/data', kind: 'order', upstream: [T1.uuid, T2.uuid], mock: [T2.uuid, T1.uuid] },
    ])
  })
})

describe('IdMap', () => {
  it('learns ids made during the run and maps them in later paths and bodies', () => {
    const ids = known()
    const up = ex({ data: { username: 'sb_abc123', client_id: 5 } }, { method: 'POST', status: 201 })
    const mock = ex({ data: { username: 'sb_zzz999', client_id: 5 } }, { method: 'POST', status: 201 })
    expect(diff(up, mock, ids)).toEqual([])
    expect(ids.toMock('/api/v1/reseller/whm/accounts/sb_abc123/suspend')).toBe(
      '/api/v1/reseller/whm/accounts/sb_zzz999/suspend',
    )
    expect(ids.toMock('{"username":"sb_abc123x"}')).toBe('{"username":"sb_abc123x"}')
    expect(ids.size).toBe(1)
  })

  it('never learns an id the import brought: a changed imported id is a difference', () => {
    const ids = known()
    const found = diff(ex({ data: T1 }), ex({ data: { ...T1, id: 99 } }), ids)
    expect(found).toEqual([{ pointer: '/data/id', kind: 'value', upstream: 1, mock: 99 }])
    expect(ids.toMock('/x/1')).toBe('/x/1')
  })

  it('masks the integer ids of a record made during the run, even one equal to an imported value', () => {
    const ids = known()
    // A ticket the run made: its uuid and created_at are not the import's; its id 2 upstream is
    // also an imported ticket's id, and 7 on the mock's side.
    const made = {
      ...T1,
      id: 2,
      uuid: 'bbbbbbbb-0000-4000-8000-000000000009',
      created_at: '2026-05-05T00:00:00.000001Z',
      messages: [{ id: 1, message: 'new', created_at: '2026-05-05T00:00:00.000001Z' }],
    }
    const mine = {
      ...made,
      id: 7,
      uuid: 'cccccccc-0000-4000-8000-000000000009',
      messages: [{ ...made.messages[0], id: 12 }],
    }
    expect(diff(ex({ data: made }), ex({ data: mine }), ids)).toEqual([])
    // Integer ids are never learned: the text of a later request keeps its numbers.
    expect(ids.toMock(`/x/2/${made.uuid}`)).toBe(`/x/2/${mine.uuid}`)
    // An imported record keeps its integer id compared, beside it.
    expect(diff(ex({ data: [T1, made] }), ex({ data: [{ ...T1, id: 5 }, mine] }), ids)).toEqual([
      { pointer: '/data/0/id', kind: 'value', upstream: 1, mock: 5 },
    ])
  })

  it('masks what a webhook receiver did in an attempt of the run, and compares an imported delivery', () => {
    const imported = {
      delivery_id: 'dlv_imported',
      event: 'ticket.created',
      status: 'success',
      http_status: 200,
      duration_ms: 12,
      retries: 0,
      attempted_at: '2026-01-01T00:00:00.000009Z',
      next_attempt_at: null,
    }
    const ids = new IdMap(['dlv_imported', imported.attempted_at])
    const made = { ...imported, delivery_id: 'dlv_up', attempted_at: '2026-05-05T00:00:00.000001Z' }
    const offline = {
      ...made,
      delivery_id: 'dlv_mock',
      status: 'failed',
      http_status: null,
      error: 'connection failed: replay is offline',
      next_attempt_at: '2026-05-05T00:01:00.000001Z',
    }
    delete (offline as Partial<typeof offline>).duration_ms
    const list = (...data: unknown[]) =>
      ex({ success: true, data }, { path: '/api/v1/webhooks/wh_1/deliveries' })
    expect(diff(list(made, imported), list(offline, imported), ids)).toEqual([])
    expect(ids.toMock('/x/dlv_up')).toBe('/x/dlv_mock')
    // The imported delivery, untouched by the run, is compared field by field.
    expect(diff(list(imported), list({ ...imported, http_status: 500 }), ids)).toEqual([
      { pointer: '/data/0/http_status', kind: 'value', upstream: 200, mock: 500 },
    ])
    // A reseller webhook test is always of the run.
    const tested = (delivered: boolean) =>
      ex({
        success: true,
        data: { url: 'https://x.example', status_code: delivered ? 200 : null, delivered, error: null },
      })
    expect(diff(tested(true), tested(false), ids)).toEqual([])
  })
})

describe('the rules of the document', () => {
  /** A sandbox-style answer: one of two shapes told apart by `sandbox`, a username and a secret with rules. */
  const ruled = {
    paths: {
      '/api/v1/accounts': {
        post: {
          responses: {
            '201': {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      data: {
                        oneOf: [
                          {
                            type: 'object',
                            properties: { sandbox: { const: false }, username: { type: 'string' } },
                          },
                          {
                            type: 'object',
                            properties: {
                              sandbox: { const: true },
                              username: { type: 'string', pattern: '^sb_' },
                              secret: { type: 'string', minLength: 8 },
                              kind: { type: 'string', enum: ['a', 'b'] },
                            },
                          },
                        ],
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  }
  const post = (data: unknown) =>
    ex({ success: true, data }, { method: 'POST', path: '/api/v1/accounts', status: 201 })
  const rules = (up: unknown, mock: unknown) =>
    compareExchange('step', post(up), post(mock), { ids: new IdMap(), openapi: ruled }).differences

  it('checks a masked or mapped value against its rules on both sides, in the branch of the union it belongs to', () => {
    const good = { sandbox: true, username: 'sb_shop', secret: 'long enough', kind: 'a' }
    expect(rules(good, { ...good, username: 'sb_other', secret: 'also long enough' })).toEqual([])
    expect(rules({ ...good, username: 'sandbox_shop' }, good)).toEqual([
      {
        pointer: '/data/username',
        kind: 'rule',
        upstream: 'sandbox_shop',
        mock: 'sb_shop',
        rule: 'upstream: Invalid string: must match pattern /^sb_/',
      },
    ])
    expect(rules(good, { ...good, secret: 'short' })).toEqual([
      {
        pointer: '/data/secret',
        kind: 'rule',
        upstream: 'long enough',
        mock: 'short',
        rule: expect.stringMatching(/^mock: .*>=8 characters/),
      },
    ])
    // Both sides: one difference naming both.
    expect(rules({ ...good, username: 'x' }, { ...good, username: 'y' })).toEqual([
      expect.objectContaining({
        pointer: '/data/username',
        rule: expect.stringMatching(/^upstream: .*; mock: /),
      }),
    ])
    // The other branch has no such rule: a live answer's username is free.
    expect(rules({ sandbox: false, username: 'x' }, { sandbox: false, username: 'x' })).toEqual([])
  })

  it('tells a value outside an enum once, as enum', () => {
    const good = { sandbox: true, username: 'sb_shop', secret: 'long enough', kind: 'a' }
    expect(rules({ ...good, kind: 'c' }, good)).toEqual([
      { pointer: '/data/kind', kind: 'enum', upstream: 'c', mock: 'a' },
    ])
  })
})

describe('allow file and reports', () => {
  const steps = [
    {
      name: 'tickets.page-1',
      method: 'GET',
      path: '/api/v1/support/tickets?page=1',
      status: [200, 200] as [number, number],
      differences: [
        { pointer: '/meta/total', kind: 'pagination', upstream: 3, mock: 2 },
        { pointer: '/data/0/x', kind: 'missing', upstream: '<&>', mock: undefined },
      ],
    },
    {
      name: 'whm.usage',
      method: 'GET',
      path: '/api/v1/reseller/whm/usage',
      status: [200, 200] as [number, number],
      differences: [],
    },
  ]

  it('parses JSON lines, skipping blanks and # comments; a bad line is named with its number and rule', () => {
    expect(
      parseAllowFile(
        '# known\n{"pointer":"/meta/total","kind":"pagination"}\n\n{"step":"s","pointer":"","kind":"status"}\n',
      ),
    ).toEqual([
      { pointer: '/meta/total', kind: 'pagination' },
      { step: 's', pointer: '', kind: 'status' },
    ])
    expect(() => parseAllowFile('{"pointer":"/a","kind":"x"}\nnope', 'allow.jsonl')).toThrow(
      new AllowFileError('allow.jsonl:2: not a JSON object'),
    )
    expect(() => parseAllowFile('{"pointer":"/a"}')).toThrow(/:1: kind must be a non-empty string/)
    expect(() => parseAllowFile('{"pointer":"/a","kind":"x","why":1}')).toThrow(/unknown field "why"/)
  })

  it('allows a difference by pointer and kind, in one step when the rule names it; the exit code follows', () => {
    expect(exitCodeOf(steps)).toBe(1)
    const other = applyAllowRules(steps, [{ step: 'other', pointer: '/meta/total', kind: 'pagination' }])
    expect(other[0]!.differences).toHaveLength(2)
    const left = applyAllowRules(steps, [
      { pointer: '/meta/total', kind: 'pagination' },
      { step: 'tickets.page-1', pointer: '/data/0/x', kind: 'missing' },
    ])
    expect(left[0]!.differences).toEqual([])
    expect(exitCodeOf(left)).toBe(0)
    expect(buildReport('http://up', 'read', left)).toEqual({
      upstream: 'http://up',
      scenario: 'read',
      steps: left,
      differences: 0,
    })
  })

  it('writes the table with one line per step and per difference, and JUnit with one test case per step', () => {
    const table = formatTable(steps)
    expect(table).toContain(
      'tickets.page-1 GET /api/v1/support/tickets?page=1 /meta/total pagination: upstream 3, mock 2',
    )
    expect(table).toMatch(/^ok +whm\.usage +200\/200 GET \/api\/v1\/reseller\/whm\/usage$/m)
    expect(table.trimEnd().split('\n').at(-1)).toBe('2 steps, 2 differences')
    const xml = formatJunit('compare read', steps)
    expect(xml.match(/<testcase /g)).toHaveLength(2)
    expect(xml).toContain('<testsuite name="compare read" tests="2" failures="1">')
    expect(xml).toContain('upstream &quot;&lt;&amp;&gt;&quot;')
  })
})
