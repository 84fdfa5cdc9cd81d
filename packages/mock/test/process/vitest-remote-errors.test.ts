/**
 * The vitest fixture's remote mode when `RESELLER_MOCK_URL` leads nowhere useful: the test fails
 * with one line that names the variable and its value and says why (no server there, namespaces
 * turned off), not a bare "fetch failed". A real vitest run of a one-test file (the built
 * `dist/vitest.js`), as a user's suite meets it.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, startCli } from '../helpers/cli.js'

const VITEST = fileURLToPath(new URL('../../../../node_modules/vitest/vitest.mjs', import.meta.url))
const FIXTURE = fileURLToPath(new URL('../../dist/vitest.js', import.meta.url))

let dir: string

beforeAll(async () => {
  assertBuilt()
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-vitest-remote-'))
  await writeFile(join(dir, 'vitest.config.mjs'), "export default { test: { include: ['*.check.mjs'] } }\n")
  await writeFile(
    join(dir, 'usage.check.mjs'),
    `import { test, expect } from ${JSON.stringify(FIXTURE)}\n` +
      "test('reads the usage', async ({ api }) => { expect(await api.whm.usage()).toBeDefined() })\n",
  )
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Runs the one-test suite with `RESELLER_MOCK_URL=url`; its exit code and everything it printed. */
function runSuite(url: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [VITEST, 'run', '--config', join(dir, 'vitest.config.mjs'), '--root', dir],
    {
      env: { ...process.env, RESELLER_MOCK_URL: url, NO_COLOR: '1', CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })))
}

/** A URL whose port nobody listens on (a server was bound there, then closed). */
async function closedUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}`
}

describe('RESELLER_MOCK_URL that leads nowhere useful', { timeout: 60_000 }, () => {
  it('no server there: the test fails naming the variable, its value, and that nothing answered', async () => {
    const url = await closedUrl()
    const { code, output } = await runSuite(url)
    expect(code).toBe(1)
    expect(output).toContain(`RESELLER_MOCK_URL=${url}: cannot make this test's namespace`)
  })

  it('a server with namespaces turned off: the test fails naming the variable and the flag', async () => {
    const server = await startCli(['--port', '0', '--quiet', '--max-namespaces', '0'])
    try {
      const { code, output } = await runSuite(server.url)
      expect(code).toBe(1)
      expect(output).toContain(`RESELLER_MOCK_URL=${server.url}: cannot make this test's namespace`)
      expect(output).toContain('--max-namespaces')
    } finally {
      server.child.kill('SIGTERM')
      await server.exited
    }
  })
})
