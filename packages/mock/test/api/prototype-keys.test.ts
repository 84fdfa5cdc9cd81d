/**
 * JSON keys named like Object.prototype's properties are ordinary unknown fields.
 * Every endpoint that reads a body answers 422 `validation_error` naming the key, and stores nothing.
 */
import { describe, expect, test } from 'vitest'
import { call, expectError, KEYS, newMock, state, testSeed, ticketUuid } from '../helpers/mock.js'

const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype']

/** Every route reading a body, with a body that is valid but for the extra key. */
const BODY_ROUTES: [method: string, path: string, valid: Record<string, unknown>][] = [
  ['POST', '/support/tickets', { subject: 'Hi', message: 'Hello', department: 'technical' }],
  ['POST', '/support/tickets/:ticket/messages', { message: 'More' }],
  ['POST', '/webhooks', { url: 'https://hooks.example.com/in', events: ['ticket.created'] }],
  ['POST', '/webhooks/wh_proto/test', { event: 'ticket.created' }],
  ['PUT', '/reseller/webhook', { url: 'https://hooks.example.com/r', secret: 'whsec_proto' }],
  ['POST', '/reseller/clients/501/hosting', { domain: 'new.example', whm_package: 'starter' }],
  ['POST', '/reseller/accounts', { client_id: 501, domain: 'new.example', whm_package: 'starter' }],
  [
    'POST',
    '/reseller/whm/packages',
    { name: 'gold', quota: 1, bandwidth: 1, maxsql: 1, maxpop: 1, maxftp: 1, maxsub: 1 },
  ],
  ['POST', '/__mock/tickets/:ticket/replies', { message: 'Staff here' }],
  ['PATCH', '/__mock/tickets/:ticket', { status: 'resolved' }],
  ['POST', '/__mock/faults', { respond: { status: 503 } }],
  ['POST', '/__mock/events', { reseller_id: 1, event: 'ticket.created' }],
  ['POST', '/__mock/clock/advance', { seconds: 60 }],
]

function seed() {
  const s = testSeed()
  ;(s.resellers[0] as { webhooks?: unknown[] }).webhooks = [
    { id: 'wh_proto', url: 'https://hooks.example.com/in', events: ['ticket.created'] },
  ]
  return s
}

describe.each(BODY_ROUTES)('%s %s', (method, template, valid) => {
  test.each(PROTO_KEYS)('a key %s is an unknown field: 422 naming it, nothing stored', async (key) => {
    const mock = newMock(seed())
    const path = template.replace(':ticket', await ticketUuid(mock, 'First'))
    // The raw text, as a client sends it: JSON.parse makes `__proto__` an own key.
    const raw = `${JSON.stringify(valid).slice(0, -1)},${JSON.stringify(key)}:{"admin":true}}`
    const before = await state(mock)
    const answer = await call(mock, method, path, { raw, key: KEYS.a })
    expectError(answer, 422, 'validation_error')
    expect(Object.keys(answer.body.error.fields)).toEqual([key])
    expect(answer.body.error.fields[key]).toEqual(['is not a known field'])
    expect(answer.body.error.message).toContain(`${key}: is not a known field`)
    expect(await state(mock)).toEqual(before)
  })

  test('the same body without the key is accepted (the key alone made the difference)', async () => {
    const mock = newMock(seed())
    const path = template.replace(':ticket', await ticketUuid(mock, 'First'))
    const answer = await call(mock, method, path, { body: valid, key: KEYS.a })
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300)
  })
})

describe('nested and query positions', () => {
  test('a prototype-named key inside a nested object names its path', async () => {
    const mock = newMock()
    const answer = await call(mock, 'POST', '/__mock/faults', {
      raw: '{"respond":{"status":503,"__proto__":{"status":200}},"match":{"constructor":"x"}}',
      key: null,
    })
    expectError(answer, 422, 'validation_error')
    expect(answer.body.error.fields).toEqual({
      'respond.__proto__': ['is not a known field'],
      'match.constructor': ['is not a known field'],
    })
    expect(await call(mock, 'GET', '/__mock/faults', { key: null })).toMatchObject({ body: { data: [] } })
  })

  test('event data: a prototype-named key is like any other extra data key (event data is open: left out)', async () => {
    const mock = newMock()
    const data =
      '{"ticket_id":"9311f123-4c5d-4e6f-8a7b-2c3d4e5f6a7b","subject":"S","department":"technical","priority":"normal","status":"open"'
    const answer = await call(mock, 'POST', '/__mock/events', {
      raw: `{"reseller_id":1,"event":"ticket.created","data":${data},"__proto__":{"polluted":1},"constructor":{"x":1}}}`,
      key: null,
    })
    // The extra keys sit inside `data` here: an open object, so they are dropped like `colour` would be.
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    expect(Object.keys(answer.body.data.data).sort()).toEqual([
      'department',
      'priority',
      'status',
      'subject',
      'ticket_id',
    ])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  test.each(['__proto__', 'constructor', 'toString'])(
    'a query parameter named %s is an unknown parameter of the journal filter',
    async (name) => {
      const mock = newMock()
      const answer = await call(mock, 'GET', `/__mock/requests?${name}=1`, { key: null })
      expectError(answer, 422, 'validation_error')
      expect(answer.body.error.fields).toEqual({ [name]: ['is not a known field'] })
    },
  )
})
