// Webhook configuration: PUT/GET /reseller/webhook and POST /webhooks. (Delivery tests are webhooks-*.test.ts.)
import { envelope, ResellerWebhook, WebhookCreated } from '@reseller-api/sdk/schemas'
import { describe, expect, test } from 'vitest'
import { call, expectError, KEYS, newMock, state } from '../helpers/mock.js'

describe('reseller webhook', () => {
  test('GET before any PUT → { url: null, has_secret: false }', async () => {
    const answer = await call(newMock(), 'GET', '/reseller/webhook', { key: KEYS.aWebhooks })
    expect(envelope(ResellerWebhook).parse(answer.body).data).toEqual({ url: null, has_secret: false })
  })

  test('PUT sets url and secret; the secret is never returned', async () => {
    const mock = newMock()
    const put = await call(mock, 'PUT', '/reseller/webhook', {
      body: { url: 'http://localhost:9000/hook', secret: 's3cret-value' },
    })
    expect(put.status).toBe(200)
    expect(put.body.data).toEqual({ url: 'http://localhost:9000/hook', has_secret: true })
    const get = await call(mock, 'GET', '/reseller/webhook')
    expect(get.body.data).toEqual({ url: 'http://localhost:9000/hook', has_secret: true })
    expect(JSON.stringify([put.body, get.body])).not.toContain('s3cret-value')
    // Replaced by a second PUT.
    await call(mock, 'PUT', '/reseller/webhook', {
      body: { url: 'https://hooks.example/x', secret: 'other' },
    })
    expect((await call(mock, 'GET', '/reseller/webhook')).body.data.url).toBe('https://hooks.example/x')
  })

  test('PUT validation: url, secret required; unknown field', async () => {
    const answer = await call(newMock(), 'PUT', '/reseller/webhook', { body: { url: 'ftp://x', extra: 1 } })
    expectError(answer, 422, 'validation_error')
    expect(Object.keys(answer.body.error.fields).sort()).toEqual(['extra', 'secret', 'url'])
  })

  test('sandbox keys may read but not change it', async () => {
    const mock = newMock()
    expect((await call(mock, 'GET', '/reseller/webhook', { key: KEYS.aSandbox })).status).toBe(200)
    const put = await call(mock, 'PUT', '/reseller/webhook', {
      key: KEYS.aSandbox,
      body: { url: 'https://hooks.example/x', secret: 's' },
    })
    expectError(put, 403, 'sandbox_read_only')
  })
})

describe('general webhooks: POST /webhooks', () => {
  const body = { url: 'https://hooks.example.com/general', events: ['ticket.created', 'payment.failed'] }

  test('201 { id, url, events, secret, created_at }; id is a string; secret whsec_ + 32 hex', async () => {
    const mock = newMock()
    const answer = await call(mock, 'POST', '/webhooks', { key: KEYS.aWebhooks, body })
    expect(answer.status).toBe(201)
    const data = envelope(WebhookCreated).parse(answer.body).data
    expect(Object.keys(answer.body.data).sort()).toEqual(['created_at', 'events', 'id', 'secret', 'url'])
    expect(data).toMatchObject({ url: body.url, events: body.events })
    expect(typeof data.id).toBe('string')
    expect(data.secret).toMatch(/^whsec_[0-9a-f]{32}$/)
    const second = await call(mock, 'POST', '/webhooks', { body })
    expect(second.body.data.id).not.toBe(data.id)
    expect(second.body.data.secret).not.toBe(data.secret)
    // The operator's view (GET /__mock/state) shows it; no API answer but the creation does.
    const s = await state(mock)
    expect(s.tables.webhooks!.find((w) => w.id === data.id)).toMatchObject({
      secret: data.secret,
      reseller_id: 1,
    })
  })

  test.each([
    ['http URL', 'http://hooks.example.com/x'],
    ['loopback', 'https://127.0.0.1/x'],
    ['localhost', 'https://localhost/x'],
    ['private network', 'https://192.168.1.10/x'],
    ['another scheme', 'ftp://hooks.example.com/x'],
  ])('%s refused → 422 on url', async (_case, url) => {
    const answer = await call(newMock(), 'POST', '/webhooks', { body: { ...body, url } })
    expectError(answer, 422, 'validation_error')
    expect(Object.keys(answer.body.error.fields)).toEqual(['url'])
  })

  test('insecureWebhooks accepts http and loopback receivers', async () => {
    const mock = newMock(undefined, { insecureWebhooks: true })
    const answer = await call(mock, 'POST', '/webhooks', {
      body: { ...body, url: 'http://127.0.0.1:8080/hook' },
    })
    expect(answer.status).toBe(201)
  })

  test('events: wildcard, unknown, empty and duplicates refused', async () => {
    const mock = newMock()
    for (const events of [
      ['*'],
      ['ticket.*'],
      ['hosting.created'],
      [],
      ['ticket.created', 'ticket.created'],
    ]) {
      const answer = await call(mock, 'POST', '/webhooks', { body: { ...body, events } })
      expectError(answer, 422, 'validation_error')
      expect(Object.keys(answer.body.error.fields)[0]).toMatch(/^events/)
    }
    const wildcard = await call(mock, 'POST', '/webhooks', { body: { ...body, events: ['*'] } })
    expect(wildcard.body.error.fields['events.0'][0]).toMatch(/wildcard/)
  })

  test('sandbox keys are refused', async () => {
    expectError(
      await call(newMock(), 'POST', '/webhooks', { key: KEYS.aSandbox, body }),
      403,
      'sandbox_read_only',
    )
  })
})
