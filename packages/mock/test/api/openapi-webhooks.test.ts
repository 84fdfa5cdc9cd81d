/**
 * The events of the OpenAPI documents (`webhooks`): every delivery the mock really sends, whether an
 * API operation caused it or `mock.emit`, in either style, sandbox included, conforms to the entry
 * of its style and event in both the published and the served document (body and headers, checked
 * by Ajv against the document, not by the zod schemas it came from); a broken body does not; and
 * the frozen example deliveries are what the mock sends today (docs/openapi.md, "Events").
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { createMockApi } from '../../src/node.js'
import {
  type CapturedDelivery,
  captureDeliveries,
  captureEventExamples,
  emitEveryEvent,
} from '../../src/openapi/capture-events.js'

type Json = Record<string, unknown>
interface Entry {
  post: {
    parameters: { name: string; schema: Json; example?: unknown }[]
    requestBody: { content: { 'application/json': { schema: Json; example?: unknown } } }
    responses: Record<string, unknown>
  }
}
interface Document {
  webhooks: Record<string, Entry>
  components: Json
}

const require = createRequire(import.meta.url)
const published = JSON.parse(
  readFileSync(require.resolve('@reseller-api/sdk/openapi.json'), 'utf8'),
) as Document
const frozen = JSON.parse(
  readFileSync(new URL('../../../sdk/openapi/webhook-examples.json', import.meta.url), 'utf8'),
) as Record<string, { delivery: string; body: string }>

async function servedDocument(): Promise<Document> {
  const mock = createMockApi()
  const response = await mock.fetch(`${mock.baseUrl}/__mock/openapi.json`)
  return (await response.json()) as Document
}

/** Validates bodies and headers of deliveries against the entries of `document`. */
function checkerOf(document: Document) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true })
  const id = 'https://reseller.test/openapi.json'
  ajv.addSchema({ $id: id, components: document.components })
  const compile = (schema: Json) =>
    ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${id}#/components/`)))
  const validators = new Map<string, { body: ValidateFunction; headers: Map<string, ValidateFunction> }>()
  for (const [key, entry] of Object.entries(document.webhooks)) {
    validators.set(key, {
      body: compile(entry.post.requestBody.content['application/json'].schema),
      headers: new Map(entry.post.parameters.map((p) => [p.name.toLowerCase(), compile(p.schema)])),
    })
  }
  /** What is wrong with `body` (and `headers`) as a delivery of `key`; empty when it conforms. */
  return (key: string, body: unknown, headers: Record<string, string> = {}): string[] => {
    const found = validators.get(key)
    if (!found) return [`no entry ${key}`]
    const problems: string[] = []
    if (!found.body(body)) problems.push(`body: ${ajv.errorsText(found.body.errors)}`)
    for (const [name, value] of Object.entries(headers)) {
      const validate = found.headers.get(name)
      if (!validate) problems.push(`header ${name}: not documented`)
      else if (!validate(value)) problems.push(`header ${name}: ${ajv.errorsText(validate.errors)}`)
    }
    return problems
  }
}

/** The demo seed's client and open ticket of reseller 1. */
const CLIENT = 503
const OPEN_TICKET = '75650626-b41b-4d8a-a9c9-26165c76e5fa'

/** Every kind of delivery the mock makes: through the API operations that cause events, and emitted. */
function everyDelivery(): Promise<CapturedDelivery[]> {
  return captureDeliveries(async (session) => {
    const { mock, api } = session
    const ok = (answer: { status: number; body: unknown }, status: number) =>
      expect(answer.status, JSON.stringify(answer.body)).toBe(status)
    // hosting.created, domain.registered and wallet.debited, as provisioning sends them.
    ok(
      await api('POST', `/reseller/clients/${CLIENT}/hosting`, {
        domain: 'events-check.example',
        whm_package: 'starter',
        register_domain: true,
      }),
      201,
    )
    // ticket.created, then ticket.replied from a staff reply.
    ok(
      await api('POST', '/support/tickets', { subject: 'Events', message: 'Check', department: 'technical' }),
      201,
    )
    await mock.tickets.staffReply(OPEN_TICKET, { message: 'On it.' })
    // Every event of both styles, the general test event, and sandbox reseller events.
    await emitEveryEvent(session)
    await mock.emit({ reseller_id: 1, style: 'reseller', event: 'vps.activated', sandbox: true })
  })
}

