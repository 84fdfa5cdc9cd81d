/**
 * The published OpenAPI document says what the wire may carry and what the mock enforces: answers
 * open to added fields, requests closed; the rules the mock applies beyond zod's reach (unique
 * events, http(s) URLs, the page bound); one commit builds one document.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { OpenApiDocument } from '@reseller-api/sdk/schemas'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { createMockApi } from '../../src/index.js'
import { servedDocument } from '../../src/openapi/served.js'
import { createAnswerChecker, sampleTicketDetail } from '../helpers/answer-check.js'
import { call, newMock } from '../helpers/mock.js'

const file = createRequire(import.meta.url).resolve('@reseller-api/sdk/openapi.json')
const published = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument
// biome-ignore lint/suspicious/noExplicitAny: JSON of the document, navigated by the assertions below
type Json = Record<string, any>
const paths = published.paths as Record<string, Record<string, Json>>

/** Every `additionalProperties: false` under `value`, by where it is. */
function closedAt(value: unknown, at = ''): string[] {
  if (!value || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, item]) =>
    key === 'additionalProperties' && item === false ? [at] : closedAt(item, `${at}/${key}`),
  )
}

describe('the published document', () => {
  it('leaves answers open to added fields and keeps request bodies closed', () => {
    const answers = Object.values(paths).flatMap((item) => Object.values(item).map((op) => op.responses))
    expect(closedAt(answers)).toEqual([])
    expect(closedAt(published.components)).toEqual([])
    const body = paths['/api/v1/support/tickets']!.post!.requestBody.content['application/json'].schema
    expect(body.additionalProperties).toBe(false)

    const { check } = createAnswerChecker(published as never)
    const ticket = { ...sampleTicketDetail, added_by_the_service: { any: 'thing' } }
    const answer = (data: unknown) => ({
      method: 'GET',
      path: `/api/v1/support/tickets/${ticket.uuid}`,
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ success: true, data, also_added: true }),
    })
    expect(check(answer(ticket))).toEqual([])
    const { status: _status, ...withoutStatus } = ticket
    expect(check(answer(withoutStatus)).join('\n')).toContain("must have required property 'status'")
  })

  it('states the rules the mock enforces beyond the schemas: unique events, http(s) URLs', () => {
    const webhook = paths['/api/v1/webhooks']!.post!.requestBody.content['application/json'].schema
    expect(webhook.properties.events.uniqueItems).toBe(true)
    const resellerHook =
      paths['/api/v1/reseller/webhook']!.put!.requestBody.content['application/json'].schema
    const ajv = new Ajv2020({ strict: false })
    for (const url of [webhook.properties.url, resellerHook.properties.url]) {
      const valid = ajv.compile(url)
      expect([valid('https://h.example/x'), valid('HTTP://h.example/x'), valid('ftp://h.example/x')]).toEqual(
        [true, true, false],
      )
    }
  })

  it('documents the page bound the mock enforces, and the mock takes every page it allows', async () => {
    const page = (paths['/api/v1/invoices']!.get!.parameters as Json[]).find((p) => p.name === 'page')!
    expect(page.schema).toEqual({ type: 'integer', minimum: 1, maximum: 2_147_483_647 })
    const mock = newMock()
    for (const value of ['1000000000', String(page.schema.maximum), '0002147483647']) {
      const answer = await call(mock, 'GET', `/invoices?page=${value}`)
      expect([value, answer.status, answer.body.data]).toEqual([value, 200, []])
    }
    for (const value of ['2147483648', '99999999999999999999999']) {
      const answer = await call(mock, 'GET', `/invoices?page=${value}`)
      expect([answer.status, answer.body.error.fields]).toEqual([
        422,
        { page: ['must be 2147483647 or less'] },
      ])
    }
    const word = await call(mock, 'GET', '/invoices?page=1e3')
    expect(word.body.error.fields).toEqual({ page: ['must be a whole number'] })
  })

  it('has no path with a trailing slash, no empty path parameter, and the standalone mock first in servers', () => {
    expect(Object.keys(paths).filter((path) => path.endsWith('/'))).toEqual([])
    const params = Object.values(paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (op.parameters ?? []) as Json[]),
    )
    const ajv = new Ajv2020({ strict: false })
    for (const param of params.filter((p) => p.in === 'path')) {
      expect(ajv.validate(param.schema, ''), `${param.name} accepts ''`).toBe(false)
    }
    expect((published.servers as Json[])[0]).toMatchObject({ url: 'http://127.0.0.1:4010' })
  })

  it('has an example for every JSON answer, and documents the 415 of every body', () => {
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
          const json = response.content?.['application/json']
          if (json) expect(json.example, `${method} ${path} ${status}`).toBeDefined()
        }
        if (op.requestBody) expect(Object.keys(op.responses), `${method} ${path}`).toContain('415')
      }
    }
  })

  it('is served with the control endpoints, the same bytes every time, open like the published one', () => {
    const [first, second] = [servedDocument(published), servedDocument(published)]
    expect(JSON.stringify(second)).toBe(JSON.stringify(first))
    const answers = Object.values(first.paths).flatMap((item) =>
      Object.values(item).map((op) => op.responses),
    )
    expect(closedAt(answers)).toEqual([])
    expect(Object.keys(first.paths).filter((path) => path.startsWith('/__mock/')).length).toBeGreaterThan(10)
  })
})

describe('a body that is not JSON', () => {
  it('is refused with 415 and the envelope, before the body is read', async () => {
    const mock = createMockApi()
    const text = await mock.fetch(`${mock.baseUrl}/api/v1/support/tickets`, {
      method: 'POST',
      headers: { authorization: 'Bearer svc_live_acme_full' },
      body: JSON.stringify({ subject: 's', message: 'm', department: 'sales' }),
    })
    expect(text.status).toBe(415)
    expect(await text.json()).toMatchObject({ success: false, error: { code: 'unsupported_media_type' } })
    expect(mock.state().tables.tickets.filter((t) => t.subject === 's')).toEqual([])
    const typed = await call(newMock(), 'POST', '/support/tickets', {
      body: { subject: 's', message: 'm', department: 'sales' },
      headers: { 'content-type': 'application/vnd.api+json; charset=utf-8' },
    })
    expect(typed.status).toBe(201)
  })
})
