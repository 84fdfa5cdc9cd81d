/**
 * `reseller-mock import`: reads an account of any deployment of the API through the SDK and
 * returns a seed that the mock loads as it is (docs/keeping-the-mock-honest.md, "Importing an
 * account"). The given keys never reach the seed: it gets new keys of the same modes with the
 * scopes the import observed.
 */
import { randomBytes } from 'node:crypto'
import { keyMode } from '@reseller-api/sdk/schemas'
import type { SeedInput } from '../seed/schema.js'
import { AccountReader, type Answer, mapLimit, type Refusal, UnreachableError } from './import-reader.js'
import { buildSeed, type Observed } from './import-seed.js'
import { scrambleDomain } from './redact.js'

export { UnreachableError } from './import-reader.js'

/** Options of {@link importAccount}. */
export interface ImportOptions {
  /** The service's base URL, as `ResellerApi`'s `baseUrl`. */
  baseUrl: string
  /** API keys of the account (`svc_live_…`, `svc_test_…`); each is read with, none is written. */
  keys: string[]
  /** Ids of general webhooks whose deliveries to import (the API lists no webhooks). */
  webhooks?: string[]
  /** Replace personal text (subjects, messages, domains, names, emails) by placeholders. */
  redact?: boolean
  /** The `fetch` to read with (default: the global one). */
  fetch?: typeof fetch
  /** Requests in flight at most (default 8). */
  concurrency?: number
  /** Progress and warnings, one line each. */
  onProgress?: (line: string) => void
}

/** A key of the imported seed, standing for one of the given keys. */
export interface ImportedKey {
  key: string
  mode: 'live' | 'sandbox'
  scopes: string[]
  reseller_id: number
  /** Index in `keys` of the given key this one stands for. */
  given: number
}

/** What {@link importAccount} returns. */
export interface ImportResult {
  seed: SeedInput
  keys: ImportedKey[]
}

/** An import that cannot run: bad options, an unreachable service, every key refused (exit 2). */
export class ImportError extends Error {
  override readonly name = 'ImportError'
}

type Loose = Record<string, unknown>
type Result<T> = Answer<T> | Refusal

/** What one key may see, from one probe of each area. */
interface Probe {
  reader: AccountReader
  usage: Result<Loose>
  webhook: Result<Loose>
  tickets: Result<Loose[]>
}

async function probe(reader: AccountReader): Promise<Probe> {
  const { api } = reader
  const [usage, webhook, tickets] = await Promise.all([
    reader.read<Loose>(api.whm.usage() as Promise<Loose>),
    reader.read<Loose>(api.resellerWebhook.get() as Promise<Loose>),
    reader.page<Loose>(api.tickets.list({ page: 1 }) as never),
  ])
  return { reader, usage, webhook, tickets }
}

/** Scope of an area: granted unless the answer is 401 or 403 (422 and 503 come after the scope check). */
const granted = (answer: Result<unknown>) =>
  !answer.refused || (answer.status !== 401 && answer.status !== 403)

function scopesOf(p: Probe): string[] {
  const scopes: string[] = []
  if (granted(p.usage)) scopes.push('reseller:hosting')
  if (granted(p.webhook)) scopes.push('reseller:webhooks')
  // No GET shows `support:write`: a key that may read tickets is given both support scopes
  // (docs/spec-decisions.md, "Scopes an import cannot observe").
  if (granted(p.tickets)) scopes.push('support:read', 'support:write')
  return scopes
}

const refusedEverything = (p: Probe) =>
  [p.usage, p.webhook, p.tickets].every((a) => a.refused && a.status === 401)

function newKey(mode: 'live' | 'sandbox'): string {
  return `svc_${mode === 'live' ? 'live' : 'test'}_${randomBytes(12).toString('hex')}`
}

