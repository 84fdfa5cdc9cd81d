// Starts a reseller-mock (the binary, the npm CLI) on a free port for a test run, and stops it.
// Shared by the scripts that run test suites against one server (docs/parallel-tests.md).
import { spawn } from 'node:child_process'

/**
 * Spawns `command` with `--port 0` and resolves `{ url, stop() }` once its ready line
 * (`… listening on http://HOST:PORT`) is printed. Rejects when the process ends first or when
 * `timeoutMs` passes without the line; its stderr is then part of the message. The server's
 * environment is this one's without `RESELLER_MOCK_URL` (a client's setting, not the server's).
 */
export function startMockServer(command, args = [], { timeoutMs = 20_000 } = {}) {
  const env = { ...process.env }
  delete env.RESELLER_MOCK_URL
  const child = spawn(command, ['--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk
  })
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }))
    child.once('error', (error) => resolve({ code: null, signal: null, error }))
  })
  const ready = new Promise((resolve, reject) => {
    let buffered = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${command}: no ready line within ${timeoutMs} ms\n${stderr}`))
    }, timeoutMs)
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      buffered += chunk
      const match = /listening on (http:\/\/\S+)/.exec(buffered)
      if (match) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
    exited.then(({ code, signal, error }) => {
      clearTimeout(timer)
      reject(
        new Error(`${command} ended before its ready line (${error?.message ?? code ?? signal})\n${stderr}`),
      )
    })
  })
  return ready.then((url) => ({
    url,
    /** Sends SIGTERM and resolves the exit code; rejects when it does not end within 20 s. */
    stop: async () => {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
      const { code, signal } = await exited
      clearTimeout(timer)
      if (code !== 0) throw new Error(`${command} exited with ${code ?? signal} on SIGTERM\n${stderr}`)
      return code
    },
  }))
}
