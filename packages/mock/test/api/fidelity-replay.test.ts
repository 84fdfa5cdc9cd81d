/**
 * `replayCassette` in process: cassettes made from an upstream mock's answers (recorded through the
 * recorder's own line builder), replayed against a fresh mock.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Cassette, CassetteExchange } from '../../src/fidelity/cassette.js'
import { CASSETTE_FORMAT, CASSETTE_VERSION } from '../../src/fidelity/cassette.js'
import { redactSeed, toCassetteExchange } from '../../src/fidelity/cassette-writer.js'
import { servedOpenApiDocument } from '../../src/fidelity/openapi-document.js'
import { keysByMode, replayCassette } from '../../src/fidelity/replay.js'
import type { MockApi, SeedInput } from '../../src/node.js'
import { createMockApi } from '../../src/node.js'

const LIVE = 'svc_live_upstream_key'
const SANDBOX = 'svc_test_upstream_key'

function seed(): SeedInput {
  return {
    resellers: [
      {
        id: 1,
        api_keys: [{ key: LIVE }, { key: SANDBOX }],
        tickets: [{ subject: 'Seeded', department: 'technical', messages: [{ message: 'hello' }] }],
      },
    ],
  }
}

/** Records exchanges against `upstream` as the recorder given `recordedKey` writes them. */
function recorder(upstream: MockApi, recordedKey = LIVE) {
  const exchanges: CassetteExchange[] = []
  return {
    exchanges,
    async send(method: string, path: string, headers: Record<string, string>, body?: unknown) {
      const text = body === undefined ? undefined : JSON.stringify(body)
      const all = text === undefined ? headers : { ...headers, 'content-type': 'application/json' }
      const response = await upstream.fetch(`${upstream.baseUrl}${path}`, {
        method,
        headers: all,
        body: text,
      })
      const answer = Buffer.from(await response.arrayBuffer())
      exchanges.push(
        toCassetteExchange(
          exchanges.length + 1,
          {
            at: new Date(),
            method,
            path,
            rawHeaders: Object.entries(all).flat(),
            body: Buffer.from(text ?? ''),
            answer: {
              status: response.status,
              statusMessage: '',
              rawHeaders: [...response.headers].flat(),
              body: answer,
            },
          },
          recordedKey,
          [],
        ),
      )
      return JSON.parse(answer.toString() || 'null')
    },
  }
}

function cassette(exchanges: CassetteExchange[]): Cassette {
  return {
    // The seed as the recorder keeps it (secrets hidden).
    seed: redactSeed(seed() as Cassette['seed']),
    header: {
      format: CASSETTE_FORMAT,
      version: CASSETTE_VERSION,
      upstream: 'https://api.reseller.test',
      recorded_at: new Date().toISOString(),
      mode: 'live',
    },
    exchanges,
  }
}

