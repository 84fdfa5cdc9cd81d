import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  CassetteError,
  type CassetteHeader,
  parseCassette,
} from '../../src/fidelity/cassette.js'
import {
  authorizationLabel,
  REDACTED,
  redactBodyText,
  redactHeader,
  redactJson,
} from '../../src/fidelity/cassette-redact.js'
import {
  CassetteWriter,
  recordedBody,
  recordedHeaders,
  redactSeed,
  toCassetteExchange,
} from '../../src/fidelity/cassette-writer.js'

const KEY = 'svc_live_recorded_key_123'

const header = (): CassetteHeader => ({
  format: CASSETTE_FORMAT,
  version: CASSETTE_VERSION,
  upstream: 'https://api.example.test',
  recorded_at: '2026-01-01T00:00:00.000Z',
  mode: 'live',
})
/** The seed line and the header line. */
const top = `${JSON.stringify({ resellers: [] })}\n${JSON.stringify(header())}\n`

const exchangeLine = (seq: number) =>
  JSON.stringify({
    seq,
    at: '2026-01-01T00:00:01.000Z',
    request: { method: 'GET', path: '/api/v1/services', headers: { authorization: 'live' }, body: null },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"success":true}' },
  })

describe('redaction', () => {
  it('hides secret members at any depth and key-shaped strings, and leaves the rest as it was', () => {
    const value = {
      data: { id: 'wh_1', secret: 'whsec_abc', nested: [{ secret: 42 }, { note: `uses ${KEY} here` }] },
      secretive: 'not a secret field',
    }
    expect(redactJson(value)).toEqual({
      data: { id: 'wh_1', secret: REDACTED, nested: [{ secret: REDACTED }, { note: REDACTED }] },
      secretive: 'not a secret field',
    })
    const untouched = { data: { id: 1 } }
    expect(redactJson(untouched)).toBe(untouched)
  })

  it('keeps a member named __proto__ a member', () => {
    const value = JSON.parse('{"__proto__":{"secret":"x"},"a":1}')
    const out = redactJson(value) as Record<string, unknown>
    expect(Object.keys(out)).toEqual(['__proto__', 'a'])
    expect(JSON.stringify(out)).toBe('{"__proto__":{"secret":"[redacted]"},"a":1}')
  })

  it('keeps the bytes of a body with nothing to hide, re-serializes one with a secret', () => {
    const pretty = '{\n  "success": true,\n  "data": { "url": "https://x.example" }\n}'
    expect(redactBodyText(pretty)).toBe(pretty)
    expect(redactBodyText('{"data":{"secret":"s3cr3t","url":"u"}}')).toBe(
      '{"data":{"secret":"[redacted]","url":"u"}}',
    )
    expect(redactBodyText(`plain text with ${KEY}`)).toBe(`plain text with ${REDACTED}`)
  })

  it('labels Authorization by the mode of its key, never keeping the key', () => {
    expect(authorizationLabel(`Bearer ${KEY}`, KEY)).toBe('live')
    expect(authorizationLabel('Bearer svc_test_sandbox_1', 'svc_test_sandbox_1')).toBe('sandbox')
    expect(authorizationLabel('Bearer svc_live_other', KEY)).toBe('live (another key)')
    expect(authorizationLabel('Basic dXNlcjpwYXNz', KEY)).toBe(REDACTED)
    expect(authorizationLabel('Bearer not-a-key', KEY)).toBe(REDACTED)
    expect(redactHeader('cookie', 'session=abc', KEY)).toBe(REDACTED)
    expect(redactHeader('user-agent', 'app/1.0', KEY)).toBe('app/1.0')
  })
})

