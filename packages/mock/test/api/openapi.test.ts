/**
 * The OpenAPI document: checked by an OpenAPI 3.1 validator from npm, complete
 * against the route table, served by the mock, and its schemas (through ajv, not zod) accepting
 * the mock's answers and refusing wrong ones.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import { FaultSpec } from '../../src/faults/schema.js'
import { routes } from '../../src/handlers/index.js'
import { createMockApi } from '../../src/index.js'
import { schemaNames } from '../../src/openapi/build.js'
import { generateOpenApi, type OpenApiDocument, openApiPath } from '../../src/openapi/document.js'
import { captureExamples } from '../../src/openapi/examples.js'
import { operations, serverOnlyOperations } from '../../src/openapi/operations.js'
import { type Call, route } from '../../src/routing/route.js'
import { createAnswerChecker } from '../helpers/answer-check.js'

// Through the package's `exports`, as a user would import it.
const file = createRequire(import.meta.url).resolve('@reseller-api/sdk/openapi.json')
const published = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument
type Operation = Record<string, unknown> & {
  responses: Record<string, { content?: Record<string, { schema?: unknown; example?: unknown }> }>
}
const allOperations = Object.entries(published.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({
    path,
    method: method.toUpperCase(),
    op: op as unknown as Operation,
  })),
)
const operationOf = (method: string, path: string) => {
  const op = published.paths[path]?.[method.toLowerCase()]
  if (!op) throw new Error(`no ${method} ${path} in the document`)
  return op as unknown as Operation
}

describe('the published document', () => {
  it('is valid OpenAPI 3.1 for @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator()
    const result = await validator.validate(published)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
    // The validator does refuse: a response without its required `description`.
    const broken = structuredClone(published)
    delete (broken.paths['/api/v1/invoices']!.get!.responses['200'] as { description?: string }).description
    expect((await new Validator().validate(broken)).valid).toBe(false)
  })

  it('has one operation per route of the mock, plus the inspector page and its stream', () => {
    const expected = [
      ...routes.map((r) => `${r.method} ${openApiPath(r.path)}`),
      ...Object.keys(serverOnlyOperations),
    ].sort()
    expect(allOperations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(expected)
    expect(new Set(allOperations.map((o) => o.op.operationId)).size).toBe(allOperations.length)
  })

  it('is what the generator makes of the current sources (not stale)', () => {
    const fresh = generateOpenApi({
      routes,
      operations,
      serverOnly: serverOnlyOperations,
      names: schemaNames,
      version: '0',
    })
    const strip = (doc: OpenApiDocument) =>
      JSON.parse(JSON.stringify({ paths: doc.paths, components: doc.components }), (key, value) =>
        key === 'example' ? undefined : value,
      )
    expect(strip(published)).toEqual(strip(fresh))
  })

  it('puts every control endpoint under the tag `mock`, without security; API operations need the bearer key', () => {
    for (const { path, op } of allOperations) {
      if (path.startsWith('/__mock')) {
        expect(op.tags, path).toEqual(['mock'])
        expect(op.security, path).toEqual([])
      } else {
        expect(op.tags, path).not.toContain('mock')
        expect((op.security as object[])[0], path).toHaveProperty('bearerAuth')
      }
    }
    expect(operationOf('GET', '/api/v1/support/tickets').security).toEqual([{ bearerAuth: ['support:read'] }])
    expect(operationOf('GET', '/api/v1/invoices').security).toEqual([{ bearerAuth: [] }])
    expect(published.components).toHaveProperty(
      'securitySchemes.bearerAuth',
      expect.objectContaining({ scheme: 'bearer' }),
    )
  })

  it('marks the four deprecated routes with their successors', () => {
    const deprecated = allOperations.filter((o) => o.op.deprecated === true)
    expect(Object.fromEntries(deprecated.map((o) => [`${o.method} ${o.path}`, o.op['x-successor']]))).toEqual(
      {
        'GET /api/v1/reseller/accounts': '/api/v1/reseller/whm/accounts',
        'POST /api/v1/reseller/accounts': '/api/v1/reseller/clients/{client_id}/hosting',
        'GET /api/v1/reseller/packages': '/api/v1/reseller/whm/packages',
        'GET /api/v1/reseller/usage': '/api/v1/reseller/whm/usage',
      },
    )
    expect(operationOf('GET', '/api/v1/reseller/usage').responses['200']).toHaveProperty(
      'headers.Deprecation',
    )
  })

  it('carries the length and count limits from the schemas into the request bodies', () => {
    const body = operationOf('POST', '/api/v1/support/tickets').requestBody as {
      content: {
        'application/json': {
          schema: { properties: Record<string, Record<string, unknown>>; required: string[] }
        }
      }
    }
    const schema = body.content['application/json'].schema
    expect(schema.properties.subject).toMatchObject({ type: 'string', maxLength: 255 })
    expect(schema.properties.message).toMatchObject({ type: 'string', maxLength: 5000 })
    expect(schema.properties.priority).toMatchObject({ default: 'normal' })
    expect([...schema.required].sort()).toEqual(['department', 'message', 'subject'])
    // The HTTPS-only webhook URL is the server's rule, not the schema's: the text says it.
    expect(operationOf('POST', '/api/v1/webhooks').description).toContain('must be HTTPS')
    const page = (
      operationOf('GET', '/api/v1/invoices').parameters as { name: string; schema: object }[]
    ).find((p) => p.name === 'page')
    expect(page?.schema).toMatchObject({ type: 'integer', minimum: 1 })
  })

  it('derives the error answers from the route: 401, 403 scope, 403 sandbox, 404, 422, the WHM area', () => {
    type ErrorSchema = {
      properties: { error: { properties: { code: { anyOf: [{ enum: string[] }, unknown] } } } }
    }
    const codes = (method: string, path: string) =>
      Object.fromEntries(
        Object.entries(operationOf(method, path).responses)
          .filter(([status]) => status !== 'default' && Number(status) >= 400)
          .map(([status, response]) => {
            const schema = response.content!['application/json']!.schema as ErrorSchema
            return [status, schema.properties.error.properties.code.anyOf[0].enum]
          }),
      )
    expect(codes('PUT', '/api/v1/reseller/webhook')).toEqual({
      401: ['unauthenticated'],
      403: ['insufficient_scope', 'sandbox_read_only', 'forbidden_host'],
      415: ['unsupported_media_type'],
      422: ['validation_error'],
    })
    expect(codes('POST', '/api/v1/reseller/clients/{client_id}/hosting')).toEqual({
      401: ['unauthenticated'],
      403: ['insufficient_scope', 'forbidden_host'],
      404: ['not_found'],
      415: ['unsupported_media_type'],
      422: [
        'validation_error',
        'no_reseller_service',
        'quota_exceeded',
        'domain_taken',
        'insufficient_funds',
      ],
      503: ['whm_unavailable'],
    })
    expect(codes('POST', '/__mock/clock/advance')).toEqual({
      403: ['forbidden_host', 'cross_origin'],
      415: ['unsupported_media_type'],
      422: ['validation_error'],
    })
    expect(codes('GET', '/api/v1/services')).toEqual({
      401: ['unauthenticated'],
      403: ['forbidden_host'],
      422: ['validation_error'],
    })
  })

  it('documents the 404s no path parameter implies: a client named in the body, an unconfigured reseller webhook', async () => {
    const { check } = createAnswerChecker(published as never)
    const mock = createMockApi()
    const send = async (path: string, key: string, body?: unknown) => {
      const response = await mock.fetch(`${mock.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      })
      return {
        method: 'POST',
        path,
        status: response.status,
        contentType: response.headers.get('content-type'),
        body: await response.text(),
      }
    }
    const legacy = await send('/api/v1/reseller/accounts', 'svc_live_acme_full', {
      client_id: 999,
      domain: 'nobody.example',
      whm_package: 'starter',
    })
    const test = await send('/api/v1/reseller/webhook/test', 'svc_live_beta_full')
    expect([legacy.status, test.status]).toEqual([404, 404])
    expect([...check(legacy), ...check(test)]).toEqual([])
  })

  it('holds examples captured from the demo mock, which conform to their own schemas', () => {
    const { check } = createAnswerChecker(published as never)
    let checked = 0
    for (const { path, method, op } of allOperations) {
      for (const [status, response] of Object.entries(op.responses)) {
        const example = response.content?.['application/json']?.example
        if (example === undefined) continue
        checked++
        const concrete = path.replace(/\{[^}]+\}/g, 'x')
        // The `default` answer's example is a fault's (503 is not listed on most operations).
        const answer = {
          method,
          path: concrete,
          status: status === 'default' ? 599 : Number(status),
          contentType: 'application/json',
          body: JSON.stringify(example),
          fault: status === 'default',
        }
        expect(check(answer), `${method} ${path} ${status}`).toEqual([])
      }
    }
    expect(checked).toBeGreaterThan(60)
    const list = operationOf('GET', '/api/v1/support/tickets').responses['200']!.content!['application/json']!
      .example
    expect(list).toMatchObject({ success: true, meta: { per_page: 20, current_page: 1 } })
  }, 30_000) // ~350 examples through ajv
})

describe('the generator', () => {
  it('refuses a route that has no operation text, naming it', () => {
    const extra = route('GET', '/api/v1/brand-new', {}, () => Promise.reject(new Error('unused')))
    expect(() =>
      generateOpenApi({ routes: [...routes, extra], operations, names: schemaNames, version: '0' }),
    ).toThrow('routes without an entry in openapi/operations.ts: GET /api/v1/brand-new')
  })

  it('refuses an operation text that names no route', () => {
    expect(() =>
      generateOpenApi({ routes: routes.slice(1), operations, names: schemaNames, version: '0' }),
    ).toThrow(`entries naming no route: ${routes[0]!.method} ${routes[0]!.path}`)
  })
})

describe('the operation texts (openapi/operations.ts)', () => {
  it('name the very schemas the routes read their body and query with, and a page where the route pages', async () => {
    // Each route's `call.body` / `call.query` / `call.page` is watched while the build's example
    // requests run: the document must describe what the route reads, not a copy that has drifted.
    const read = new Map<string, { body?: unknown; query?: unknown; page?: true }>()
    const originals = routes.map((r) => r.resolve)
    for (const r of routes) {
      const resolve = r.resolve
      r.resolve = (call) => {
        const seen = read.get(`${r.method} ${r.path}`) ?? {}
        read.set(`${r.method} ${r.path}`, seen)
        const watched: Call = Object.create(call)
        watched.body = (schema, options) => {
          seen.body = schema
          return call.body(schema, options)
        }
        watched.query = (schema) => {
          seen.query = schema
          return call.query(schema)
        }
        watched.page = () => {
          seen.page = true
          return call.page()
        }
        return resolve(watched)
      }
    }
    try {
      await captureExamples(routes, operations)
    } finally {
      routes.forEach((r, i) => {
        r.resolve = originals[i]!
      })
    }
    // `POST /__mock/faults` reads the body raw: `faults.check` validates it with FaultSpec and the
    // route-table rules at once, so that a 422 names every failing field.
    const raw = new Set(['POST /__mock/faults'])
    for (const [key, doc] of Object.entries(operations)) {
      const seen = read.get(key)
      if (!doc.example) {
        // Without an example request the route never runs here: it must read nothing.
        expect({ key, body: doc.body, query: doc.query, page: 'page' in doc.answer }).toEqual({
          key,
          body: undefined,
          query: undefined,
          page: false,
        })
        continue
      }
      expect(seen, key).toBeDefined()
      if (raw.has(key)) expect(doc.body, key).toBe(FaultSpec)
      else expect(seen!.body === doc.body, `${key}: body schema`).toBe(true)
      expect(seen!.query === doc.query, `${key}: query schema`).toBe(true)
      expect(seen!.page ?? false, `${key}: page`).toBe('page' in doc.answer)
    }
  })
})

describe('GET /__mock/openapi.json', () => {
  it('serves the published document with `servers` aimed at the mock that answers', async () => {
    const mock = createMockApi({ baseUrl: 'https://docs.reseller.test' })
    const response = await mock.fetch('https://docs.reseller.test/__mock/openapi.json')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    const served = (await response.json()) as OpenApiDocument
    expect(served.servers).toEqual([{ url: 'https://docs.reseller.test', description: 'This mock' }])
    const { servers: _a, ...rest } = served
    const { servers: _b, ...expected } = published
    expect(rest).toEqual(expected)
  })
})

describe('the answer checker (ajv against the strict document)', () => {
  const strict = generateOpenApi({
    routes,
    operations,
    serverOnly: serverOnlyOperations,
    names: schemaNames,
    version: '0',
    strict: true,
  })
  const { check } = createAnswerChecker(strict as never)
  const ticket = {
    id: 1,
    uuid: '4fe3237f-9484-4187-acbd-9e63a5d1a40a',
    user_id: 1,
    subject: 'Hi',
    department: 'sales',
    status: 'open',
    priority: 'low',
    messages_count: 1,
    created_at: '2026-11-23T17:42:16.868013Z',
    updated_at: '2026-11-23T17:42:16.868013Z',
    service_id: null,
    messages: [],
  }
  const answer = (status: number, body: unknown) => ({
    method: 'GET',
    path: `/api/v1/support/tickets/${ticket.uuid}`,
    status,
    contentType: 'application/json',
    body: JSON.stringify(body),
  })

  it('accepts a conforming answer', () => {
    expect(check(answer(200, { success: true, data: ticket }))).toEqual([])
    expect(
      check(answer(404, { success: false, error: { code: 'not_found', message: 'ticket x not found' } })),
    ).toEqual([])
  })

  it('reports a missing field, an extra field, a wrong enum value, a wrong error code and a success body under an unlisted status', () => {
    const { status: _status, ...withoutStatus } = ticket
    expect(check(answer(200, { success: true, data: withoutStatus })).join('\n')).toContain(
      "must have required property 'status'",
    )
    expect(check(answer(200, { success: true, data: { ...ticket, secret: 'x' } })).join('\n')).toContain(
      'must NOT have additional properties',
    )
    expect(
      check(answer(200, { success: true, data: { ...ticket, department: 'sport' } })).join('\n'),
    ).toContain('must be equal to one of the allowed values')
    // A status's codes are open to a fault's (any snake_case code), never to another shape.
    expect(
      check(answer(404, { success: false, error: { code: 'Quota Exceeded', message: 'x' } })),
    ).not.toEqual([])
    expect(
      check({
        ...answer(200, { success: true, data: ticket }),
        method: 'POST',
        path: '/__mock/reset',
        status: 204,
        fault: true,
      }),
    ).not.toEqual([]) // 204 is not listed: `default` (the error envelope) applies, which a success body is not
  })

  it('accepts an error under an unlisted status only while a fault is set (the `default` answer)', () => {
    const rateLimited = answer(429, { success: false, error: { code: 'rate_limited', message: 'slow down' } })
    expect(check(rateLimited).join('\n')).toContain(
      'status 429 not documented for GET /api/v1/support/tickets/{ticket_uuid}',
    )
    expect(check({ ...rateLimited, fault: true })).toEqual([])
  })
})

describe('the API reference page (scripts/api-reference.mjs)', () => {
  it('renders every operation into one page that loads nothing from elsewhere', () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-reference-'))
    try {
      const script = new URL('../../../../scripts/api-reference.mjs', import.meta.url)
      execFileSync(process.execPath, [script.pathname, '--out', dir])
      const html = readFileSync(join(dir, 'index.html'), 'utf8')
      for (const { op } of allOperations) expect(html).toContain(`id="${op.operationId}"`)
      expect(html).toContain('deprecated')
      expect(html).toContain('<code>quota_exceeded</code>')
      // Self-contained: no script, no stylesheet link, no image or frame, a CSP that forbids loading.
      expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=/i)
      expect(html).toContain(`default-src 'none'`)
      // Texts are escaped: a pattern's `<` never opens a tag.
      expect(html).not.toContain('(?<')
      // The sidebar tells the hosting POSTs apart: each whole path, wrapped, never cut short.
      const nav = html.slice(html.indexOf('<nav>'), html.indexOf('</nav>'))
      const hostingPosts = [
        ...nav.matchAll(/<span class="method post">POST<\/span> ([^<]*hosting[^<]*)</g),
      ].map((m) => m[1])
      expect(hostingPosts).toEqual(
        expect.arrayContaining([
          '/reseller/clients/{client_id}/hosting',
          '/reseller/clients/{client_id}/hosting/{cpanel_username}/suspend',
          '/reseller/clients/{client_id}/hosting/{cpanel_username}/unsuspend',
        ]),
      )
      expect(html).not.toContain('text-overflow:ellipsis')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
