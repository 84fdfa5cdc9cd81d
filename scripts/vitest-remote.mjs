// The project's vitest fixture tests against the built binary: one server on a free port, every
// test concurrent, each test's `mock` a namespace of that server (RESELLER_MOCK_URL; see
// docs/parallel-tests.md). Then checks that every namespace was deleted and that the server exits
// 0 on SIGTERM. Usage (after `pnpm run build:binary`):
//   pnpm exec node scripts/vitest-remote.mjs [test files…]
// MOCK_BIN names another server (default packages/mock/dist-bin/reseller-mock).
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { startMockServer } from './lib/mock-server.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = process.env.MOCK_BIN ?? `${root}packages/mock/dist-bin/reseller-mock`
const files = process.argv.slice(2)
const tests =
  files.length > 0
    ? files
    : [
        'packages/mock/test/api/vitest-fixture.test.ts',
        'examples/app-testing/test/onboarding.fixture.test.ts',
      ]

if (!existsSync(bin)) {
  console.error(`${bin} is missing: run pnpm run build:binary first (or set MOCK_BIN)`)
  process.exit(1)
}

const server = await startMockServer(bin, ['--quiet'])
console.log(`vitest-remote: ${bin} at ${server.url}`)
let failed = false
try {
  const vitest = spawn(
    process.execPath,
    [`${root}node_modules/vitest/vitest.mjs`, 'run', '--sequence.concurrent', ...tests],
    { cwd: root, stdio: 'inherit', env: { ...process.env, RESELLER_MOCK_URL: server.url } },
  )
  const code = await new Promise((resolve) =>
    vitest.once('exit', (exitCode, signal) => resolve(exitCode ?? signal)),
  )
  if (code !== 0) {
    failed = true
    console.error(`vitest-remote: vitest exited with ${code}`)
  }
  const left = await fetch(`${server.url}/__mock/namespaces`).then((answer) => answer.json())
  if (!left.success || left.data.length !== 0) {
    failed = true
    console.error(`vitest-remote: namespaces left after the tests: ${JSON.stringify(left)}`)
  }
} finally {
  await server.stop().catch((error) => {
    failed = true
    console.error(`vitest-remote: ${error.message}`)
  })
}
if (failed) process.exit(1)
console.log('vitest-remote: passed; every namespace deleted; the server exited 0 on SIGTERM')
