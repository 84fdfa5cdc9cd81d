/**
 * Namespaces of the standalone server (docs/running-the-mock.md, "Namespaces"), against the built
 * CLI: every endpoint and refusal of `/__mock/namespaces`, the routing of `/ns/{id}/…` (paths that
 * could leave a namespace included), the server's rules under a namespace's URL, and the request log.
 * The isolation of each per-mock thing is in namespaces-isolation.test.ts.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlError, createControlClient } from '../../src/control/client.js'
import { assertBuilt, CLI, type CliRun, runCli, spawnProcess, startCli, waitForLine } from '../helpers/cli.js'

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
type Json = any

const KEY = 'svc_live_acme_full'
const JSON_TYPE = { 'content-type': 'application/json' }

type Cli = CliRun & { url: string }
let cli: Cli

interface Answer {
  status: number
  headers: Headers
  body: {
    success: boolean
    data?: Json
    error?: { code: string; message: string; fields?: Record<string, string[]> }
  }
}

async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  key?: string,
): Promise<Answer> {
  const headers: Record<string, string> = body === undefined ? {} : { ...JSON_TYPE }
  if (key) headers.authorization = `Bearer ${key}`
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Answer['body'],
  }
}

/** A request sent with its path exactly as written (`fetch` would resolve `..` first). */
function rawGet(url: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: Json }>((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const req = request({ hostname, port, path, method: 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(chunks).toString() || 'null'),
        }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

const create = (body?: unknown, url = cli.url) => call(url, 'POST', '/__mock/namespaces', body)

beforeAll(async () => {
  assertBuilt()
  cli = await startCli(['--port', '0', '--max-namespaces', '5'])
})

afterAll(async () => {
  cli?.child.kill('SIGTERM')
  await cli?.exited
})

describe('POST /__mock/namespaces', () => {
  it('makes a namespace with the id, label and ttl given: its url from the request host, the seed keys as the CLI prints them', async () => {
    const made = await create({ id: 'worker-1', label: 'pytest worker 1', ttl_seconds: 120 })
    expect(made.status).toBe(201)
    const data = made.body.data
    expect(data).toMatchObject({ id: 'worker-1', url: `${cli.url}/ns/worker-1`, label: 'pytest worker 1' })
    expect(Object.keys(data).sort()).toEqual(['created_at', 'expires_at', 'id', 'keys', 'label', 'url'])
    expect(Date.parse(data.expires_at) - Date.parse(data.created_at)).toBe(120_000)
    expect(data.keys).toContainEqual({
      key: KEY,
      mode: 'live',
      scopes: ['reseller:hosting', 'reseller:webhooks', 'support:read', 'support:write'],
      reseller_id: 1,
      reseller: 'Acme Hosting',
    })
    // Every key the CLI printed at start, with the same columns.
    for (const key of data.keys) expect(cli.stdout.join('\n')).toContain(key.key)
    // The host the request came to: localhost names the namespace at localhost.
    const port = new URL(cli.url).port
    const viaLocalhost = await call(`http://localhost:${port}`, 'GET', '/__mock/namespaces/worker-1')
    expect(viaLocalhost.body.data.url).toBe(`http://localhost:${port}/ns/worker-1`)
    await call(cli.url, 'DELETE', '/__mock/namespaces/worker-1')
  })

  it('makes an id (ns- and 12 letters or digits), label null and a ttl of 3600 s when the body is empty', async () => {
    const response = await fetch(`${cli.url}/__mock/namespaces`, { method: 'POST' })
    expect(response.status).toBe(201)
    const { data } = (await response.json()) as Answer['body']
    expect(data.id).toMatch(/^ns-[a-z0-9]{12}$/)
    expect(data.label).toBeNull()
    expect(Date.parse(data.expires_at) - Date.parse(data.created_at)).toBe(3_600_000)
    const other = await create({})
    expect(other.body.data.id).not.toBe(data.id)
    // `null` is a field left out (clients that write absent values as null, Python's None).
    const nulls = await create({ id: null, seed: null, random_seed: null, ttl_seconds: null, label: null })
    expect(nulls.status).toBe(201)
    expect(nulls.body.data.id).toMatch(/^ns-[a-z0-9]{12}$/)
    expect(Date.parse(nulls.body.data.expires_at) - Date.parse(nulls.body.data.created_at)).toBe(3_600_000)
    await call(cli.url, 'DELETE', '/__mock/namespaces')
  })

  it('answers 409 namespace_exists for an id in use, and keeps the first one as it was', async () => {
    await create({ id: 'taken', label: 'first' })
    const again = await create({ id: 'taken', label: 'second' })
    expect(again.status).toBe(409)
    expect(again.body.error!.code).toBe('namespace_exists')
    expect(again.body.error!.message).toContain('"taken"')
    expect((await call(cli.url, 'GET', '/__mock/namespaces/taken')).body.data.label).toBe('first')
    await call(cli.url, 'DELETE', '/__mock/namespaces/taken')
  })

  it('answers 422 validation_error naming each bad field, a seed problem under seed, and makes nothing', async () => {
    const bad = await create({
      id: 'Not_An_Id',
      ttl_seconds: 59,
      label: 3,
      colour: 'red',
      seed: { resellers: [{ id: 1 }] },
    })
    expect(bad.status).toBe(422)
    expect(bad.body.error!.code).toBe('validation_error')
    expect(Object.keys(bad.body.error!.fields!).sort()).toEqual([
      'colour',
      'id',
      'label',
      'seed.resellers[0].api_keys',
      'ttl_seconds',
    ])
    expect(bad.body.error!.message).toContain('seed.resellers[0].api_keys')
    const long = await create({ ttl_seconds: 2_592_001 })
    expect(long.body.error!.fields).toEqual({ ttl_seconds: ['must be at most 2592000 (30 days)'] })
    expect((await create({ id: 'x'.repeat(64) })).body.error!.fields).toHaveProperty('id')
    expect((await create({ seed: 'demo' })).body.error!.fields).toEqual({ seed: ['must be an object'] })
    // A seed nested past the body's depth limit is refused as a body, never a 500.
    const deep = `{"seed":{"resellers":${'['.repeat(5000)}1${']'.repeat(5000)}}}`
    const response = await fetch(`${cli.url}/__mock/namespaces`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: deep,
    })
    const nested = { status: response.status, body: (await response.json()) as Answer['body'] }
    expect(nested.status).toBe(422)
    expect(Object.keys(nested.body.error!.fields!)).toEqual(['body'])
    const notJson = await fetch(`${cli.url}/__mock/namespaces`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: '{',
    })
    expect(notJson.status).toBe(422)
    expect((await call(cli.url, 'GET', '/__mock/namespaces')).body.data).toEqual([])
  })

  it('answers 413 to a body over the size limit', async () => {
    const response = await fetch(`${cli.url}/__mock/namespaces`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ label: 'x', seed: { pad: 'x'.repeat(1024 * 1024 + 1) } }),
    })
    expect(response.status).toBe(413)
    expect((await call(cli.url, 'GET', '/__mock/namespaces')).body.data).toEqual([])
  })

  it('answers 429 namespace_limit naming --max-namespaces beyond the limit; a deletion makes room', async () => {
    for (let i = 0; i < 5; i++) expect((await create({ id: `n${i}` })).status).toBe(201)
    const sixth = await create({ id: 'n5' })
    expect(sixth.status).toBe(429)
    expect(sixth.body.error!.code).toBe('namespace_limit')
    expect(sixth.body.error!.message).toContain('--max-namespaces 5')
    await call(cli.url, 'DELETE', '/__mock/namespaces/n0')
    expect((await create({ id: 'n5' })).status).toBe(201)
    await call(cli.url, 'DELETE', '/__mock/namespaces')
  })
})

