// What the developer-loop tests (trigger, listen, resend) share: the line formats they print, a
// seed whose webhooks point nowhere yet, and a bounded pool for running many CLI processes.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { GENERAL_EVENTS, RESELLER_EVENTS } from '@reseller-api/sdk/schemas'
import { runCli } from './cli.js'

/**
 * Runs the CLI to its end: `runCli` with a bound for a loaded machine (each command ends within
 * seconds; a shared 2-core machine can make one take ten).
 */
export const cli = (args: string[]) => runCli(args, 60_000)

/** The local time every line starts with: `2026-01-15 12:00:01`. */
export const TIME = String.raw`\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}`

/** A delivery id as the mock and `trigger` make them. */
export const DELIVERY_ID = 'dlv_[0-9a-f]{32}'

/** Escapes `text` for a RegExp. */
export const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The secret the loop's receivers verify with. */
export const LOOP_SECRET = 'whsec_loop_secret'

/** Every event name of both styles, as `trigger` takes them (`domain.registered` once: reseller style). */
export const EVENT_NAMES = [...new Set<string>([...RESELLER_EVENTS, ...GENERAL_EVENTS, 'test'])]

/** The key of {@link writeLoopSeed}'s reseller: every scope. */
export const LOOP_KEY = 'svc_live_loop'
/** Its sandbox key. */
export const LOOP_SANDBOX_KEY = 'svc_test_loop'
/** A key of a second reseller, which has no webhook. */
export const QUIET_KEY = 'svc_live_quiet'

/**
 * A seed for the loop: reseller 1 with room to provision (10 slots, a wallet of 1,000) and no
 * webhook yet (the demo's point at a closed port), reseller 2 with nothing configured.
 */
export async function writeLoopSeed(dir: string): Promise<string> {
  const all = ['reseller:hosting', 'reseller:webhooks', 'support:read', 'support:write']
  const seed = {
    domain_price: 12.5,
    resellers: [
      {
        id: 1,
        name: 'Loop Hosting',
        wallet_balance: 1000,
        whm: { status: 'online', accounts_limit: 10, disk_limit_mb: 10240, bandwidth_limit_mb: 102400 },
        packages: [
          { name: 'starter', quota: 1024, bandwidth: 10240, maxsql: 1, maxpop: 5, maxftp: 1, maxsub: 1 },
        ],
        clients: [{ id: 501, name: 'Client One', email: 'one@example.com' }],
        api_keys: [
          { key: LOOP_KEY, scopes: all },
          { key: LOOP_SANDBOX_KEY, scopes: all },
          { key: 'svc_live_loop_support', scopes: ['support:read', 'support:write'] },
        ],
      },
      {
        id: 2,
        name: 'Quiet Web',
        whm: { status: 'online', accounts_limit: 2, disk_limit_mb: 1024, bandwidth_limit_mb: 1024 },
        packages: [
          { name: 'basic', quota: 1024, bandwidth: 1024, maxsql: 1, maxpop: 1, maxftp: 1, maxsub: 1 },
        ],
        clients: [{ id: 601, name: 'Quiet Client', email: 'q@example.com' }],
        api_keys: [{ key: QUIET_KEY, scopes: all }],
      },
    ],
  }
  const path = join(dir, 'loop-seed.json')
  await writeFile(path, JSON.stringify(seed))
  return path
}

type Task = () => Promise<unknown>

/** Runs `tasks` with at most `limit` at once (each starts a Node process: the machine has 2 cores). */
export function pool<const T extends readonly [Task, ...Task[]]>(
  tasks: T,
  limit?: number,
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }>
export function pool<R>(tasks: Array<() => Promise<R>>, limit?: number): Promise<R[]>
export async function pool(tasks: readonly Task[], limit = 3): Promise<unknown[]> {
  const results: unknown[] = new Array(tasks.length)
  let next = 0
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++
      results[i] = await tasks[i]!()
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker))
  return results
}

/** A JSON request to the mock (control endpoints without a key). */
export async function mockRequest(base: string, method: string, path: string, body?: unknown, key?: string) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected field by field
  const answer: any = await response.json()
  return { status: response.status, headers: response.headers, body: answer }
}
