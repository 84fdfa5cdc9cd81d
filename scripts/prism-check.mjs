#!/usr/bin/env node
// The outside-tool check of the OpenAPI document (CI, .ci/run): Stoplight Prism, a validation proxy
// nobody here wrote, in front of the standalone mock (the built CLI). The session of requests is
// the document's own: each operation's example request (parameter `example`s, the request body's
// `example`, `x-example-setup`, the bearer scheme's `x-example-key`; `exampleRequests` of
// `@reseller-api/sdk/schemas`) on a freshly reset mock, and for each operation that needs a key the
// same request without one (401), the same request once more under a 429 fault (the mock's fault
// answer against the document), and, where the document lists `sandbox_read_only` among the
// operation's 403 codes, with a sandbox key of the same reseller (403); then each error example
// request (`x-error-examples`: an invalid state, a reseller whose WHM is offline), expecting its
// status and code. A new operation with its examples is in the session without an edit here.
// Prism checks every request and every answer against the document, and with `--errors`
// turns a violation into an error answer (and an `sl-violations` header). Any violation, or an
// answer other than the documented status, fails the check.
//
// The document is the one the mock serves (`GET /__mock/openapi.json`: the published service
// document with the control endpoints), or `--document FILE` (e.g. one broken on purpose, to see
// the check fail). Needs `pnpm build` first (packages/sdk/dist, packages/mock/dist/cli.js).
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const documentFlag = process.argv.indexOf('--document')
const documentArgument = documentFlag > 0 ? process.argv[documentFlag + 1] : undefined
const cliPath = `${root}packages/mock/dist/cli.js`
const schemasPath = `${root}packages/sdk/dist/schemas/index.js`
// Prism's own entry run by this Node (not the .bin shell shim): the process killed is Prism itself.
const prismPath = `${root}node_modules/@stoplight/prism-cli/dist/index.js`
for (const path of [cliPath, schemasPath, prismPath, ...(documentArgument ? [documentArgument] : [])]) {
  if (!existsSync(path)) {
    console.error(`prism-check: ${path} is missing (run pnpm install and pnpm build first)`)
    process.exit(1)
  }
}
const { atPointer, errorExampleRequests, exampleRequests } = await import(pathToFileURL(schemasPath).href)

/** Processes started here: every exit path kills them. */
const children = new Set()
function stopAll() {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
}
process.on('exit', stopAll)
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll()
    process.exit(1)
  })
}

/** Starts `command`, resolves with the first output line matching `ready` (rejects on exit or after 60 s). */
function start(name, command, args, ready) {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} not ready after 60 s:\n${output}`)), 60_000)
    const onData = (chunk) => {
      output += chunk
      const match = output.match(ready)
      if (match) {
        clearTimeout(timer)
        resolve({ child, match, output: () => output })
      }
    }
    child.stdout.setEncoding('utf8').on('data', onData)
    child.stderr.setEncoding('utf8').on('data', onData)
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${name} exited (${code}) before it was ready:\n${output}`))
    })
  })
}

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** The mock's own document, as `GET /__mock/openapi.json` serves it, written to a file for Prism. */
async function servedDocumentFile(mockUrl, dir) {
  const response = await fetch(`${mockUrl}/__mock/openapi.json`, { signal: AbortSignal.timeout(30_000) })
  if (response.status !== 200) throw new Error(`GET /__mock/openapi.json answered ${response.status}`)
  const path = join(dir, 'openapi.json')
  writeFileSync(path, await response.text())
  return path
}