function checkOptions(options: ImportOptions): void {
  if (typeof options.baseUrl !== 'string' || !/^https?:\/\//.test(options.baseUrl))
    throw new ImportError('--from must be an http:// or https:// URL (the service’s base URL)')
  if (!Array.isArray(options.keys) || options.keys.length === 0) throw new ImportError('--key is required')
  for (const key of options.keys) {
    if (keyMode(key) === undefined)
      throw new ImportError('--key: not a reseller API key (svc_live_… or svc_test_…; the key was not shown)')
  }
}

/** Reads every page of every list the probes allow, then the ticket details and deliveries. */
async function readAccount(probes: Probe[], options: ImportOptions, limit: number): Promise<Observed> {
  const say = options.onProgress ?? (() => {})
  const withScope = (scope: string) => probes.find((p) => scopesOf(p).includes(scope))
  const hosting = withScope('reseller:hosting')
  const hooks = withScope('reseller:webhooks')
  const support = withScope('support:read')
  const any = probes[0]!
  const listed = <T>(answer: Result<T[]> | undefined) => (answer && !answer.refused ? answer.data : undefined)
  const observed: Observed = { resellerId: 1, whm: undefined, webhooks: [] }

  if (hosting) {
    const usage = hosting.usage
    const code = usage.refused ? usage.code : undefined
    if (!usage.refused) observed.whm = { status: 'online', usage: usage.data }
    else if (usage.status === 503 || code === 'whm_unavailable') observed.whm = { status: 'offline' }
    else observed.whm = { status: 'none' }
    say(`import: WHM ${observed.whm.status}${usage.refused ? ` (${usage.status} ${code ?? ''})` : ''}`)
    if (observed.whm.status === 'online') {
      const { api } = hosting.reader
      observed.packages = listed(
        await hosting.reader.all<Loose>((n) => api.whm.packages.list({ page: n }) as never, limit),
      )
      observed.accounts = listed(
        await hosting.reader.all<Loose>((n) => api.whm.accounts.list({ page: n }) as never, limit),
      )
      say(`import: ${observed.packages?.length ?? 0} packages, ${observed.accounts?.length ?? 0} accounts`)
    }
  } else {
    say('import: no key may read WHM (reseller:hosting)')
  }

  if (support) {
    const { api } = support.reader
    const list = await support.reader.all<Loose>(
      (n) => api.tickets.list({ page: n }) as never,
      limit,
      (done, last) => {
        if (done === last || done % 50 === 0) say(`import: tickets page ${done}/${last}`)
      },
    )
    const items = listed(list) ?? []
    let done = 0
    observed.tickets = await mapLimit(items, limit, async (item) => {
      const detail = await support.reader.read<Loose>(api.tickets.get(String(item.uuid)) as Promise<Loose>)
      if (++done === items.length || done % 1000 === 0) say(`import: ticket details ${done}/${items.length}`)
      // The list's fields win: the detail adds what the list does not show (messages, service_id).
      return detail.refused ? item : { ...detail.data, ...item, messages: detail.data.messages }
    })
    const owner = items.find((t) => Number.isInteger(t.user_id))
    if (owner) observed.resellerId = owner.user_id as number
  } else {
    say('import: no key may read tickets (support:read)')
  }

  if (hooks) {
    const { api } = hooks.reader
    observed.resellerWebhookUrl = hooks.webhook.refused ? undefined : (text(hooks.webhook.data.url) ?? null)
    for (const id of options.webhooks ?? []) {
      const deliveries = await hooks.reader.all<Loose>(
        (n) => api.webhooks.deliveries(id, { page: n }) as never,
        limit,
      )
      if (deliveries.refused)
        say(`import: webhook ${id}: ${deliveries.status} ${deliveries.code ?? ''}, left out`)
      else observed.webhooks.push({ id, deliveries: deliveries.data })
    }
  }

  const { api } = any.reader
  observed.services = listed(
    await any.reader.all<Loose>((n) => api.services.list({ page: n }) as never, limit),
  )
  observed.invoices = listed(
    await any.reader.all<Loose>((n) => api.invoices.list({ page: n }) as never, limit),
  )
  say(`import: ${observed.services?.length ?? 0} services, ${observed.invoices?.length ?? 0} invoices`)
  return observed
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

/**
 * Imports the account the keys see (GET only, through the SDK). Rejects with {@link ImportError}
 * on bad options, when the service cannot be reached, or when it refuses every key.
 */
export async function importAccount(options: ImportOptions): Promise<ImportResult> {
  checkOptions(options)
  const limit = Math.max(1, Math.floor(options.concurrency ?? 8))
  const say = options.onProgress ?? (() => {})
  let probes: Probe[]
  try {
    const readers = options.keys.map((key) => new AccountReader(options.baseUrl, key, options.fetch))
    probes = await Promise.all(readers.map(probe))
    const accepted = probes.filter((p) => !refusedEverything(p))
    if (accepted.length === 0) throw new ImportError(`${options.baseUrl} refused every key (401)`)
    probes.forEach((p, i) => {
      if (refusedEverything(p)) say(`import: key ${i + 1} was refused (401), left out`)
    })
    const modes = options.keys.map((key) => keyMode(key)!)
    const observed = await readAccount(accepted, options, limit)
    if (options.redact && typeof observed.resellerWebhookUrl === 'string') {
      const url = new URL(observed.resellerWebhookUrl)
      url.hostname = scrambleDomain(url.hostname)
      observed.resellerWebhookUrl = url.href
    }
    const keys: ImportedKey[] = probes.flatMap((p, i) =>
      refusedEverything(p)
        ? []
        : [
            {
              key: newKey(modes[i]!),
              mode: modes[i]!,
              scopes: scopesOf(p),
              reseller_id: observed.resellerId,
              given: i,
            },
          ],
    )
    const seed = buildSeed(observed, keys, { redact: options.redact === true, warn: say })
    return { seed, keys }
  } catch (error) {
    if (error instanceof UnreachableError)
      throw new ImportError(`cannot reach ${options.baseUrl}: ${error.message}`)
    throw error
  }
}

/** Every string and number of a seed: the values the import brought, stable on both sides of a comparison. */
export function knownValues(seed: unknown): Set<string> {
  const known = new Set<string>()
  const walk = (value: unknown, key?: string) => {
    if (key === 'key' || key === 'secret') return
    if (typeof value === 'string' || typeof value === 'number') known.add(String(value))
    else if (Array.isArray(value)) for (const item of value) walk(item)
    else if (typeof value === 'object' && value !== null)
      for (const [k, v] of Object.entries(value)) walk(v, k)
  }
  walk(seed)
  return known
}
