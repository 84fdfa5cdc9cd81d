/**
 * `reseller-mock compare`: imports the upstream account, starts an in-process mock from that seed
 * and sends one scenario to both, step by step, with the same requests (ids mapped), comparing
 * each pair of answers with {@link compareExchange} (docs/keeping-the-mock-honest.md).
 */
import { keyMode } from '@reseller-api/sdk/schemas'
import { createControlClient } from '../control/client.js'
import { createMockApi } from '../create-mock-api.js'
import type { SeedInput } from '../seed/schema.js'
import { compareExchange, type Exchange, IdMap, type OpenApiLike, type StepResult } from './engine.js'
import { ImportError, type ImportedKey, importAccount, knownValues } from './import.js'
import { type Placeholders, type PlannedStep, planSteps, SCENARIOS, type ScenarioName } from './scenario.js'

/** Options of {@link compareAccounts}. */
export interface CompareOptions {
  /** The upstream's base URL. */
  upstream: string
  /** Keys of the upstream account; the first one sends the steps its scopes allow. */
  keys: string[]
  /** General webhooks whose deliveries to import and compare. */
  webhooks?: string[]
  /** Default `read`. */
  scenario?: ScenarioName
  /** The `fetch` that reaches the upstream (default: the global one). */
  fetch?: typeof fetch
  /** Progress lines (import and steps). */
  onProgress?: (line: string) => void
}

/** What {@link compareAccounts} returns: each step's result, and the seed the mock ran from. */
export interface CompareResult {
  steps: StepResult[]
  seed: SeedInput
}

/** A comparison that cannot run (exit 2): bad options, an unreachable upstream, every key refused. */
export class CompareError extends Error {
  override readonly name = 'CompareError'
}

/** Upstream key → the imported key that stands for it in the mock. */
interface KeyPair {
  upstream: string
  mock: string
  scopes: string[]
}

/** Ids of the import a scenario's placeholders take, newest first as the lists show them. */
function placeholdersOf(seed: SeedInput): Placeholders {
  const reseller = seed.resellers[0]
  if (!reseller) return {}
  const newestFirst = <T>(rows: T[] | undefined) => [...(rows ?? [])].reverse()
  return {
    ticket: newestFirst(reseller.tickets).flatMap((t) => t.uuid ?? []),
    username: newestFirst(reseller.accounts).flatMap((a) => a.username ?? []),
    client: (reseller.clients ?? []).map((c) => String(c.id)),
    package: (reseller.packages ?? []).map((p) => p.name),
    webhook: (reseller.webhooks ?? []).flatMap((w) => w.id ?? []),
  }
}

/** Sends a request and reads its answer into an {@link Exchange}; `status: null` when nothing answered. */
export async function exchange(
  send: () => Promise<Response>,
  method: string,
  path: string,
): Promise<Exchange> {
  let response: Response
  try {
    response = await send()
  } catch (error) {
    return { method, path, status: null, headers: {}, body: `no answer: ${(error as Error).message}` }
  }
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value
  })
  const text = await response.text()
  let body: unknown = null
  if (text !== '') {
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
  }
  return { method, path, status: response.status, headers, body }
}

/** Sends the steps of a scenario to both sides. */
class ScenarioRun {
  readonly results: StepResult[] = []
  readonly ids: IdMap

  constructor(
    readonly upstreamBase: string,
    readonly upstreamFetch: typeof fetch,
    readonly mock: { baseUrl: string; fetch: (request: Request) => Promise<Response> },
    readonly openapi: OpenApiLike,
    readonly pairs: KeyPair[],
    seed: SeedInput,
  ) {
    this.ids = new IdMap(knownValues(seed))
  }

  /** The key pair a step sends; `undefined` leaves the step out. */
  keysFor(step: PlannedStep): { upstream: string; mock: string } | undefined {
    const main = this.pairs[0]!
    if (step.key === 'unknown') {
      const unknown = `svc_${keyMode(main.upstream) === 'sandbox' ? 'test' : 'live'}_fidelity_unknown_key_0000`
      return { upstream: unknown, mock: unknown }
    }
    if (step.key === 'lacking')
      return step.scope ? this.pairs.find((p) => !p.scopes.includes(step.scope!)) : undefined
    return (step.scope && this.pairs.find((p) => p.scopes.includes(step.scope!))) || main
  }

