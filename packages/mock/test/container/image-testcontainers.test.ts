// The image under a real container engine, started by Testcontainers (scripts/container-check.sh
// runs it through podman's Docker-compatible socket): the wait on the ready line, a namespace per
// test through the vitest fixture's remote mode, the state file in /data written by user 10001 and
// kept across a restart, and a stop that exits 0. Host networking bound to 127.0.0.1, as the
// machines of this project's CI need (docs/parallel-tests.md, "Testcontainers").
import { createServer } from 'node:net'
import { ResellerApi } from '@reseller-api/sdk'
import { GenericContainer, getContainerRuntimeClient, type StartedTestContainer, Wait } from 'testcontainers'
import { afterAll, beforeAll, describe, expect as vitestExpect, test as vitestTest } from 'vitest'
import { connectMock } from '../../src/node.js'
import { createMockTest, expect } from '../../src/vitest.js'

const IMAGE = process.env.MOCK_IMAGE ?? 'docker.io/library/reseller-mock:latest'

let container: StartedTestContainer | undefined
let url = ''

/** A port nothing listens on now (host networking: the container binds it itself). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.once('error', reject)
  })
}

/** Resolves once the container's log holds `count` ready lines; rejects after `timeoutMs`. */
async function readyLines(started: StartedTestContainer, count: number, timeoutMs = 60_000): Promise<void> {
  const logs = await started.logs()
  await new Promise<void>((resolve, reject) => {
    let seen = 0
    const timer = setTimeout(() => {
      logs.destroy()
      reject(new Error(`fewer than ${count} ready lines in ${timeoutMs} ms`))
    }, timeoutMs)
    const done = (error?: Error) => {
      clearTimeout(timer)
      logs.destroy()
      error ? reject(error) : resolve()
    }
    logs.on('data', (chunk: Buffer | string) => {
      seen += String(chunk).match(/listening on http:\/\//g)?.length ?? 0
      if (seen >= count) done()
    })
    logs.once('end', () => done(new Error(`the log ended after ${seen} ready lines`)))
  })
}

/** Owner uid of each file of a tar stream (ustar headers: name at 0, uid at 108, size at 124). */
async function ownersInTar(stream: NodeJS.ReadableStream): Promise<Map<string, number>> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
  const tar = Buffer.concat(chunks)
  const owners = new Map<string, number>()
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512)
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '')
    if (name === '') break
    const octal = (start: number, length: number) =>
      Number.parseInt(
        header
          .subarray(start, start + length)
          .toString('utf8')
          .replace(/\0.*$/s, '')
          .trim() || '0',
        8,
      )
    owners.set(name, octal(108, 8))
    offset += 512 + Math.ceil(octal(124, 12) / 512) * 512
  }
  return owners
}

beforeAll(async () => {
  const port = await freePort()
  container = await new GenericContainer(IMAGE)
    .withNetworkMode('host')
    .withEnvironment({ RESELLER_MOCK_HOST: '127.0.0.1', RESELLER_MOCK_PORT: String(port) })
    .withWaitStrategy(Wait.forLogMessage(/listening on http:\/\//))
    .withStartupTimeout(90_000)
    .start()
  url = `http://127.0.0.1:${port}`
  // The vitest fixture's remote mode: each test below gets a namespace of this container.
  process.env.RESELLER_MOCK_URL = url
})

afterAll(async () => {
  delete process.env.RESELLER_MOCK_URL
  await container?.stop({ timeout: 20_000 }).catch(() => {})
})

/** The fixture's `{ mock, api }`, without the SDK's retries: a fault's answer reaches the test. */
const test = createMockTest({ client: { maxRetries: 0 } })

describe.concurrent('a namespace per test, tests concurrent', () => {
  test('provisions to the quota of its own namespace', async ({ api }) => {
    const { accounts_used, accounts_limit } = await api.whm.usage()
    for (let n = accounts_used; n < accounts_limit; n++) {
      await api.hosting.create(501, { domain: `quota-${n}.example`, whm_package: 'starter' })
    }
    await expect(
      api.hosting.create(501, { domain: 'one-too-many.example', whm_package: 'starter' }),
    ).rejects.toMatchObject({ status: 422, code: 'quota_exceeded' })
  })

  test('a fault added to its namespace applies there alone', async ({ api, mock }) => {
    await mock.faults.add({ match: { route: '/api/v1/reseller/whm/usage' }, respond: { status: 503 } })
    await expect(api.whm.usage()).rejects.toMatchObject({ status: 503, code: 'service_unavailable' })
    const other = await connectMock(url).namespaces.create({ label: 'neighbour' })
    try {
      const neighbour = new ResellerApi({ apiKey: other.keys[0]!.key, baseUrl: other.url })
      expect((await neighbour.whm.usage()).accounts_limit).toBeGreaterThan(0)
    } finally {
      await other.delete()
    }
  })

  test('its clock moves alone', async ({ mock }) => {
    const before = (await mock.clock.get()).offset_ms
    expect((await mock.clock.advance(3_600_000)).offset_ms - before).toBe(3_600_000)
    expect((await connectMock(url).clock.get()).offset_ms).toBe(0)
  })
})

describe('the image', () => {
  vitestTest('keeps its state in /data/state.db, written by user 10001, across a restart', async () => {
    const started = container!
    const root = connectMock(url)
    const api = new ResellerApi({ apiKey: 'svc_live_acme_full', baseUrl: url })
    await api.hosting.create(501, { domain: 'kept.example', whm_package: 'starter' })

    const owners = await ownersInTar(await started.copyArchiveFromContainer('/data'))
    vitestExpect(owners.get('data/state.db')).toBe(10001)

    await started.restart({ timeout: 20_000 })
    await readyLines(started, 2)
    const domains = (await root.state()).tables.accounts.map((row) => row.domain)
    vitestExpect(domains).toContain('kept.example')
  })

  vitestTest('stops on SIGTERM with exit code 0', async () => {
    const id = container!.getId()
    await container!.stop({ timeout: 20_000, remove: false })
    container = undefined
    const client = await getContainerRuntimeClient()
    const stopped = client.container.getById(id)
    const info = await client.container.inspect(stopped)
    vitestExpect(info.State.ExitCode).toBe(0)
    await client.container.remove(stopped, { removeVolumes: true })
  })
})
