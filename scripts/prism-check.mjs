#!/usr/bin/env node
// The outside-tool check of the OpenAPI document (CI, .ci/run): Stoplight Prism, a validation proxy
// nobody here wrote, in front of the standalone mock (the built CLI). A scripted session of requests
// goes through Prism; Prism checks every request and every answer against the document, and with
// `--errors` turns a violation into an error answer (and an `sl-violations` header). Any violation,
// or an answer other than the one the session expects, fails the check.
//
// Needs `pnpm build` first (packages/sdk/openapi.json, packages/mock/dist/cli.js).
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
// `--document FILE` checks another document (e.g. one broken on purpose, to see the check fail).
const documentFlag = process.argv.indexOf('--document')
const documentPath = documentFlag > 0 ? process.argv[documentFlag + 1] : `${root}packages/sdk/openapi.json`
const cliPath = `${root}packages/mock/dist/cli.js`
// Prism's own entry run by this Node (not the .bin shell shim): the process killed is Prism itself.
const prismPath = `${root}node_modules/@stoplight/prism-cli/dist/index.js`
for (const path of [documentPath, cliPath, prismPath]) {
  if (!existsSync(path)) {
    console.error(`prism-check: ${path} is missing (run pnpm install and pnpm build first)`)
    process.exit(1)
  }
}

