// connectMock against a real standalone server (the built CLI): namespaces.create/list/get/
// delete/clear on its root, a namespace's client with MockApi's methods, and the one error class.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectMock, createMockApi, MockControlError } from '../../src/node.js'
import { assertBuilt, type CliRun, startCli } from '../helpers/cli.js'
import { controlScenario } from '../helpers/control-scenario.js'
import { KEYS, testSeed } from '../helpers/mock.js'

let server: CliRun & { url: string }

beforeAll(async () => {
  assertBuilt()
  server = await startCli(['--port', '0', '--quiet'])
})

afterAll(async () => {
  server.child.kill('SIGTERM')
  expect((await server.exited).code).toBe(0)
})

describe('connectMock(root).namespaces', () => {
  it('create resolves a client of the namespace: id, url, keys, label, expiresAt, delete()', async () => {
    const root = connectMock(server.url)
    const before = Date.now()
    const namespace = await root.namespaces.create({
      id: 'client-made',
      label: 'made by connectMock',
      ttlSeconds: 120,
    })
    expect(namespace).toMatchObject({
      id: 'client-made',
      url: `${server.url}/ns/client-made`,
      baseUrl: `${server.url}/ns/client-made`,
      label: 'made by connectMock',
    })
    expect(namespace.keys[0]).toEqual({
      key: 'svc_live_acme_full',
      mode: 'live',
      scopes: ['reseller:hosting', 'reseller:webhooks', 'support:read', 'support:write'],
      reseller_id: 1,
      reseller: 'Acme Hosting',
    })
    const expires = Date.parse(namespace.expiresAt)
    expect(expires).toBeGreaterThanOrEqual(before + 119_000)
    expect(expires).toBeLessThanOrEqual(Date.now() + 121_000)

    expect((await root.namespaces.list()).map((listed) => listed.id)).toContain('client-made')
    expect(await root.namespaces.get('client-made')).toMatchObject({ id: 'client-made', requests: 0 })
    expect(await namespace.delete()).toBe(true)
    expect(await namespace.delete()).toBe(false)
    await expect(root.namespaces.get('client-made')).rejects.toMatchObject({
      name: 'MockControlError',
      status: 404,
      code: 'namespace_not_found',
    })
  })

  it('a namespace runs the same awaited test body as an in-process mock of its seed, with the same results', async () => {
    const namespace = await connectMock(server.url).namespaces.create({
      seed: testSeed(),
      randomSeed: 'parity',
    })
    const inProcess = createMockApi({ seed: testSeed(), randomSeed: 'parity' })
    try {
      const remote = await controlScenario(namespace, KEYS.a)
      expect(remote).toEqual(await controlScenario(inProcess, KEYS.a))
      expect(remote).toMatchObject({
        removed: true,
        removedAgain: false,
        advanced: 90_000,
        ticketGoneAfterReset: true,
      })
    } finally {
      inProcess.clock.stop()
      await namespace.delete()
    }
  })

  it('refusals reject with MockControlError: 409 namespace_exists, 422 naming the field', async () => {
    const root = connectMock(server.url)
    const first = await root.namespaces.create({ id: 'taken' })
    try {
      const taken = await root.namespaces.create({ id: 'taken' }).catch((error: unknown) => error)
      expect(taken).toBeInstanceOf(MockControlError)
      expect(taken).toMatchObject({ status: 409, code: 'namespace_exists' })
      const invalid = (await root.namespaces
        .create({ ttlSeconds: 5 })
        .catch((error: unknown) => error)) as MockControlError
      expect(invalid).toMatchObject({ status: 422, code: 'validation_error' })
      expect(invalid.message).toMatch(/ttl_seconds/)
      expect(invalid.message).not.toContain('\n')
    } finally {
      await first.delete()
    }
  })

  it('clear deletes every namespace and resolves how many went', async () => {
    const root = connectMock(server.url)
    await root.namespaces.create()
    await root.namespaces.create()
    expect(await root.namespaces.clear()).toEqual({ deleted: 2 })
    expect(await root.namespaces.list()).toEqual([])
  })

  it('a namespace deleted under its client answers namespace_not_found to its next call', async () => {
    const root = connectMock(server.url)
    const namespace = await root.namespaces.create({ id: 'gone-soon' })
    await root.namespaces.delete('gone-soon')
    await expect(namespace.state()).rejects.toMatchObject({ status: 404, code: 'namespace_not_found' })
  })

  it('signal aborts every request of the client', async () => {
    const controller = new AbortController()
    const root = connectMock(server.url, { signal: controller.signal })
    controller.abort(new Error('stopped by the test'))
    await expect(root.namespaces.list()).rejects.toThrow('stopped by the test')
  })
})