  async step(name: string, step: PlannedStep, path: string, keys: { upstream: string; mock: string }) {
    const body = step.body === undefined ? undefined : JSON.stringify(step.body)
    const request = (base: string, key: string, url: string, payload: string | undefined) =>
      new Request(`${base}${url}`, {
        method: step.method,
        headers: {
          authorization: `Bearer ${key}`,
          accept: 'application/json',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { body: payload }),
      })
    const up = await exchange(
      () => this.upstreamFetch(request(this.upstreamBase, keys.upstream, path, body)),
      step.method,
      path,
    )
    // No answer at all is a connection error of the run (exit 2), not a difference of the mock.
    if (up.status === null)
      throw new CompareError(`${this.upstreamBase} stopped answering at step ${name}: ${String(up.body)}`)
    const mockPath = this.ids.toMock(path)
    const mockBody = body === undefined ? undefined : this.ids.toMock(body)
    const mock = await exchange(
      () => this.mock.fetch(request(this.mock.baseUrl, keys.mock, mockPath, mockBody)),
      step.method,
      mockPath,
    )
    const result = compareExchange(name, up, mock, { ids: this.ids, openapi: this.openapi })
    this.results.push(result)
    return up
  }

  async run(step: PlannedStep): Promise<void> {
    const keys = this.keysFor(step)
    if (!keys) return
    if (!step.walk) {
      await this.step(step.name, step, step.path, keys)
      return
    }
    // Every page, then the first page past the end (empty upstream `data`), or the first refusal.
    for (let page = 1; page <= 100_000; page++) {
      const path = `${step.path}${step.path.includes('?') ? '&' : '?'}page=${page}`
      const up = await this.step(`${step.name}.page-${page}`, step, path, keys)
      const data = (up.body as { data?: unknown } | null)?.data
      if (up.status !== 200 || !Array.isArray(data) || data.length === 0) return
    }
  }
}

/** Imports the upstream, starts a mock from the import and runs the scenario against both. */
export async function compareAccounts(options: CompareOptions): Promise<CompareResult> {
  const scenario = options.scenario ?? 'read'
  if (!(scenario in SCENARIOS))
    throw new CompareError(`--scenario must be one of ${Object.keys(SCENARIOS).join(', ')}`)
  if (options.keys.length === 0) throw new CompareError('--key is required')
  for (const key of options.keys) {
    if (keyMode(key) === undefined)
      throw new CompareError(
        '--key: not a reseller API key (svc_live_… or svc_test_…; the key was not shown)',
      )
  }
  if (scenario === 'sandbox' && options.keys.some((key) => keyMode(key) !== 'sandbox'))
    throw new CompareError(
      '--scenario sandbox needs sandbox keys (svc_test_…): a live key would change the account',
    )
  const say = options.onProgress ?? (() => {})
  let imported: { seed: SeedInput; keys: ImportedKey[] }
  try {
    imported = await importAccount({
      baseUrl: options.upstream,
      keys: options.keys,
      webhooks: options.webhooks ?? [],
      ...(options.fetch ? { fetch: options.fetch } : {}),
      onProgress: say,
    })
  } catch (error) {
    if (error instanceof ImportError) throw new CompareError(error.message)
    throw error
  }
  const mock = createMockApi({ seed: imported.seed })
  const controls = createControlClient({ baseUrl: mock.baseUrl, fetch: mock.fetch })
  const openapi = (await controls.openapi()) as OpenApiLike
  const pairs: KeyPair[] = imported.keys.map((k) => ({
    upstream: options.keys[k.given]!,
    mock: k.key,
    scopes: k.scopes,
  }))
  const upstreamBase = options.upstream.replace(/\/+$/, '')
  const run = new ScenarioRun(
    upstreamBase,
    options.fetch ?? globalThis.fetch,
    mock,
    openapi,
    pairs,
    imported.seed,
  )
  const steps = planSteps(SCENARIOS[scenario], placeholdersOf(imported.seed))
  say(`compare: ${scenario} scenario, ${steps.length} steps (walks expand to every page)`)
  for (const step of steps) await run.run(step)
  return { steps: run.results, seed: imported.seed }
}