const LIVE = 'svc_live_acme_full'
const READ_ONLY = 'svc_live_acme_support_ro'
const SANDBOX = 'svc_test_acme_sandbox'
const OFFLINE = 'svc_live_beta_full'
const document = JSON.parse(readFileSync(documentPath, 'utf8'))
/** The document's path template a concrete path falls under (static paths before templated ones). */
function templateOf(path) {
  const bare = path.split('?')[0]
  const templates = Object.keys(document.paths).sort(
    (a, b) => (a.match(/\{/g) ?? []).length - (b.match(/\{/g) ?? []).length,
  )
  return (
    templates.find((t) =>
      new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare),
    ) ?? bare
  )
}
const UNKNOWN_UUID = '0b7e4b8e-8f5c-4d2a-9b1e-3c6f2a1d0e99'

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

/** The scripted session: [method, path, key, body, expected status]. `{ticket}` is filled in. */
const session = [
  ['GET', '/api/v1/reseller/whm/usage', LIVE, undefined, 200],
  ['GET', '/api/v1/reseller/whm/accounts', LIVE, undefined, 200],
  ['GET', '/api/v1/reseller/whm/packages?page=1', LIVE, undefined, 200],
  [
    'POST',
    '/api/v1/reseller/whm/packages',
    LIVE,
    { name: 'premium', quota: 10240, bandwidth: 102400, maxsql: 20, maxpop: 100, maxftp: 10, maxsub: 20 },
    201,
  ],
  ['DELETE', '/api/v1/reseller/whm/packages/premium', LIVE, undefined, 200],
  [
    'POST',
    '/api/v1/reseller/clients/503/hosting',
    LIVE,
    { domain: 'prism-one.example', whm_package: 'starter' },
    201,
  ],
  [
    'POST',
    '/api/v1/reseller/clients/504/hosting',
    SANDBOX,
    { domain: 'prism-sb.example', whm_package: 'starter' },
    201,
  ],
  [
    'POST',
    '/api/v1/reseller/accounts', // deprecated
    LIVE,
    { client_id: 503, domain: 'prism-legacy.example', whm_package: 'starter' },
    201,
  ],
  ['DELETE', '/api/v1/reseller/whm/accounts/{legacy}', LIVE, undefined, 200],
  ['GET', '/api/v1/reseller/whm/accounts/{account}', LIVE, undefined, 200],
  ['POST', '/api/v1/reseller/whm/accounts/{account}/suspend', LIVE, undefined, 200],
  ['POST', '/api/v1/reseller/whm/accounts/{account}/suspend', LIVE, undefined, 422], // invalid_state
  ['POST', '/api/v1/reseller/whm/accounts/{account}/unsuspend', LIVE, undefined, 200],
  [
    'POST',
    '/api/v1/reseller/clients/503/hosting',
    LIVE,
    { domain: 'prism-one.example', whm_package: 'starter' },
    422,
  ],
  ['POST', '/api/v1/reseller/clients/503/hosting/{account}/suspend', LIVE, undefined, 200],
  ['POST', '/api/v1/reseller/clients/503/hosting/{account}/unsuspend', LIVE, undefined, 200],
  ['DELETE', '/api/v1/reseller/clients/503/hosting/{account}', LIVE, undefined, 200],
  ['GET', '/api/v1/reseller/whm/usage', OFFLINE, undefined, 503], // whm_unavailable
  ['GET', '/api/v1/reseller/usage', LIVE, undefined, 200], // deprecated
  ['GET', '/api/v1/reseller/accounts', LIVE, undefined, 200], // deprecated
  ['GET', '/api/v1/reseller/packages', LIVE, undefined, 200], // deprecated
  ['GET', '/api/v1/support/tickets', LIVE, undefined, 200],
  ['GET', '/api/v1/support/tickets?page=2', READ_ONLY, undefined, 200],
  [
    'POST',
    '/api/v1/support/tickets',
    LIVE,
    {
      subject: 'Prism',
      message: 'Checked by a validation proxy.',
      department: 'technical',
      priority: 'high',
    },
    201,
  ],
  ['POST', '/api/v1/support/tickets', READ_ONLY, { subject: 'x', message: 'y', department: 'sales' }, 403],
  ['POST', '/api/v1/support/tickets', SANDBOX, { subject: 'x', message: 'y', department: 'sales' }, 403],
  ['GET', '/api/v1/support/tickets/{ticket}', LIVE, undefined, 200],
  ['GET', `/api/v1/support/tickets/${UNKNOWN_UUID}`, LIVE, undefined, 404],
  ['POST', '/api/v1/support/tickets/{ticket}/messages', LIVE, { message: 'Any news?' }, 201],
  ['PATCH', '/api/v1/support/tickets/{ticket}/close', LIVE, undefined, 200],
  ['POST', '/api/v1/support/tickets/{ticket}/messages', LIVE, { message: 'Closed?' }, 422], // invalid_state
  ['PATCH', '/api/v1/support/tickets/{ticket}/reopen', LIVE, undefined, 200],
  // Before the PUT: the demo's receivers are on 127.0.0.1:9, where a delivery fails at once.
  ['POST', '/api/v1/reseller/webhook/test', LIVE, undefined, 200],
  ['POST', '/api/v1/reseller/webhook/test', OFFLINE, undefined, 404], // none configured
  ['POST', '/api/v1/webhooks/wh_demo/test', LIVE, { event: 'test' }, 200],
  [
    'PUT',
    '/api/v1/reseller/webhook',
    LIVE,
    { url: 'https://hooks.acme.example/r', secret: 'prism-secret' },
    200,
  ],
  ['GET', '/api/v1/reseller/webhook', LIVE, undefined, 200],
  [
    'POST',
    '/api/v1/webhooks',
    LIVE,
    { url: 'https://hooks.acme.example/g', events: ['ticket.created'] },
    201,
  ],
  ['GET', '/api/v1/webhooks/wh_demo/deliveries', LIVE, undefined, 200],
  ['GET', '/api/v1/services', LIVE, undefined, 200],
  ['GET', '/api/v1/invoices?page=2', LIVE, undefined, 200],
  ['GET', '/api/v1/invoices', undefined, undefined, 401],
  ['GET', '/__mock/clock', undefined, undefined, 200],
  ['POST', '/__mock/clock/advance', undefined, { seconds: 60 }, 200],
  ['GET', '/__mock/requests?method=POST', undefined, undefined, 200],
  [
    'POST',
    '/__mock/faults',
    undefined,
    { match: { route: '/api/v1/services' }, times: 1, respond: { status: 429, retryAfter: 1 } },
    201,
  ],
  ['GET', '/__mock/faults', undefined, undefined, 200],
  ['GET', '/api/v1/services', LIVE, undefined, 429], // the fault's answer
  ['POST', '/__mock/faults', undefined, { delayMs: 1 }, 201],
  ['DELETE', '/__mock/faults/{fault}', undefined, undefined, 200],
  ['DELETE', '/__mock/faults', undefined, undefined, 200],
  ['POST', '/__mock/tickets/{ticket}/replies', undefined, { message: 'Staff here.' }, 201],
  ['PATCH', '/__mock/tickets/{ticket}', undefined, { status: 'resolved' }, 200],
  ['POST', '/__mock/events', undefined, { reseller_id: 1, event: 'wallet.credited' }, 201],
  ['GET', '/__mock/deliveries', undefined, undefined, 200],
  ['POST', '/__mock/deliveries/{delivery}/redeliver', undefined, undefined, 201],
  ['GET', '/__mock/state', undefined, undefined, 200],
  ['GET', '/__mock/openapi.json', undefined, undefined, 200],
  ['DELETE', '/__mock/requests', undefined, undefined, 200],
  ['POST', '/__mock/reset', undefined, undefined, 200],
]

async function main() {
  const mock = await start(
    'reseller-mock',
    process.execPath,
    [cliPath, '--port', '0'],
    /http:\/\/127\.0\.0\.1:(\d+)/,
  )
  const mockUrl = `http://127.0.0.1:${mock.match[1]}`
  const port = await freePort()
  const prism = await start(
    'prism',
    process.execPath,
    [prismPath, 'proxy', '--errors', '--port', String(port), '--host', '127.0.0.1', documentPath, mockUrl],
    /Prism is listening/,
  )
  const base = `http://127.0.0.1:${port}`
  const values = {}
  const failures = []
  const exercised = new Set()
  for (const [method, template, key, body, expected] of session) {
    const path = template.replace(/\{(\w+)\}/g, (_, name) => values[name] ?? `{${name}}`)
    const headers = { accept: 'application/json' }
    if (key) headers.authorization = `Bearer ${key}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    exercised.add(`${method} ${templateOf(path)}`)
    const response = await fetch(base + path, {
      method,
      headers,
      // A stuck proxy or mock fails the check instead of holding CI until undici gives up.
      signal: AbortSignal.timeout(30_000),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    const text = await response.text()
    const violations = response.headers.get('sl-violations')
    const line = `${method} ${path} → ${response.status}`
    if (violations) failures.push(`${line}: Prism reports ${violations}`)
    else if (response.status !== expected)
      failures.push(`${line}, expected ${expected}: ${text.slice(0, 400)}`)
    else console.log(`  ok  ${line}`)
    // Values later steps use: the accounts just created, the ticket just opened, a fault, a delivery.
    if (response.ok && method === 'POST') {
      if (path === '/api/v1/reseller/clients/503/hosting') values.account = JSON.parse(text).data.username
      if (path === '/api/v1/reseller/accounts') values.legacy = JSON.parse(text).data.username
      if (path === '/api/v1/support/tickets') values.ticket = JSON.parse(text).data.ticket_id
      if (path === '/__mock/faults') values.fault = JSON.parse(text).data.id
    }
    if (response.ok && path === '/__mock/deliveries') values.delivery = JSON.parse(text).data[0]?.delivery_id
  }
  // Prism can only judge what goes through it: every operation but the endless event stream is sent.
  const unexercised = Object.entries(document.paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .filter((operation) => !exercised.has(operation) && operation !== 'GET /__mock/stream')
  if (unexercised.length > 0) failures.push(`operations the session never sends: ${unexercised.join(', ')}`)
  // Prism also logs violations it does not turn into errors (warnings): those fail the check too.
  const logged = prism
    .output()
    .split('\n')
    .filter((line) => /violation/i.test(line) && !/\binfo\b/i.test(line))
  if (logged.length > 0) failures.push(...logged.map((line) => `Prism log: ${line.trim()}`))
  console.log(`prism-check: ${session.length} requests through Prism proxy → ${mockUrl}`)
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
