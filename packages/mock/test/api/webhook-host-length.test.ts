// A webhook host longer than DNS allows (253 characters, a label over 63) is refused when set.
import { describe, expect, it } from 'vitest'
import { call, expectError, KEYS, newMock, state } from '../helpers/mock.js'

/** A host of `length` characters made of labels of at most `label` characters. */
function hostOf(length: number, label = 63): string {
  const labels: string[] = []
  let left = length
  while (left > 0) {
    const size = Math.min(label, left === label + 1 ? label - 1 : left)
    labels.push('a'.repeat(size))
    left -= size + 1
  }
  const host = `${labels.join('.').slice(0, length - 4)}.com`
  expect(host).toHaveLength(length)
  return host
}

const TOO_LONG = [
  ['a 254-character host', `https://${hostOf(254)}/hook`],
  ['a 64-character label', `https://${'b'.repeat(64)}.example.com/hook`],
]
const LONGEST = `https://${hostOf(253)}/hook`

describe('webhook host length', () => {
  it.each(TOO_LONG)('POST /webhooks refuses %s with 422 on url, in either mode', async (_, url) => {
    for (const insecureWebhooks of [false, true]) {
      const mock = newMock(undefined, { insecureWebhooks })
      const answer = await call(mock, 'POST', '/webhooks', {
        key: KEYS.aWebhooks,
        body: { url, events: ['ticket.created'] },
      })
      expectError(answer, 422, 'validation_error')
      expect(answer.body.error.fields.url.join(' ')).toMatch(
        /host name DNS can carry: at most 253 characters, each dot-separated label at most 63/,
      )
      expect((await state(mock)).tables.webhooks ?? []).toHaveLength(0)
    }
  })

  it.each(TOO_LONG)(
    'PUT /reseller/webhook refuses %s with 422 on url, keeping the old one',
    async (_, url) => {
      const mock = newMock()
      const first = await call(mock, 'PUT', '/reseller/webhook', {
        body: { url: 'https://hooks.example.com/r', secret: 's' },
      })
      expect(first.status).toBe(200)
      const answer = await call(mock, 'PUT', '/reseller/webhook', { body: { url, secret: 's2' } })
      expectError(answer, 422, 'validation_error')
      expect(answer.body.error.fields.url.join(' ')).toMatch(/host name DNS can carry/)
      expect((await call(mock, 'GET', '/reseller/webhook')).body.data.url).toBe('https://hooks.example.com/r')
    },
  )

  it('the longest host DNS carries (253 characters, labels of 63) is accepted, a trailing dot aside', async () => {
    const mock = newMock()
    for (const url of [LONGEST, LONGEST.replace('.com/', '.com./')]) {
      const general = await call(mock, 'POST', '/webhooks', { body: { url, events: ['ticket.created'] } })
      expect(general.status, JSON.stringify(general.body)).toBe(201)
      const reseller = await call(mock, 'PUT', '/reseller/webhook', { body: { url, secret: 's' } })
      expect(reseller.status).toBe(200)
    }
  })
})
