/**
 * A full disk under `--state`, on a small tmpfs: a write that cannot be saved answers 500 and is
 * never acknowledged, nor kept: not in memory, not on disk after a restart, so the client's retry
 * makes exactly one; once space returns the mock writes again; after SIGKILL and a restart every
 * acknowledged ticket is there. Needs `mount -t tmpfs` (root, or a container that allows it).
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, startCli } from '../helpers/cli.js'

const KEY = 'svc_live_full'
let dir: string
/** Why the disk-full test cannot run here, or `undefined` once the tmpfs is mounted. */
let cannotMount: string | undefined
const cleanups: Array<() => unknown> = []

beforeAll(async () => {
  assertBuilt()
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-full-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', dir], { stdio: 'pipe' })
  } catch (error) {
    cannotMount = `mount -t tmpfs is not allowed here (${String((error as { stderr?: unknown }).stderr ?? error).trim()})`
  }
})
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})
afterAll(async () => {
  // The mock is stopped by now; its files go with the tmpfs.
  if (!cannotMount) execFileSync('umount', [dir], { stdio: 'pipe' })
  await rm(dir, { recursive: true, force: true })
})

/** Fills the file system of `path` with a file there until a write fails for lack of space. */
async function fill(path: string) {
  const handle = await open(path, 'w')
  const chunk = Buffer.alloc(64 * 1024, 1)
  try {
    for (;;) await handle.write(chunk)
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC')
  }
  // Smaller pieces take what the large ones left.
  try {
    for (;;) await handle.write(Buffer.alloc(512, 1))
  } catch {
    // Full.
  } finally {
    await handle.close()
  }
}

describe('--state on a full disk', { timeout: 120_000 }, () => {
  it('answers 500 while the disk is full, writes again once space returns, and loses nothing acknowledged', async (ctx) => {
    if (cannotMount) ctx.skip(cannotMount)
    const seed = join(dir, 'seed.json')
    const seedFile = await open(seed, 'w')
    await seedFile.writeFile(
      JSON.stringify({
        resellers: [
          { id: 1, name: 'Full', api_keys: [{ key: KEY, scopes: ['support:read', 'support:write'] }] },
        ],
      }),
    )
    await seedFile.close()
    const state = join(dir, 'state.db')
    const args = ['--port', '0', '--quiet', '--seed', seed, '--state', state]
    const launch = async () => {
      const run = await startCli(args)
      cleanups.push(async () => {
        if (run.child.exitCode === null && run.child.signalCode === null) {
          run.child.kill('SIGKILL')
          await run.exited
        }
      })
      const post = async (subject: string) => {
        const res = await fetch(`${run.url}/api/v1/support/tickets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ subject, message: 'x'.repeat(2000), department: 'technical' }),
        })
        return {
          status: res.status,
          body: (await res.json()) as { data?: { ticket_id: string }; error?: { message: string } },
        }
      }
      return { run, post }
    }

    const first = await launch()
    const acknowledged: string[] = []
    for (let i = 0; i < 5; i++) {
      const made = await first.post(`before ${i}`)
      expect(made.status).toBe(201)
      acknowledged.push(made.body.data!.ticket_id)
    }
    const filler = join(dir, 'filler')
    await fill(filler)
    // The WAL may still have room for a few writes; the first that needs more space fails.
    let refused: Awaited<ReturnType<typeof first.post>> | undefined
    let refusedSubject = ''
    for (let i = 0; i < 200 && !refused; i++) {
      const made = await first.post(`full ${i}`)
      if (made.status === 201) acknowledged.push(made.body.data!.ticket_id)
      else {
        refused = made
        refusedSubject = `full ${i}`
      }
    }
    expect(refused?.status).toBe(500)
    expect(refused?.body.error?.message).toMatch(/could not be saved to the state file/)
    expect(refused?.body.error?.message).toMatch(/nothing was changed/)
    /** The subjects of the reseller's tickets the running mock shows. */
    const subjects = async (url: string) => {
      const res = await fetch(`${url}/api/v1/support/tickets?per_page=100`, {
        headers: { authorization: `Bearer ${KEY}` },
      })
      expect(res.status).toBe(200)
      return ((await res.json()) as { data: { subject: string }[] }).data.map((t) => t.subject)
    }
    // An error answer means nothing changed: the refused ticket is not in memory either.
    await rm(filler)
    expect(await subjects(first.run.url)).not.toContain(refusedSubject)
    // The client retries after the 500: one ticket, not two.
    const retried = await first.post(refusedSubject)
    expect(retried.status).toBe(201)
    acknowledged.push(retried.body.data!.ticket_id)
    expect((await subjects(first.run.url)).filter((s) => s === refusedSubject)).toHaveLength(1)

    const after = await first.post('space again')
    expect(after.status).toBe(201)
    acknowledged.push(after.body.data!.ticket_id)
    // The journal tells what the client saw: the 500, not the 201 the handler had prepared (read
    // once space is back: while a write fails, every answer, the journal's included, is the 500).
    const journal = (await (await fetch(`${first.run.url}/__mock/requests?method=POST`)).json()) as {
      data: { status: number; error_code: string | null; response: { status: number } }[]
    }
    const failed = journal.data.filter((entry) => entry.status !== 201)
    expect(failed).toEqual([
      expect.objectContaining({
        status: 500,
        error_code: 'internal_error',
        response: expect.objectContaining({ status: 500 }),
      }),
    ])
    first.run.child.kill('SIGKILL')
    await first.run.exited

    const second = await launch()
    const res = await fetch(`${second.run.url}/__mock/state`)
    const stored = new Set(
      ((await res.json()) as { data: { tables: { tickets: { uuid: string }[] } } }).data.tables.tickets.map(
        (t) => t.uuid,
      ),
    )
    for (const uuid of acknowledged) expect(stored).toContain(uuid)
    expect((await subjects(second.run.url)).filter((s) => s === refusedSubject)).toHaveLength(1)
  })
})
