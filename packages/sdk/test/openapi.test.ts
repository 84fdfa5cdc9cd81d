/**
 * The published OpenAPI document (`@reseller-api/sdk/openapi.json`) is the SDK's own: generated
 * from its operation declarations, their texts and its zod schemas (src/openapi/service.ts), with
 * the example answers frozen in openapi/examples.json. One commit builds one document, and the
 * committed file is what the sources build.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { AnyEndpoint } from '../src/core/endpoint.js'
import { serviceDocument } from '../src/openapi/document.js'
import { errorExampleRequests, exampleRequests } from '../src/openapi/example-requests.js'
import { buildServiceDocument, serviceSpecs } from '../src/openapi/service.js'
import { EXAMPLE_SECRET } from '../src/openapi/webhooks.js'
import { operations } from '../src/operations/index.js'
import { GENERAL_EVENTS, RESELLER_EVENTS } from '../src/schemas/event-envelope.js'
import { verifySignature } from '../src/webhooks/index.js'

const committed = readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')
const examples = JSON.parse(readFileSync(new URL('../openapi/examples.json', import.meta.url), 'utf8'))
const eventExamples = JSON.parse(
  readFileSync(new URL('../openapi/webhook-examples.json', import.meta.url), 'utf8'),
)
const declarations = Object.values(operations).flatMap((area) => Object.values(area) as AnyEndpoint[])

describe('the published document', () => {
  it('is the same bytes when built twice, and the committed file is what the sources build', () => {
    const [first, second] = [
      buildServiceDocument(examples, { eventExamples }),
      buildServiceDocument(examples, { eventExamples }),
    ]
    expect(JSON.stringify(second)).toBe(JSON.stringify(first))
    expect(
      `${JSON.stringify(first)}\n`,
      'packages/sdk/openapi.json is stale: run `pnpm run openapi:write` and commit it',
    ).toBe(committed)
  })

  it('has one operation per declaration, each with a unique operationId and an example request', () => {
    const specs = serviceSpecs()
    expect(specs).toHaveLength(declarations.length)
    expect(new Set(specs.map((s) => s.operationId)).size).toBe(specs.length)
    const requests = exampleRequests(buildServiceDocument(examples))
    expect(requests).toHaveLength(declarations.length)
    // Every path parameter has its example: the session of scripts/prism-check.mjs can send each one.
    expect(requests.filter((r) => r.missing.length > 0 && !r.setup?.params)).toEqual([])
    const reply = requests.find((r) => r.operationId === 'replyToTicket')!
    expect(reply).toMatchObject({
      method: 'POST',
      path: '/api/v1/support/tickets/75650626-b41b-4d8a-a9c9-26165c76e5fa/messages',
      key: 'svc_live_acme_full',
      body: { message: 'Any news?' },
      status: 201,
    })
    expect(requests.find((r) => r.operationId === 'listInvoices')!.path).toBe('/api/v1/invoices?page=2')
  })

  it('names path parameters as the wire does, and marks the deprecated operations with their successors', () => {
    const document = buildServiceDocument(examples)
    expect(Object.keys(document.paths)).toContain(
      '/api/v1/reseller/clients/{client_id}/hosting/{cpanel_username}',
    )
    expect(document.paths['/api/v1/reseller/accounts']!.post).toMatchObject({
      deprecated: true,
      'x-successor': '/api/v1/reseller/clients/{client_id}/hosting',
    })
    const deprecated = Object.values(document.paths).flatMap((item) =>
      Object.values(item).filter((op) => op.deprecated === true),
    )
    expect(deprecated).toHaveLength(Object.keys(operations.legacy).length)
  })

  it('closes the answers only in the strict reading', () => {
    const closed = (value: unknown) => JSON.stringify(value).includes('"additionalProperties":false')
    const open = buildServiceDocument(examples)
    const strict = buildServiceDocument(examples, { strict: true })
    expect(closed(open.components.schemas.Ticket)).toBe(false)
    expect(closed(strict.components.schemas.Ticket)).toBe(true)
  })

  it('answers each operation with the success status its declaration gives (201 where it creates)', () => {
    const document = buildServiceDocument(examples)
    const specs = serviceSpecs()
    const successOf = (path: string, method: string) =>
      Object.keys(document.paths[path]![method]!.responses).filter((status) => /^2\d\d$/.test(status))
    declarations.forEach((ep, i) => {
      const spec = specs[i]!
      expect(successOf(spec.path, spec.method.toLowerCase()), spec.operationId).toEqual([String(ep.status)])
    })
    expect(operations.tickets.create.status).toBe(201)
    expect(operations.tickets.close.status).toBe(200)
  })

  it('documents business errors with requests of the demo seed that get them', () => {
    const document = buildServiceDocument(examples)
    const requests = errorExampleRequests(document)
    const close = requests.find((r) => r.operationId === 'closeTicket')!
    expect(close).toMatchObject({
      code: 'invalid_state',
      status: 422,
      method: 'PATCH',
      path: '/api/v1/support/tickets/4dad036d-ae84-4788-b740-d833dd9f2e15/close',
      key: 'svc_live_acme_full',
    })
    // Another reseller's key where the error is theirs; the rest of the example request kept.
    expect(
      requests.find((r) => r.operationId === 'getWhmAccount' && r.code === 'whm_unavailable'),
    ).toMatchObject({
      status: 503,
      path: '/api/v1/reseller/whm/accounts/clienton',
      key: 'svc_live_beta_full',
    })
    for (const request of requests) {
      const answer =
        document.paths[request.template]![request.method.toLowerCase()]!.responses[String(request.status)]
      // The status documents the code, and its example is a captured answer of one of its requests.
      expect(answer?.description, `${request.operationId} ${request.code}`).toContain(`\`${request.code}\``)
      const example = (answer!.content as Record<string, { example: { error: { code: string } } }>)[
        'application/json'
      ]!.example
      expect(
        requests.some((r) => r.operationId === request.operationId && r.code === example.error.code),
        `${request.operationId} ${request.status}: the example is one of its error examples`,
      ).toBe(true)
    }
    expect(new Set(requests.map((r) => r.code))).toEqual(
      new Set(['invalid_state', 'whm_unavailable', 'domain_taken', 'not_found']),
    )
  })

  it('refuses an error example whose code the operation does not document', () => {
    const [spec] = serviceSpecs().filter((s) => s.operationId === 'closeTicket')
    const build = (code: string) =>
      serviceDocument([{ ...spec!, errorExamples: { [code]: { params: { ticket_uuid: 'x' } } } }], '0.0.0', {
        names: {},
      })
    expect(() => build('invalid_state')).not.toThrow()
    expect(() => build('domain_taken')).toThrow(
      'closeTicket: the error example domain_taken is not an error code it documents',
    )
  })
})

describe('the events of the published document (webhooks)', () => {
  type Entry = {
    post: {
      parameters: { name: string; example?: string }[]
      requestBody: { content: { 'application/json': { schema: { $ref: string }; example: unknown } } }
    }
  }
  const webhooks = buildServiceDocument(examples, { eventExamples }).webhooks as Record<string, Entry>

  it('has one entry per option of the SDK’s event unions, each body the event’s named component', () => {
    const expected = [
      ...RESELLER_EVENTS.map((event) => `reseller/${event}`),
      ...[...GENERAL_EVENTS, 'test'].map((event) => `general/${event}`),
    ]
    expect(Object.keys(webhooks)).toEqual(expected)
    expect(
      webhooks['general/domain.registered']!.post.requestBody.content['application/json'].schema,
    ).toEqual({
      $ref: '#/components/schemas/GeneralDomainRegisteredEvent',
    })
  })

  it('signs each example body, as the compact JSON sent, with the documented secret', async () => {
    for (const [key, { post }] of Object.entries(webhooks)) {
      const { example } = post.requestBody.content['application/json']
      const header = (name: string) => post.parameters.find((p) => p.name === name)?.example
      const raw = JSON.stringify(example)
      expect(raw, key).toBe(eventExamples[key].body)
      expect(await verifySignature(raw, header('X-Service-Signature'), EXAMPLE_SECRET), key).toBe(true)
      expect(header('X-Service-Event')).toBe((example as { event: string }).event)
    }
  })
})
