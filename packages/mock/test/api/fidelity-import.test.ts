// import: a seed from another mock's account, loaded as it is, answering every read as the upstream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ImportError, importAccount } from '../../src/fidelity/import.js'
import { createMockApi, parseSeed, type SeedInput } from '../../src/node.js'
import {
  startUpstream,
  UPSTREAM_KEYS,
  UPSTREAM_SECRETS,
  type Upstream,
  upstreamSeed,
} from '../helpers/fidelity.js'
import { KEYS, testSeed } from '../helpers/mock.js'

let upstream: Upstream
beforeAll(async () => {
  upstream = await startUpstream()
})
afterAll(() => upstream.close())

const importUpstream = (extra: Partial<Parameters<typeof importAccount>[0]> = {}) =>
  importAccount({
    baseUrl: upstream.proxy.url,
    keys: [UPSTREAM_KEYS.full, UPSTREAM_KEYS.read],
    webhooks: ['wh_42'],
    ...extra,
  })

/** Every GET path of the account: every page of every list, every record's detail. */
async function readAll(
  get: (path: string) => Promise<{ status: number; body: unknown }>,
): Promise<Map<string, unknown>> {
  const answers = new Map<string, unknown>()
  const read = async (path: string) => {
    const answer = await get(path)
    answers.set(path, answer)
    return answer.body as { data: Record<string, unknown>[] }
  }
  for (const list of [
    '/support/tickets',
    '/reseller/whm/accounts',
    '/reseller/whm/packages',
    '/services',
    '/invoices',
    '/webhooks/wh_42/deliveries',
  ]) {
    for (let page = 1; ; page++) {
      const body = await read(`${list}?page=${page}`)
      if (list === '/support/tickets') for (const t of body.data) await read(`/support/tickets/${t.uuid}`)
      if (list === '/reseller/whm/accounts')
        for (const a of body.data) await read(`/reseller/whm/accounts/${a.username}`)
      if (body.data.length === 0) break
    }
  }
  await read('/reseller/whm/usage')
  await read('/reseller/webhook')
  return answers
}

describe('import', { timeout: 60_000 }, () => {
  it('round trip: a mock from the import answers every read exactly as the upstream', async () => {
    const { seed, keys } = await importUpstream()
    const copy = createMockApi({ seed })
    const fromUpstream = await readAll(async (path) => {
      const response = await fetch(`${upstream.server.url}/api/v1${path}`, {
        headers: { authorization: `Bearer ${UPSTREAM_KEYS.full}` },
      })
      return { status: response.status, body: await response.json() }
    })
    const fromCopy = await readAll(async (path) => {
      const response = await copy.fetch(
        new Request(`${copy.baseUrl}/api/v1${path}`, {
          headers: { authorization: `Bearer ${keys[0]!.key}` },
        }),
      )
      return { status: response.status, body: await response.json() }
    })
    expect(fromUpstream.size).toBeGreaterThan(30)
    expect([...fromCopy.keys()]).toEqual([...fromUpstream.keys()])
    for (const [path, answer] of fromUpstream)
      expect({ path, answer: fromCopy.get(path) }).toEqual({ path, answer })
  })

  it('never writes a given key or an upstream secret; new keys keep the modes and the observed scopes', async () => {
    const { seed, keys } = await importAccount({
      baseUrl: upstream.proxy.url,
      keys: [UPSTREAM_KEYS.full, UPSTREAM_KEYS.read, UPSTREAM_KEYS.sandbox],
      webhooks: ['wh_42'],
    })
    const text = JSON.stringify(seed)
    for (const secret of [...Object.values(UPSTREAM_KEYS), ...UPSTREAM_SECRETS])
      expect(text).not.toContain(secret)
    expect(keys.map((k) => [k.mode, k.scopes, k.reseller_id, k.given])).toEqual([
      ['live', ['reseller:hosting', 'reseller:webhooks', 'support:read', 'support:write'], 7, 0],
      ['live', ['support:read', 'support:write'], 7, 1],
      ['sandbox', ['reseller:hosting', 'reseller:webhooks', 'support:read', 'support:write'], 7, 2],
    ])
    expect(keys[0]!.key).toMatch(/^svc_live_[0-9a-f]{24}$/)
    expect(keys[2]!.key).toMatch(/^svc_test_[0-9a-f]{24}$/)
    expect(seed.resellers[0]!.api_keys.map((k) => k.key)).toEqual(keys.map((k) => k.key))
    expect(seed.resellers[0]!.webhook?.secret).toMatch(/^whsec_[0-9a-f]{32}$/)
    expect(() => parseSeed(seed)).not.toThrow()
  })

  it('sends GET requests only', async () => {
    upstream.proxy.methods.clear()
    await importUpstream()
    expect([...upstream.proxy.methods.keys()]).toEqual(['GET'])
  })

  it('records WHM offline (503) and no reseller service (422) as such, and a missing scope as a missing scope', async () => {
    const other = createMockApi({ seed: testSeed() })
    const fetchOther = (input: RequestInfo | URL, init?: RequestInit) => other.fetch(new Request(input, init))
    const offline = await importAccount({ baseUrl: other.baseUrl, keys: [KEYS.b], fetch: fetchOther })
    expect(offline.seed.resellers[0]!.whm?.status).toBe('offline')
    const none = await importAccount({ baseUrl: other.baseUrl, keys: [KEYS.c], fetch: fetchOther })
    expect(none.seed.resellers[0]!.whm).toBeUndefined()
    const lacking = await importAccount({ baseUrl: other.baseUrl, keys: [KEYS.aRead], fetch: fetchOther })
    expect(lacking.keys[0]!.scopes).toEqual(['support:read', 'support:write'])
    expect(lacking.seed.resellers[0]!.tickets).toHaveLength(3)
  })

  it('--redact: personal text becomes stable placeholders of the same shape, and the seed still loads', async () => {
    const plain = await importUpstream()
    const first = await importUpstream({ redact: true })
    const second = await importUpstream({ redact: true })
    const r = (result: { seed: SeedInput }) => result.seed.resellers[0]!
    expect(r(first).tickets).toEqual(r(second).tickets)
    expect(r(first).accounts).toEqual(r(second).accounts)
    const text = JSON.stringify(first.seed)
    for (const personal of ['Jane', 'alpha-shop', 'jane.doe', 'bravo.example', 'Question 1'])
      expect(text).not.toContain(personal)
    const ticket = r(first).tickets![0]!
    expect(ticket.subject).toHaveLength(r(plain).tickets![0]!.subject.length)
    expect(r(first).accounts![0]!.domain).toMatch(/^[a-z0-9-]+\.example$/)
    expect(() => parseSeed(first.seed)).not.toThrow()
  })

  it('fails with ImportError when the service cannot be reached or refuses every key', async () => {
    await expect(
      importAccount({ baseUrl: 'http://127.0.0.1:9', keys: [UPSTREAM_KEYS.full] }),
    ).rejects.toThrow(ImportError)
    await expect(
      importAccount({ baseUrl: upstream.proxy.url, keys: ['svc_live_nobody_knows_me'] }),
    ).rejects.toThrow(/refused every key/)
    await expect(importAccount({ baseUrl: upstream.proxy.url, keys: ['not-a-key'] })).rejects.toThrow(/--key/)
  })

  it('still loads seeds without the optional fields', () => {
    const seed = upstreamSeed(2)
    expect(() => createMockApi({ seed })).not.toThrow()
  })
})