describe('cassette lines', () => {
  it('records headers in lower case without per-connection ones, repeated ones joined', () => {
    const raw = ['Host', 'x', 'Authorization', `Bearer ${KEY}`, 'X-A', '1', 'x-a', '2', 'Content-Length', '5']
    expect(recordedHeaders(raw, KEY)).toEqual({ authorization: 'live', 'x-a': '1, 2' })
  })

  it('keeps a body as text, or as base64 when it is not UTF-8', () => {
    expect(recordedBody(Buffer.alloc(0))).toEqual({ body: null })
    expect(recordedBody(Buffer.from('héllo'))).toEqual({ body: 'héllo' })
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0x80])
    expect(recordedBody(binary)).toEqual({ body: binary.toString('base64'), body_encoding: 'base64' })
  })

  it('builds an exchange line with both sides redacted', () => {
    const line = toCassetteExchange(
      3,
      {
        at: new Date('2026-01-01T00:00:00Z'),
        method: 'PUT',
        path: '/api/v1/reseller/webhook',
        rawHeaders: ['Authorization', `Bearer ${KEY}`, 'Content-Type', 'application/json'],
        body: Buffer.from('{"url":"https://h.example","secret":"my-signing-secret"}'),
        answer: {
          status: 200,
          statusMessage: 'OK',
          rawHeaders: ['Content-Type', 'application/json'],
          body: Buffer.from('{"success":true,"data":{"url":"https://h.example","has_secret":true}}'),
        },
      },
      KEY,
      ['a violation'],
    )
    expect(line).toMatchObject({
      seq: 3,
      request: {
        headers: { authorization: 'live' },
        body: '{"url":"https://h.example","secret":"[redacted]"}',
      },
      response: { status: 200 },
      violations: ['a violation'],
    })
    expect(JSON.stringify(line)).not.toContain('my-signing-secret')
  })

  it("hides the seed's secrets and keeps its own keys, which a replay sends", () => {
    const seed = redactSeed({
      resellers: [
        {
          id: 1,
          api_keys: [
            { key: 'svc_live_new1', scopes: ['support:read'] },
            { key: 'svc_test_new2', scopes: [] },
          ],
          webhook: { url: 'https://h.example', secret: 'generated' },
        },
      ],
    })
    expect(seed).toEqual({
      resellers: [
        {
          id: 1,
          api_keys: [
            { key: 'svc_live_new1', scopes: ['support:read'] },
            { key: 'svc_test_new2', scopes: [] },
          ],
          webhook: { url: 'https://h.example', secret: REDACTED },
        },
      ],
    })
  })
})

describe('cassette file', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reseller-mock-cassette-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('writes whole lines that read back, and never the secrets it was given', async () => {
    const path = join(dir, 'c.jsonl')
    const writer = new CassetteWriter(path, { resellers: [], note: `oops ${KEY}` }, header(), [KEY])
    writer.append(JSON.parse(exchangeLine(1)))
    writer.close()
    writer.append(JSON.parse(exchangeLine(2)))
    const text = await readFile(path, 'utf8')
    expect(text.endsWith('\n')).toBe(true)
    expect(text).not.toContain(KEY)
    const cassette = parseCassette(text)
    expect(cassette.seed).toEqual({ resellers: [], note: REDACTED })
    expect(cassette.exchanges.map((e) => e.seq)).toEqual([1])
    expect(cassette.exchanges[0]!.violations).toEqual([])
  })
})

describe('parseCassette', () => {
  const good = `${top}${exchangeLine(1)}\n`

  it('reads the seed, the header and each exchange', () => {
    const cassette = parseCassette(good)
    expect(cassette.seed).toEqual({ resellers: [] })
    expect(cassette.header.mode).toBe('live')
    expect(cassette.exchanges).toHaveLength(1)
  })

  it('drops a last line cut short, and only that one', () => {
    expect(parseCassette(`${good}{"seq":2,"at`).exchanges).toHaveLength(1)
    expect(() => parseCassette(`${top}{"seq":\n${exchangeLine(2)}\n`, 'c.jsonl')).toThrow(
      /c\.jsonl line 3 is not JSON/,
    )
  })

  it('names the line and field of a bad exchange', () => {
    const bad = exchangeLine(1).replace('"status":200', '"status":"200"')
    expect(() => parseCassette(`${top}${bad}\n`, 'c.jsonl')).toThrow(/c\.jsonl line 3: response\.status: /)
  })

  it('refuses an empty file, a first line that is not a seed and a second that is not the header', () => {
    expect(() => parseCassette('', 'c.jsonl')).toThrow(CassetteError)
    expect(() => parseCassette('', 'c.jsonl')).toThrow(/c\.jsonl is empty/)
    expect(() => parseCassette(`${exchangeLine(1)}\n`, 'c.jsonl')).toThrow(/c\.jsonl line 1 is not a seed/)
    const seedLine = JSON.stringify({ resellers: [] })
    expect(() => parseCassette(`${seedLine}\n${exchangeLine(1)}\n`, 'c.jsonl')).toThrow(
      /c\.jsonl line 2 is not the header/,
    )
    const future = { ...header(), version: 2 }
    expect(() => parseCassette(`${seedLine}\n${JSON.stringify(future)}\n`)).toThrow(/version: /)
  })
})
