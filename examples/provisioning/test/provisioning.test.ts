/**
 * Runs the example exactly as a user would: `node src/main.ts`, once with the mock in-process and
 * once against the `reseller-mock` CLI in another process, and checks its exit code and output.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, expect, test } from 'vitest'

const run = promisify(execFile)
const exampleDir = fileURLToPath(new URL('..', import.meta.url))
const main = join(exampleDir, 'src/main.ts')

/** The CLI as installed in this package's node_modules: `reseller-mock` → the mock's dist/cli.js. */
const require = createRequire(import.meta.url)
const cli = join(dirname(require.resolve('@reseller-api/mock/package.json')), 'dist/cli.js')

function expectEveryStep(stdout: string) {
  expect(stdout).toMatch(/^1\. WHM packages: .*starter/m)
  expect(stdout).toMatch(/^2\. WHM usage: 2\/5 accounts$/m)
  expect(stdout).toMatch(
    /^3\. Provisioned client-[a-z0-9]+\.example for client 503: .*domain registered for 12\.5$/m,
  )
  expect(stdout).toMatch(/^4\. WHM usage: 3\/5 accounts; \w+ is active$/m)
  expect(stdout).toMatch(/^5\. Opened ticket [0-9a-f-]{36}: .*\(open\)$/m)
  expect(stdout).toMatch(/^6\. Support replied: .*\(in_progress\)$/m)
  expect(stdout).toMatch(/^8\. Support marked it resolved$/m)
  expect(stdout).toMatch(/^9\. Closed the ticket \(closed\)$/m)
  expect(stdout).toMatch(/^10\. Replying to it now fails: InvalidStateError \(422 invalid_state\)$/m)
  expect(stdout).toMatch(/^ {4}\[staff\] The zone is in place/m)
  expect(stdout).toMatch(/^Done\.$/m)
}

test('walks through provisioning and a ticket against a mock in the same process', async () => {
  const { stdout, stderr } = await run(process.execPath, [main], { cwd: exampleDir, timeout: 30_000 })
  expect(stderr).toBe('')
  expect(stdout).toMatch(/^Started the mock on http:\/\/127\.0\.0\.1:\d+ \(demo seed\)$/m)
  expectEveryStep(stdout)
})

let mockProcess: ChildProcess | undefined
afterEach(() => {
  mockProcess?.kill('SIGTERM')
  mockProcess = undefined
})

/** Starts `reseller-mock --port 0` and resolves the URL it prints. */
function startCli(): Promise<string> {
  const child = spawn(process.execPath, [cli, '--port', '0', '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  mockProcess = child
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const url = /http:\/\/[\d.]+:\d+/.exec(out)?.[0]
      if (url) resolve(url)
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
    })
    child.on('exit', (code) =>
      reject(new Error(`reseller-mock exited with ${code} before it was ready:\n${out}`)),
    )
  })
}

test('walks through the same steps against the reseller-mock CLI', async () => {
  const url = await startCli()
  const { stdout } = await run(process.execPath, [main], {
    cwd: exampleDir,
    timeout: 30_000,
    env: { ...process.env, RESELLER_API_URL: url },
  })
  expect(stdout).not.toMatch(/Started the mock/)
  expectEveryStep(stdout)
})

test('exits 1 and says why when a step fails', async () => {
  const url = await startCli()
  // Client 601 belongs to another reseller: provisioning answers 404 not_found.
  const failure = await run(process.execPath, [main], {
    cwd: exampleDir,
    timeout: 30_000,
    env: { ...process.env, RESELLER_API_URL: url, CLIENT_ID: '601' },
  }).catch((error: { code: number; stderr: string }) => error)
  expect(failure).toMatchObject({ code: 1 })
  expect((failure as { stderr: string }).stderr).toMatch(/^Failed: .*\(404 not_found; POST /m)
})