let receiver: ReturnType<typeof createServer>
let received: number
let receiverUrl: string
beforeEach(async () => {
  received = 0
  receiver = createServer((_request, response) => {
    received++
    response.end('ok')
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
})
afterEach(async () => {
  await new Promise((resolve) => receiver.close(resolve))
})

describe('replayCassette', () => {
  it("sends the seed's first key of each mode", () => {
    expect(keysByMode(cassette([]).seed)).toEqual({ live: LIVE, sandbox: SANDBOX })
  })

  it('sends each request with the key of its recorded mode; another key gets a key the mock does not know', async () => {
    const upstream = createMockApi({ seed: seed() })
    const rec = recorder(upstream, SANDBOX)
    await rec.send('GET', '/api/v1/support/tickets', { authorization: `Bearer ${SANDBOX}` })
    await rec.send(
      'POST',
      '/api/v1/webhooks',
      { authorization: `Bearer ${SANDBOX}` },
      {
        url: 'https://hooks.example.com/x',
        events: ['payment.failed'],
      },
    )
    await rec.send('GET', '/api/v1/services', { authorization: `Bearer ${LIVE}` })
    await rec.send('GET', '/api/v1/services', { authorization: 'Token abc' })
    expect(rec.exchanges.map((e) => [e.request.headers.authorization, e.response!.status])).toEqual([
      ['sandbox', 200],
      ['sandbox', 403],
      ['live (another key)', 200],
      ['[redacted]', 401],
    ])
    const steps = await replayCassette(cassette(rec.exchanges), { openapi: await servedOpenApiDocument() })
    expect(steps.map((s) => [s.name, s.status, s.differences.map((d) => d.kind)])).toEqual([
      ['#1', [200, 200], []],
      ['#2', [403, 403], []],
      // Only the recorded key has a partner in the seed: another key is sent as an unknown one.
      ['#3', [200, 401], ['status', 'error_code']],
      ['#4', [401, 401], []],
    ])
  })

  it('maps the ids the upstream made to the mock’s, and finds a changed answer', async () => {
    // Another random seed: the upstream's new uuids differ from the replay's.
    const upstream = createMockApi({ seed: seed(), randomSeed: 'upstream' })
    const rec = recorder(upstream)
    const auth = { authorization: `Bearer ${LIVE}` }
    const created = await rec.send('POST', '/api/v1/support/tickets', auth, {
      subject: 'New',
      department: 'billing',
      message: 'm',
    })
    await rec.send('GET', `/api/v1/support/tickets/${created.data.ticket_id}`, auth)
    await rec.send('POST', `/api/v1/support/tickets/${created.data.ticket_id}/messages`, auth, {
      message: 'more',
    })
    const openapi = await servedOpenApiDocument()
    const steps = await replayCassette(cassette(rec.exchanges), { openapi })
    expect(steps.map((s) => [s.status, s.differences])).toEqual([
      [[201, 201], []],
      [[200, 200], []],
      [[201, 201], []],
    ])
    // The same cassette with the recorded subject changed: one difference, at its step and pointer.
    const changed = structuredClone(rec.exchanges)
    changed[1]!.response!.body = changed[1]!.response!.body!.replace('"subject":"New"', '"subject":"Renamed"')
    const again = await replayCassette(cassette(changed), { openapi })
    expect(again[1]).toMatchObject({
      name: '#2',
      differences: [{ pointer: '/data/subject', kind: 'value', upstream: 'Renamed', mock: 'New' }],
    })
  })

  it('is offline: a webhook the replay causes never leaves the process, and what the receiver did is not held against the mock', async () => {
    const upstream = createMockApi({ seed: seed(), insecureWebhooks: true })
    const rec = recorder(upstream)
    const auth = { authorization: `Bearer ${LIVE}` }
    await rec.send('PUT', '/api/v1/reseller/webhook', auth, { url: receiverUrl, secret: 'reseller-secret' })
    const tested = await rec.send('POST', '/api/v1/reseller/webhook/test', auth)
    expect(tested.data.delivered).toBe(true)
    expect(received).toBe(1)
    expect(JSON.stringify(rec.exchanges)).not.toContain('reseller-secret')

    const steps = await replayCassette(cassette(rec.exchanges), { openapi: await servedOpenApiDocument() })
    expect(received).toBe(1)
    // Recorded: delivered, 200. Replayed: no answer (offline). The receiver's doing, masked.
    expect(steps.map((s) => s.differences)).toEqual([[], []])
  })

  it('takes a private webhook URL as the recorded upstream did: accepted by a permissive one, refused by a strict one', async () => {
    for (const insecureWebhooks of [true, false]) {
      const upstream = createMockApi({ seed: seed(), insecureWebhooks })
      const rec = recorder(upstream)
      const auth = { authorization: `Bearer ${LIVE}` }
      const created = await rec.send('POST', '/api/v1/webhooks', auth, {
        url: receiverUrl,
        events: ['ticket.created'],
      })
      expect(created.success).toBe(insecureWebhooks)
      await rec.send('GET', '/api/v1/webhooks/wh_1/deliveries', auth)
      const steps = await replayCassette(cassette(rec.exchanges), { openapi: await servedOpenApiDocument() })
      expect(
        steps.map((s) => [s.status, s.differences]),
        `insecureWebhooks: ${insecureWebhooks}`,
      ).toEqual(
        insecureWebhooks
          ? [
              [[201, 201], []],
              [[200, 200], []],
            ]
          : [
              [[422, 422], []],
              [[404, 404], []],
            ],
      )
    }
  })

  it('skips an exchange the upstream never answered, and says so', async () => {
    const unanswered: CassetteExchange = {
      seq: 1,
      at: new Date().toISOString(),
      request: { method: 'GET', path: '/api/v1/services', headers: { authorization: 'live' }, body: null },
      response: null,
      error: 'the upstream could not be reached',
      violations: [],
    }
    const lines: string[] = []
    const steps = await replayCassette(cassette([unanswered]), {
      openapi: await servedOpenApiDocument(),
      warn: (line) => lines.push(line),
    })
    expect(steps).toEqual([])
    expect(lines).toEqual([
      expect.stringMatching(/^#1 GET \/api\/v1\/services: not replayed, .*could not be reached/),
    ])
  })
})
