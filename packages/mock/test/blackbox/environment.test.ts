/**
 * Settings from RESELLER_MOCK_* variables on each target (what Compose files and CI `services:` set),
 * the command line winning over them, the errors for bad values and unknown names, and the image's
 * own defaults (0.0.0.0:4010, /data/state.db, arguments adding to them rather than replacing them).
 */
import { statSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  IMAGE_USER,
  runToEnd,
  type Server,
  selectedTargets,
  startServer,
  stop,
  TARGETS,
  writeDataFile,
} from './targets.js'

const SEED = {
  resellers: [
    {
      id: 7,
      name: 'Env Hosting',
      api_keys: [{ key: 'svc_live_env', scopes: ['support:read', 'support:write'] }],
    },
  ],
}

/** Status of a ticket list asked with `Host: host`. */
async function statusFor(server: Server, host: string, key = 'svc_live_env'): Promise<number> {
  return new Promise((resolve, reject) => {
    // fetch cannot set Host: node:http can.
    const req = request(`${server.url}/api/v1/support/tickets`, {
      headers: { host, authorization: `Bearer ${key}` },
    })
    req.on('response', (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    req.end()
  })
}

describe.each(selectedTargets())('%s', (name) => {
  const target = TARGETS[name]

  test('takes every setting from RESELLER_MOCK_* variables', async () => {
    const dataDir = target.dataDir()
    writeDataFile(dataDir, 'seed.json', JSON.stringify(SEED))
    const server = await startServer(target, [], {
      dataDir,
      env: {
        RESELLER_MOCK_PORT: '0',
        RESELLER_MOCK_SEED: target.pathIn(dataDir, 'seed.json'),
        RESELLER_MOCK_STATE: target.pathIn(dataDir, 'from-env.db'),
        RESELLER_MOCK_ALLOWED_HOST: 'mock, mock.internal:4010',
        RESELLER_MOCK_JOURNAL_LIMIT: '0',
        RESELLER_MOCK_INSECURE_WEBHOOKS: 'true',
        RESELLER_MOCK_QUIET: '1',
      },
    })
    const banner = server.stdout.join('\n')
    expect(banner).toContain(`seed      ${target.pathIn(dataDir, 'seed.json')}`)
    expect(banner).toContain(`state     ${target.pathIn(dataDir, 'from-env.db')} (new)`)
    expect(banner).toContain('journal   off (--journal-limit 0)')
    expect(banner).toContain('webhooks  insecure')
    expect(statSync(join(dataDir, 'from-env.db')).isFile()).toBe(true)

    expect(await statusFor(server, 'mock')).toBe(200)
    expect(await statusFor(server, 'mock.internal:4010')).toBe(200)
    expect(await statusFor(server, 'elsewhere.test')).toBe(403)
    expect((await stop(server)).code).toBe(0)
    // RESELLER_MOCK_QUIET: no request log, only the start and stop lines.
    expect(server.stdout.join('\n')).not.toContain('/api/v1/support/tickets')
  })

  test('the command line wins over a variable, a repeatable flag included', async () => {
    const server = await startServer(target, ['--port', '0', '--allowed-host', 'cli.test'], {
      env: { RESELLER_MOCK_PORT: 'not a port', RESELLER_MOCK_ALLOWED_HOST: 'env.test' },
    })
    expect(await statusFor(server, 'cli.test', 'svc_live_acme_full')).toBe(200)
    expect(await statusFor(server, 'env.test', 'svc_live_acme_full')).toBe(403)
    expect((await stop(server)).code).toBe(0)
  })

  test('a bad value names its variable; an unknown RESELLER_MOCK_* name is refused', async () => {
    const [usage, port, flag, unknown] = await Promise.all([
      runToEnd(target, ['--no-such-flag']),
      runToEnd(target, [], { env: { RESELLER_MOCK_PORT: '70000' } }),
      runToEnd(target, ['--port', '0'], { env: { RESELLER_MOCK_INSECURE_WEBHOOKS: 'maybe' } }),
      runToEnd(target, ['--port', '0'], { env: { RESELLER_MOCK_PROT: '4010' } }),
    ])
    // Each is a usage error: exit 2, as for an unknown flag, and one line that says why.
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/^reseller-mock: unknown option --no-such-flag; run "reseller-mock --help"/)
    expect(port).toMatchObject({ code: usage.code, stdout: '' })
    // One line each: the reason, then where the options are described.
    expect(port.stderr).toMatch(
      /^reseller-mock: RESELLER_MOCK_PORT: must be a whole number from 0 to 65535, got "70000"[^\n]*\n$/,
    )
    expect(flag.code).toBe(usage.code)
    expect(flag.stderr).toMatch(
      /^reseller-mock: RESELLER_MOCK_INSECURE_WEBHOOKS: must be true or false \(or 1\/0, yes\/no, on\/off\), got "maybe"[^\n]*\n$/,
    )
    expect(unknown.code).toBe(usage.code)
    expect(unknown.stderr).toMatch(
      /^reseller-mock: RESELLER_MOCK_PROT is not a setting of reseller-mock \(did you mean RESELLER_MOCK_PORT\?\); the variables are RESELLER_MOCK_PORT, [^\n]*\n$/,
    )
  })

  test.runIf(name === 'image')(
    "the image's defaults are its ENV: 0.0.0.0:4010, /data/state.db; arguments add to them",
    async () => {
      // Its own network namespace: port 4010 of this machine may be taken, the container's is not.
      const dataDir = target.dataDir()
      const plain = await startServer(target, [], { dataDir, ownNetwork: true })
      expect(plain.stdout[0]).toBe('reseller-mock listening on http://0.0.0.0:4010')
      expect(plain.stdout.join('\n')).toContain('state     /data/state.db (new)')
      expect(plain.stderr()).toContain('listening on 0.0.0.0, not a loopback address')
      expect((await stop(plain)).code).toBe(0)
      expect(statSync(join(dataDir, 'state.db')).uid).toBe(IMAGE_USER)

      // `docker run IMAGE --seed /data/seed.json`: the port, host and state stay the image's.
      const seeded = target.dataDir()
      writeDataFile(seeded, 'seed.json', JSON.stringify(SEED))
      const withSeed = await startServer(target, ['--seed', '/data/seed.json'], {
        dataDir: seeded,
        ownNetwork: true,
      })
      const banner = withSeed.stdout.join('\n')
      expect(withSeed.stdout[0]).toBe('reseller-mock listening on http://0.0.0.0:4010')
      expect(banner).toContain('seed      /data/seed.json')
      expect(banner).toContain('state     /data/state.db (new)')
      expect(banner).toContain('svc_live_env')
      expect((await stop(withSeed)).code).toBe(0)
    },
  )
})
