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
import type { OpenApiDocument } from '@reseller-api/sdk/schemas'
import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import { routes } from '../../src/handlers/index.js'
import { createMockApi } from '../../src/index.js'
import { servedDocument } from '../../src/openapi/served.js'
import { createAnswerChecker } from '../helpers/answer-check.js'

// Through the package's `exports`, as a user would import it.
const file = createRequire(import.meta.url).resolve('@reseller-api/sdk/openapi.json')
const published = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument
/** The document the mock serves: the published one with the control endpoints. */
const served = servedDocument(published)
type Operation = Record<string, unknown> & {
  responses: Record<string, { content?: Record<string, { schema?: unknown; example?: unknown }> }>
}
const operationsOf = (document: OpenApiDocument) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      path,
      method: method.toUpperCase(),
      op: op as unknown as Operation,
    })),
  )
const allOperations = operationsOf(served)
const operationOf = (method: string, path: string) => {
  const op = served.paths[path]?.[method.toLowerCase()]
  if (!op) throw new Error(`no ${method} ${path} in the document`)
  return op as unknown as Operation
}
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}')

describe('the published document', () => {
  it('is valid OpenAPI 3.1 for @seriousme/openapi-schema-validator, and so is the served one', async () => {
    for (const document of [published, served]) {
      const validator = new Validator()
      const result = await validator.validate(document)
      expect(result.errors).toBeUndefined()
      expect(result.valid).toBe(true)
      expect(validator.version).toBe('3.1')
    }
    // The validator does refuse: a response without its required `description`.
    const broken = structuredClone(published)
    delete (broken.paths['/api/v1/invoices']!.get!.responses['200'] as { description?: string }).description
    expect((await new Validator().validate(broken)).valid).toBe(false)
  })

  it('describes the service alone; the served one has one operation per route of the mock, plus the streams', () => {
    const api = routes.filter((r) => r.path.startsWith('/api/'))
    expect(
      operationsOf(published)
        .map((o) => `${o.method} ${o.path}`)
        .sort(),
    ).toEqual(api.map((r) => `${r.method} ${openApiPath(r.path)}`).sort())
    const expected = [
      ...routes.map((r) => `${r.method} ${openApiPath(r.path)}`),
      // The standalone server's two event streams (the inspector's, the deliveries'), and its
      // namespace endpoints, served in front of the route table.
      'GET /__mock/stream',
      'GET /__mock/deliveries/stream',
      'POST /__mock/namespaces',
      'GET /__mock/namespaces',
      'GET /__mock/namespaces/{id}',
      'DELETE /__mock/namespaces/{id}',
      'DELETE /__mock/namespaces',
    ].sort()
    expect(allOperations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(expected)
    expect(new Set(allOperations.map((o) => o.op.operationId)).size).toBe(allOperations.length)
    expect(published.tags.map((t) => t.name)).not.toContain('mock')
    expect(served.tags.map((t) => t.name)).toContain('mock')
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
    const { check } = createAnswerChecker(served as never)
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

describe('GET /__mock/openapi.json', () => {
  it('serves the published document with the control endpoints and `servers` aimed at the mock that answers', async () => {
    const mock = createMockApi({ baseUrl: 'https://docs.reseller.test' })
    const response = await mock.fetch('https://docs.reseller.test/__mock/openapi.json')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    const answer = (await response.json()) as OpenApiDocument
    expect(answer.servers).toEqual([{ url: 'https://docs.reseller.test', description: 'This mock' }])
    const { servers: _a, ...rest } = answer
    const { servers: _b, ...expected } = served
    expect(rest).toEqual(expected)
    // Every operation and component of the published document, unchanged.
    for (const [path, item] of Object.entries(published.paths)) expect(answer.paths[path]).toEqual(item)
    for (const [name, schema] of Object.entries(published.components.schemas))
      expect(answer.components.schemas[name]).toEqual(schema)
  })
})

describe('the API reference page (scripts/api-reference.mjs)', () => {
  it('renders every operation into one page that loads nothing from elsewhere', () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-reference-'))
    try {
      const script = new URL('../../../../scripts/api-reference.mjs', import.meta.url)
      execFileSync(process.execPath, [script.pathname, '--out', dir])
      const html = readFileSync(join(dir, 'index.html'), 'utf8')
      for (const { op } of operationsOf(published)) expect(html).toContain(`id="${op.operationId}"`)
      expect(html).toContain('deprecated')
      expect(html).toContain('<code>quota_exceeded</code>')
      // The events the service sends: each entry of `webhooks`, its headers and example body.
      const events = Object.values(
        (published as unknown as { webhooks: Record<string, { post: { operationId: string } }> }).webhooks,
      )
      expect(events).toHaveLength(18)
      for (const { post } of events) expect(html).toContain(`id="${post.operationId}"`)
      expect(html).toContain('<h2 id="tag-reseller-events">reseller events</h2>')
      expect(html).toContain('<code>X-Service-Signature</code>')
      expect(html).toContain('<code>^sha256=[0-9a-f]{64}$</code>')
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
