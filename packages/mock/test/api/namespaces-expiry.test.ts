/**
 * Expiry of namespaces: deleted after `ttl_seconds` of real time without a request under their URL,
 * renewed by every request. The shortest ttl is a minute, so the server is started in process with
 * the registry's clock given (`startStandalone({ namespaceClock })`, the one test hook): moving it
 * stands for the minutes passing. Everything else is as the CLI serves it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Standalone, startStandalone } from '../../src/server/host/standalone.js'

let now = Date.UTC(2026, 0, 15, 9, 30)
let server: Standalone

beforeEach(async () => {
  now = Date.UTC(2026, 0, 15, 9, 30)
  server = await startStandalone({ port: 0, namespaceClock: () => now })
})
afterEach(() => server.close())

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as { data?: any; error?: any } }
}

describe('a namespace', () => {
  it('expires ttl_seconds after its last request; every request under its URL, API or control, renews it', async () => {
    const made = await call('POST', '/__mock/namespaces', { id: 'short', ttl_seconds: 60 })
    expect(made.body.data.expires_at).toBe('2026-01-15T09:31:00.000Z')
    now += 59_000
    // A control request renews it as an API request does.
    expect((await call('GET', '/ns/short/__mock/clock')).status).toBe(200)
    expect((await call('GET', '/__mock/namespaces/short')).body.data.expires_at).toBe(
      '2026-01-15T09:31:59.000Z',
    )
    now += 59_000
    expect((await call('GET', '/ns/short/api/v1/reseller/whm/usage')).status).toBe(401)
    // The root's endpoints about it renew nothing.
    now += 59_000
    expect((await call('GET', '/__mock/namespaces/short')).status).toBe(200)
    now += 1_000
    const gone = await call('GET', '/ns/short/__mock/state')
    expect(gone.status).toBe(404)
    expect(gone.body.error.code).toBe('namespace_not_found')
    expect(gone.body.error.message).toMatch(/"short".*may have expired/)
    expect((await call('GET', '/__mock/namespaces')).body.data).toEqual([])
    expect((await call('GET', '/__mock/namespaces/short')).body.error.code).toBe('namespace_not_found')
    // Its id is free again.
    expect((await call('POST', '/__mock/namespaces', { id: 'short' })).status).toBe(201)
  })

  it('leaves the list at its expiry, others staying, and frees its place under --max-namespaces', async () => {
    await server.close()
    server = await startStandalone({ port: 0, namespaceClock: () => now, maxNamespaces: 2 })
    await call('POST', '/__mock/namespaces', { id: 'brief', ttl_seconds: 60 })
    await call('POST', '/__mock/namespaces', { id: 'long', ttl_seconds: 3600 })
    expect((await call('POST', '/__mock/namespaces', {})).status).toBe(429)
    now += 60_000
    expect((await call('GET', '/__mock/namespaces')).body.data.map((n: { id: string }) => n.id)).toEqual([
      'long',
    ])
    expect((await call('POST', '/__mock/namespaces', { id: 'third' })).status).toBe(201)
  })
})