describe('the events of the OpenAPI documents (webhooks)', () => {
  it('describe every delivery the mock sends, in both documents, body and headers', async () => {
    const deliveries = await everyDelivery()
    const keys = new Set(deliveries.map((d) => `${d.style}/${d.event}`))
    // Every entry is exercised: each style's every event, the general test event.
    for (const document of [published, await servedDocument()]) {
      expect(new Set(Object.keys(document.webhooks))).toEqual(keys)
      const check = checkerOf(document)
      for (const { style, event, delivery, body } of deliveries) {
        const key = `${style}/${event}`
        const headers = { 'x-service-delivery': delivery, 'x-service-event': event }
        expect(check(key, JSON.parse(body), headers), `${key}: ${body}`).toEqual([])
      }
    }
    // The operations' own deliveries were among them (not only emitted ones).
    const provisioned = deliveries.find(
      (d) => d.event === 'hosting.created' && d.body.includes('events-check.example'),
    )
    expect(provisioned).toBeDefined()
    expect(deliveries.some((d) => d.event === 'ticket.replied' && d.body.includes('On it.'))).toBe(true)
    expect(deliveries.some((d) => d.body.includes('"sandbox":true'))).toBe(true)
  })

  it('refuse a body or a header that is not the event', async () => {
    const check = checkerOf(published)
    const example = JSON.parse(frozen['reseller/vps.activated']!.body) as Json
    const data = example.data as Json
    expect(check('reseller/vps.activated', example)).toEqual([])
    const broken: [string, unknown][] = [
      ['sandbox as a string', { ...example, sandbox: 'false' }],
      ['timestamp with an offset', { ...example, timestamp: '2026-01-15T09:30:00+00:00' }],
      ['data without ipv4', { ...example, data: { ...data, ipv4: undefined } }],
      ['server_id as a string', { ...example, data: { ...data, server_id: '42' } }],
      ['another event name', { ...example, event: 'vps.provisioning' }],
      ['no data', { ...example, data: undefined }],
    ]
    for (const [what, body] of broken) {
      const json = JSON.parse(JSON.stringify(body)) as unknown
      expect(check('reseller/vps.activated', json), what).not.toEqual([])
    }
    const general = JSON.parse(frozen['general/ticket.created']!.body) as Json
    expect(check('general/ticket.created', general)).toEqual([])
    expect(check('general/ticket.created', { ...general, created_at: '2026-01-15T09:30:00Z' })).not.toEqual(
      [],
    )
    expect(check('general/ticket.created', general, { 'x-service-signature': 'sha256=ABC' })).not.toEqual([])
    expect(check('general/ticket.created', general, { 'x-service-delivery': 'delivery-1' })).not.toEqual([])
    expect(check('general/ticket.created', general, { 'x-service-event': 'ticket.replied' })).not.toEqual([])
  })

  it('hold the example deliveries the mock sends today (frozen like the operation examples)', async () => {
    const fresh = await captureEventExamples()
    expect(fresh, 'run `pnpm run openapi:examples` and commit what it writes').toEqual(frozen)
    expect(JSON.stringify(await captureEventExamples())).toBe(JSON.stringify(fresh))
    for (const [key, { delivery, body }] of Object.entries(fresh)) {
      const post = published.webhooks[key]!.post
      expect(post.requestBody.content['application/json'].example, key).toEqual(JSON.parse(body))
      expect(post.parameters.find((p) => p.name === 'X-Service-Delivery')!.example, key).toBe(delivery)
    }
  })

  it('state the headers, the signature pattern and the receiver’s answers of every entry', () => {
    for (const [key, entry] of Object.entries(published.webhooks)) {
      const headers = Object.fromEntries(entry.post.parameters.map((p) => [p.name, p.schema]))
      expect(headers['X-Service-Signature'], key).toEqual({
        type: 'string',
        pattern: '^sha256=[0-9a-f]{64}$',
      })
      expect(Object.keys(headers).sort()).toEqual([
        'X-Service-Delivery',
        'X-Service-Event',
        'X-Service-Signature',
      ])
      expect(Object.keys(entry.post.responses)).toEqual(expect.arrayContaining(['200', '2XX', '401']))
    }
    expect(Object.keys(published.webhooks)).toHaveLength(18)
  })
})
