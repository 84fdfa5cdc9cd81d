/**
 * With a state file, each change of a namespace is one SQLite transaction: its creation (its record
 * and every row of its seed), each committed change of its store, its deletion. Counted at the
 * connection (`BEGIN`), around one request each.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Standalone, startStandalone } from '../../src/server/host/standalone.js'

let dir: string
let server: Standalone
const exec = DatabaseSync.prototype.exec
let begun = 0

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-ns-writes-'))
  server = await startStandalone({ port: 0, statePath: join(dir, 'state.db') })
  DatabaseSync.prototype.exec = function (this: DatabaseSync, sql: string) {
    if (/^\s*BEGIN\b/i.test(sql)) begun++
    return exec.call(this, sql)
  }
})
afterAll(async () => {
  DatabaseSync.prototype.exec = exec
  await server?.close()
  await rm(dir, { recursive: true, force: true })
})

async function transactionsOf(method: string, path: string, body?: unknown, key?: string) {
  const before = begun
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' }
  if (key) headers.authorization = `Bearer ${key}`
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  expect(response.ok, `${method} ${path}: ${await response.text()}`).toBe(true)
  return begun - before
}

describe('a namespace with a state file', () => {
  it('is written in one transaction when made, per change of its store, and when deleted', async () => {
    expect(await transactionsOf('POST', '/__mock/namespaces', { id: 'counted' })).toBe(1)
    // A change that causes no delivery (a delivery is a change of its own, written as the root's are).
    const webhook = { url: 'https://hooks.example.com/reseller', secret: 'counted' }
    expect(
      await transactionsOf('PUT', '/ns/counted/api/v1/reseller/webhook', webhook, 'svc_live_acme_full'),
    ).toBe(1)
    expect(
      await transactionsOf('GET', '/ns/counted/api/v1/reseller/whm/usage', undefined, 'svc_live_acme_full'),
    ).toBe(0)
    expect(await transactionsOf('POST', '/ns/counted/__mock/reset')).toBe(1)
    expect(await transactionsOf('DELETE', '/__mock/namespaces/counted')).toBe(1)
  })
})