async function main() {
  const mock = await start(
    'reseller-mock',
    process.execPath,
    [cliPath, '--port', '0'],
    /http:\/\/127\.0\.0\.1:(\d+)/,
  )
  const mockUrl = `http://127.0.0.1:${mock.match[1]}`
  const dir = mkdtempSync(join(tmpdir(), 'prism-check-'))
  try {
    const documentPath = documentArgument ?? (await servedDocumentFile(mockUrl, dir))
    await session(mockUrl, documentPath)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function session(mockUrl, documentPath) {
  const document = JSON.parse(readFileSync(documentPath, 'utf8'))
  const requests = exampleRequests(document)
  const byId = new Map(requests.map((request) => [request.operationId, request]))
  const port = await freePort()
  const prism = await start(
    'prism',
    process.execPath,
    [prismPath, 'proxy', '--errors', '--port', String(port), '--host', '127.0.0.1', documentPath, mockUrl],
    /Prism is listening/,
  )
  const base = `http://127.0.0.1:${port}`
  const failures = []
  let sent = 0
  /**
   * Sends `request` (to `path`) through Prism; records a violation, an unexpected status, or an
   * error code other than `code` when one is expected.
   */
  const send = async (request, path, key, expected, code) => {
    const headers = { accept: request.media }
    if (key) headers.authorization = `Bearer ${key}`
    if (request.body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(base + path, {
      method: request.method,
      headers,
      // A stuck proxy or mock fails the check instead of holding CI until undici gives up.
      signal: AbortSignal.timeout(30_000),
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    })
    sent++
    const text = await response.text()
    const violations = response.headers.get('sl-violations')
    const line = `${request.method} ${path} → ${response.status}`
    if (violations) failures.push(`${line}: Prism reports ${violations}`)
    else if (response.status !== expected)
      failures.push(`${line}, expected ${expected}: ${text.slice(0, 400)}`)
    else if (code !== undefined && JSON.parse(text).error?.code !== code)
      failures.push(`${line}, expected the error code ${code}: ${text.slice(0, 400)}`)
    else console.log(`  ok  ${line}`)
    return response.ok ? JSON.parse(text || 'null') : undefined
  }
  const reset = () =>
    fetch(`${mockUrl}/__mock/reset`, { method: 'POST', signal: AbortSignal.timeout(30_000) })
  const control = async (method, path, body) => {
    const response = await fetch(`${mockUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    })
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`)
    return (await response.json()).data
  }
  // The demo's keys (the control endpoint, not the document): a sandbox key for each live one.
  const keys = (await control('GET', '/__mock/state')).tables.apiKeys
  const sandboxKeyFor = (key) => {
    const live = keys.find((k) => k.key === key)
    return keys.find(
      (k) =>
        k.mode === 'sandbox' &&
        k.reseller_id === live?.reseller_id &&
        live.scopes.every((scope) => k.scopes.includes(scope)),
    )?.key
  }
  // The operation's documented 403 codes, by operationId.
  const refusesSandbox = new Set()
  for (const item of Object.values(document.paths))
    for (const operation of Object.values(item))
      if (/`sandbox_read_only`/.test(operation?.responses?.['403']?.description ?? ''))
        refusesSandbox.add(operation.operationId)
  /** On a freshly reset mock: runs the setup of `request` if any; its path filled in, or undefined. */
  const prepare = async (request) => {
    await reset()
    let path = request.path
    if (request.setup) {
      const setup = byId.get(request.setup.operationId)
      if (!setup) {
        failures.push(`${request.operationId}: its setup ${request.setup.operationId} is no operation`)
        return undefined
      }
      const answer = await send(setup, setup.path, setup.key, setup.status)
      for (const [name, pointer] of Object.entries(request.setup.params ?? {}))
        path = path.replace(`{${name}}`, encodeURIComponent(String(atPointer(answer, pointer))))
    }
    if (/\{\w+\}/.test(path)) {
      failures.push(`${request.operationId}: no example value for a path parameter of ${path}`)
      return undefined
    }
    return path
  }
  for (const request of requests) {
    // An event stream never ends: Prism can judge no answer of it.
    if (request.media === 'text/event-stream') continue
    const path = await prepare(request)
    if (path === undefined) continue
    await send(request, path, request.key, request.status)
    if (request.key) {
      await reset()
      await send(request, path, undefined, 401)
    }
    if (request.path.startsWith('/api/')) {
      await reset()
      await control('POST', '/__mock/faults', {
        match: { method: request.method, path: path.split('?')[0] },
        times: 1,
        respond: { status: 429, retryAfter: 1 },
      })
      await send(request, path, request.key, 429, 'rate_limited')
    }
    if (refusesSandbox.has(request.operationId)) {
      const sandbox = sandboxKeyFor(request.key)
      if (!sandbox) failures.push(`${request.operationId}: no sandbox key beside ${request.key}`)
      else {
        await reset()
        await send(request, path, sandbox, 403, 'sandbox_read_only')
      }
    }
  }
  // The documented business errors: each operation's error example requests (an invalid state, a
  // reseller whose WHM is offline), each expected to get its status and its code.
  const errorRequests = errorExampleRequests(document)
  for (const request of errorRequests) {
    const path = await prepare(request)
    if (path !== undefined) await send(request, path, request.key, request.status, request.code)
  }
  // Prism also logs violations it does not turn into errors (warnings): those fail the check too.
  const logged = prism
    .output()
    .split('\n')
    .filter((line) => /violation/i.test(line) && !/\binfo\b/i.test(line))
  if (logged.length > 0) failures.push(...logged.map((line) => `Prism log: ${line.trim()}`))
  console.log(
    `prism-check: ${sent} requests (${requests.length} operations, ${errorRequests.length} error examples) through Prism proxy → ${mockUrl}`,
  )
  if (failures.length > 0) {
    console.error(
      `prism-check: ${failures.length} problem(s):\n${failures.map((f) => `  - ${f}`).join('\n')}`,
    )
    process.exitCode = 1
  } else {
    console.log('prism-check: no violation')
  }
}

try {
  await main()
} catch (error) {
  console.error(`prism-check: ${error instanceof Error ? error.message : error}`)
  process.exitCode = 1
} finally {
  stopAll()
  // Their output pipes keep this process alive until they are gone: one that ignores SIGTERM
  // (a graceful shutdown that hangs) is killed outright rather than holding CI.
  setTimeout(() => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }, 5000).unref()
}
