/**
 * The recipes of docs/faults-and-journal.md, run. Every ```ts block of the guide is one region of
 * this file (`// #region name` … `// #endregion`), checked word for word below, and every `curl`
 * line of its ```sh blocks is sent to a running mock: a recipe that stops working fails here.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// #region setup
import { createMockApi } from '@reseller-api/mock'
import { ConnectionError, NotFoundError, ResellerApi, ServerError, TimeoutError } from '@reseller-api/sdk'
import { beforeEach, expect, test } from 'vitest'

const mock = createMockApi() // the demo seed: key svc_live_acme_full, clients 501–506
const api = new ResellerApi({ apiKey: 'svc_live_acme_full', baseUrl: mock.baseUrl, fetch: mock.fetch })

// Back to the seed before each test: the faults and the journal are emptied too.
beforeEach(() => mock.reset())
// #endregion

// #region retries
test('a rate-limited read is retried once the server allows it', async () => {
  mock.faults.add({
    match: { method: 'GET', route: '/api/v1/support/tickets' },
    respond: { status: 429, retryAfter: 1 }, // Retry-After: 1
    times: 1, // only the next matching request
  })

  const page = await api.tickets.list() // waits 1 s, then retries

  expect(page.data.length).toBeGreaterThan(0)
  const calls = mock.requests.list({ route: '/api/v1/support/tickets' })
  expect(calls.map((call) => call.status)).toEqual([429, 200])
})

test('a create is never retried after a 503', async () => {
  mock.faults.add({ match: { method: 'POST' }, respond: { status: 503 } })

  await expect(
    api.tickets.create({ subject: 'Disk full', message: 'Please help', department: 'technical' }),
  ).rejects.toBeInstanceOf(ServerError)

  expect(mock.requests.list({ method: 'POST' })).toHaveLength(1)
})
// #endregion

// #region lost-answer
const HOSTING = '/api/v1/reseller/clients/:client_id/hosting'

test('provisioning whose answer was lost still created the account', async () => {
  mock.faults.add({ match: { method: 'POST', route: HOSTING }, drop: 'after', times: 1 })

  const error = await api.hosting
    .create(503, { domain: 'shop.example', whm_package: 'starter' })
    .catch((caught: unknown) => caught)

  expect(error).toBeInstanceOf(ConnectionError) // the SDK never retries a POST
  // The request took effect: look before provisioning again.
  const domains: string[] = []
  for await (const account of api.whm.accounts.list()) domains.push(account.domain)
  expect(domains).toContain('shop.example')
  expect(mock.requests.list({ method: 'POST', route: HOSTING })).toHaveLength(1)
})

test('a slow answer becomes a TimeoutError', async () => {
  mock.faults.add({ match: { route: '/api/v1/reseller/whm/usage' }, delayMs: 2_000, times: 1 })

  // With retries, the second attempt (no fault left) would succeed: a GET that timed out is retried.
  await expect(api.whm.usage({ timeoutMs: 500, maxRetries: 0 })).rejects.toBeInstanceOf(TimeoutError)
})
// #endregion

// #region asserting-calls
test('onboarding provisions exactly once, with the right body', async () => {
  await api.hosting.create(504, { domain: 'blog.example', whm_package: 'starter' })

  const calls = mock.requests.list({ method: 'POST', route: HOSTING })
  expect(calls).toHaveLength(1)
  expect(calls[0]).toMatchObject({
    path: '/api/v1/reseller/clients/504/hosting',
    status: 201,
    key_mode: 'live',
    body: { domain: 'blog.example', whm_package: 'starter' },
  })
})

test('an error names its journal entry', async () => {
  const error = await api.tickets
    .get('00000000-0000-4000-8000-000000000000')
    .catch((caught: unknown) => caught)

  expect(error).toBeInstanceOf(NotFoundError)
  const { requestId } = error as NotFoundError
  const entry = mock.requests.list().find((call) => call.id === requestId)
  expect(entry).toMatchObject({ status: 404, error_code: 'not_found' })
})
// #endregion

const GUIDE = fileURLToPath(new URL('../../../../docs/faults-and-journal.md', import.meta.url))
const SELF = fileURLToPath(import.meta.url)

/** The fenced blocks of `lang` in a Markdown text. */
function blocks(markdown: string, lang: string): string[] {
  const out: string[] = []
  const fence = new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm')
  for (const match of markdown.matchAll(fence)) out.push(match[1]!.trimEnd())
  return out
}

/** The regions of this file, by name. */
function regions(source: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const match of source.matchAll(/^\/\/ #region (\S+)\n([\s\S]*?)^\/\/ #endregion$/gm)) {
    out.set(match[1]!, match[2]!.trimEnd())
  }
  return out
}

/** Splits one shell command line into words (single and double quotes, no expansions). */
function words(line: string): string[] {
  const out: string[] = []
  for (const match of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(match[1] ?? match[2] ?? match[3]!)
  return out
}

// The guide's own checks use `test` and `expect` of the setup region: one import of vitest.
const guide = readFileSync(GUIDE, 'utf8')

test('the guide: every ts block is a region of this file, and every region is in the guide', () => {
  const shown = blocks(guide, 'ts')
  const own = regions(readFileSync(SELF, 'utf8'))
  expect(shown.length).toBe(own.size)
  for (const block of shown) expect([...own.values()]).toContain(block)
})

test('the guide: every curl line of its sh blocks works against a running mock', async () => {
  const running = createMockApi()
  const server = await running.listen({ port: 0 })
  try {
    const lines = blocks(guide, 'sh')
      .join('\n')
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .filter((line) => line.startsWith('curl '))
    expect(lines.length).toBeGreaterThan(3)
    for (const line of lines) {
      const args = words(line).slice(1)
      let method = 'GET'
      let url = ''
      let body: string | undefined
      const headers: Record<string, string> = {}
      for (let i = 0; i < args.length; i++) {
        const arg = args[i]!
        if (arg === '-X') method = args[++i]!
        else if (arg === '-H') {
          const [name, ...value] = args[++i]!.split(':')
          headers[name!.trim()] = value.join(':').trim()
        } else if (arg === '-d') {
          body = args[++i]
          if (method === 'GET') method = 'POST'
        } else if (!arg.startsWith('-')) url = arg.replace('http://127.0.0.1:4010', server.url)
      }
      const answer = await fetch(url, { method, headers, body })
      const text = await answer.text()
      // Control calls succeed; API calls are answered (a fault may make that an error) with an id.
      if (url.includes('/__mock/')) expect(answer.ok, `${line}\n→ ${answer.status} ${text}`).toBe(true)
      else expect(answer.headers.get('x-request-id'), line).toMatch(/^req_/)
    }
  } finally {
    await server.close()
  }
})