describe('GET and DELETE /__mock/namespaces', () => {
  it('lists oldest first with requests counting API requests only; gets one; deletes one, then all', async () => {
    await create({ id: 'older' })
    await create({ id: 'newer', label: 'b' })
    for (let i = 0; i < 3; i++)
      await call(cli.url, 'GET', '/ns/older/api/v1/reseller/whm/usage', undefined, KEY)
    // A refused API request is answered too; control requests are not counted.
    await call(cli.url, 'GET', '/ns/older/api/v1/reseller/whm/usage')
    await call(cli.url, 'GET', '/ns/older/__mock/state')
    await call(cli.url, 'POST', '/ns/older/__mock/clock/advance', { seconds: 1 })
    const list = await call(cli.url, 'GET', '/__mock/namespaces')
    expect(list.body.data.map((n: { id: string }) => n.id)).toEqual(['older', 'newer'])
    expect(list.body.data[0]).toMatchObject({
      id: 'older',
      url: `${cli.url}/ns/older`,
      label: null,
      requests: 4,
    })
    expect(Object.keys(list.body.data[0]).sort()).toEqual([
      'created_at',
      'expires_at',
      'id',
      'label',
      'requests',
      'url',
    ])
    expect(list.body.data[1]).toMatchObject({ id: 'newer', label: 'b', requests: 0 })
    expect((await call(cli.url, 'GET', '/__mock/namespaces/newer')).body.data).toEqual(list.body.data[1])

    const deleted = await call(cli.url, 'DELETE', '/__mock/namespaces/older')
    expect(deleted).toMatchObject({
      status: 200,
      body: { success: true, data: { id: 'older', deleted: true } },
    })
    const gone = await call(cli.url, 'GET', '/ns/older/api/v1/reseller/whm/usage', undefined, KEY)
    expect(gone.status).toBe(404)
    expect(gone.body.error!.code).toBe('namespace_not_found')
    await create({ id: 'third' })
    const all = await call(cli.url, 'DELETE', '/__mock/namespaces')
    expect(all.body).toEqual({ success: true, data: { deleted: 2 } })
    expect((await call(cli.url, 'GET', '/__mock/namespaces')).body.data).toEqual([])
    // The root is as it was.
    expect((await call(cli.url, 'GET', '/api/v1/reseller/whm/usage', undefined, KEY)).status).toBe(200)
  })

  it('answers 404 namespace_not_found, naming the id and saying it may have expired, to get, delete and Json path under it', async () => {
    for (const [method, path] of [
      ['GET', '/__mock/namespaces/nobody'],
      ['DELETE', '/__mock/namespaces/nobody'],
      ['GET', '/ns/nobody/api/v1/reseller/whm/usage'],
      ['POST', '/ns/nobody/__mock/reset'],
      ['GET', '/ns/nobody/__mock/'],
      ['GET', '/ns/nobody/ns/other/api/v1/reseller/whm/usage'],
    ] as const) {
      const answer = await call(cli.url, method, path)
      expect(answer.status, path).toBe(404)
      expect(answer.body.error!.code, path).toBe('namespace_not_found')
      expect(answer.body.error!.message, path).toContain('"nobody"')
      expect(answer.body.error!.message, path).toMatch(/may have expired/)
    }
  })
})

describe('paths under /ns/', () => {
  beforeAll(async () => {
    await create({ id: 'a' })
    await create({ id: 'b' })
  })
  afterAll(async () => {
    await call(cli.url, 'DELETE', '/__mock/namespaces')
  })

  it('never reach another namespace or the root: nested /ns/, dot segments and encoded slashes are 404', async () => {
    // A fault on the root and on b would show if a request landed there.
    await call(cli.url, 'POST', '/__mock/faults', { respond: { status: 503 } })
    await call(cli.url, 'POST', '/ns/b/__mock/faults', { respond: { status: 503 } })
    for (const path of [
      '/ns/a/ns/b/api/v1/reseller/whm/usage',
      '/ns/a/ns/b/__mock/reset',
      '/ns/a/../b/api/v1/reseller/whm/usage',
      '/ns/a/api/../../../api/v1/reseller/whm/usage',
      '/ns/a/%2e%2e/b/api/v1/reseller/whm/usage',
      '/ns/a/.%2E/.%2e/api/v1/reseller/whm/usage',
      '/ns/a/%2F..%2Fb/api/v1/reseller/whm/usage',
      '/ns/a/api%2fv1/reseller/whm/usage',
      '/ns/a/..%5C..%5Capi/v1/reseller/whm/usage',
      '/ns/a/./api/v1/reseller/whm/usage',
    ]) {
      const answer = await rawGet(cli.url, path, { authorization: `Bearer ${KEY}` })
      expect(answer.status, path).toBe(404)
      expect(answer.body.error.code, path).toBe('not_found')
    }
    for (const path of ['/ns/..%2Fb/api/v1/reseller/whm/usage', '/ns/%2E%2E/api/v1/reseller/whm/usage']) {
      const answer = await rawGet(cli.url, path, { authorization: `Bearer ${KEY}` })
      expect(answer.status, path).toBe(404)
      expect(answer.body.error.code, path).toBe('namespace_not_found')
    }
    // Nothing reached b or the root: their faults were never applied.
    expect((await call(cli.url, 'GET', '/__mock/faults')).body.data[0].applied).toBe(0)
    expect((await call(cli.url, 'GET', '/ns/b/__mock/faults')).body.data[0].applied).toBe(0)
    expect((await call(cli.url, 'GET', '/ns/b/__mock/requests')).body.data).toEqual([])
    await call(cli.url, 'DELETE', '/__mock/faults')
    // A namespace's own paths work, with or without the trailing slash of its home.
    expect((await call(cli.url, 'GET', '/ns/a/api/v1/reseller/whm/usage', undefined, KEY)).status).toBe(200)
    expect((await fetch(`${cli.url}/ns/a`)).status).toBe(200)
    expect((await call(cli.url, 'GET', '/ns/a/__mock/namespaces')).body.error!.code).toBe('not_found')
  })

  it('keep the server rules: a foreign Host gets 403 forbidden_host, a foreign Origin 403 cross_origin', async () => {
    const host = await rawGet(cli.url, '/ns/a/__mock/state', { host: 'evil.example' })
    expect(host.status).toBe(403)
    expect(host.body.error.code).toBe('forbidden_host')
    for (const path of ['/ns/a/__mock/state', '/ns/a/api/v1/reseller/whm/usage']) {
      const origin = await rawGet(cli.url, path, { origin: 'https://evil.example' })
      expect(origin.status, path).toBe(403)
      expect(origin.body.error.code, path).toBe('cross_origin')
      const site = await rawGet(cli.url, path, { 'sec-fetch-site': 'cross-site' })
      expect(site.body.error.code, path).toBe('cross_origin')
    }
  })

  it("carry the namespace's path in a deprecated route's Link and in its OpenAPI document's servers", async () => {
    const legacy = await call(cli.url, 'GET', '/ns/a/api/v1/reseller/usage', undefined, KEY)
    expect(legacy.status).toBe(200)
    expect(legacy.headers.get('link')).toBe('</ns/a/api/v1/reseller/whm/usage>; rel="successor-version"')
    const document = (await (await fetch(`${cli.url}/ns/a/__mock/openapi.json`)).json()) as {
      servers: { url: string }[]
      paths: Record<string, unknown>
    }
    expect(document.servers.map((s) => s.url)).toEqual([`${cli.url}/ns/a`])
    expect(Object.keys(document.paths)).toContain('/__mock/namespaces')
    const root = (await (await fetch(`${cli.url}/__mock/openapi.json`)).json()) as typeof document
    expect(root.servers.map((s) => s.url)).toEqual([cli.url])
    // The inspector's redirect stays under the namespace.
    const redirect = await fetch(`${cli.url}/ns/a/__mock`, { redirect: 'manual' })
    expect(redirect.headers.get('location')).toBe('/ns/a/__mock/')
  })

  it("prefix a namespace's lines of the request log with its id", async () => {
    const line = waitForLine(cli, /^\[a\] GET \/api\/v1\/reseller\/whm\/usage 200 /)
    await call(cli.url, 'GET', '/ns/a/api/v1/reseller/whm/usage', undefined, KEY)
    await line
  })
})

describe('the control client', () => {
  it('creates, lists, gets and deletes namespaces, drives one by its url, and rejects with the code and fields', async () => {
    const root = createControlClient({ baseUrl: cli.url })
    const made = await root.namespaces.create({ id: 'client', label: 'by the client', ttl_seconds: 60 })
    expect(made).toMatchObject({ id: 'client', url: `${cli.url}/ns/client`, label: 'by the client' })
    const namespace = createControlClient({ baseUrl: made.url })
    expect((await namespace.clock.advance({ seconds: 5 })).offset_ms).toBe(5000)
    expect((await root.clock.get()).offset_ms).toBe(0)
    expect((await root.namespaces.list()).map((n) => n.id)).toEqual(['client'])
    expect(await root.namespaces.get('client')).toMatchObject({ id: 'client', requests: 0 })
    expect(await root.namespaces.delete('client')).toEqual({ id: 'client', deleted: true })
    const missing = await root.namespaces.get('client').catch((error: unknown) => error)
    expect(missing).toBeInstanceOf(ControlError)
    expect(missing).toMatchObject({ status: 404, code: 'namespace_not_found' })
    const bad = await root.namespaces.create({ ttl_seconds: 1 }).catch((error: unknown) => error)
    expect(bad).toMatchObject({
      status: 422,
      code: 'validation_error',
      fields: { ttl_seconds: ['must be at least 60'] },
    })
    await root.namespaces.create()
    expect(await root.namespaces.clear()).toEqual({ deleted: 1 })
  })
})

describe('--max-namespaces', () => {
  it('0 turns namespaces off (429 naming the flag); RESELLER_MOCK_MAX_NAMESPACES sets it; --help names it', async () => {
    const off = await startCli(['--port', '0', '--max-namespaces', '0', '--quiet'])
    try {
      const refused = await create({}, off.url)
      expect(refused.status).toBe(429)
      expect(refused.body.error!.code).toBe('namespace_limit')
      expect(refused.body.error!.message).toContain('--max-namespaces')
    } finally {
      off.child.kill('SIGTERM')
      await off.exited
    }
    const run = spawnProcess(process.execPath, [CLI, '--port', '0', '--quiet'], {
      env: { ...process.env, RESELLER_MOCK_MAX_NAMESPACES: '1' },
    })
    const [, url] = await waitForLine(run, /listening on (http:\/\/\S+)/)
    try {
      expect((await create({}, url)).status).toBe(201)
      expect((await create({}, url)).body.error!.message).toContain('--max-namespaces 1')
    } finally {
      run.child.kill('SIGTERM')
      await run.exited
    }
    const help = await runCli(['--help'])
    expect(help.stdout).toMatch(
      /--max-namespaces N\s+namespaces this server holds at once \(default 1000; 0 turns them off\)/,
    )
    expect((await runCli(['--max-namespaces', 'lots'])).stderr).toContain(
      '--max-namespaces must be a whole number',
    )
  })
})
