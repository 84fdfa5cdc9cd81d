// A compaction that becomes ready while an append is still being fsynced: the records queued
// behind that append are in the new snapshot already and must not be appended after it as well
// (a replay would apply them twice; a delete-and-insert-again record would then move its row).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { createStateLog, readStateFile, STATE_FORMAT, STATE_VERSION } from '../../src/server/state-file.js'

/** While `held`, the fsync of appends (the log's own handle, opened with 'a') waits for `release`. */
const gate = vi.hoisted(() => ({ held: false, blocked: false, release: () => {} }))

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>()
  return {
    ...fs,
    open: async (...args: Parameters<typeof fs.open>) => {
      const handle = await fs.open(...args)
      if (args[1] === 'a') {
        const datasync = handle.datasync.bind(handle)
        handle.datasync = async () => {
          if (gate.held) {
            gate.blocked = true
            await new Promise<void>((resolve) => {
              gate.release = resolve
            })
          }
          return datasync()
        }
      }
      return handle
    },
  }
})

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-race-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 5))
  expect(done()).toBe(true)
}

it('records covered by a compaction’s snapshot are not appended again after the swap', async () => {
  const path = join(dir, 'state.json')
  const applied: number[] = []
  const snapshot = () =>
    `${JSON.stringify({ format: STATE_FORMAT, version: STATE_VERSION, saved_at: '', seed: null, state: { applied } })}\n`
  // Compact as soon as the log holds anything.
  const log = createStateLog(path, { snapshot, compactMinBytes: 0, compactRatio: 0 })
  await log.durable()
  const write = (i: number) => {
    applied.push(i)
    log.append({ i })
  }
  write(1)
  // Settled by the batch that schedules a compaction (it starts on the next turn of the loop).
  await log.durable()
  gate.held = true
  write(2)
  // Let the loop take record 2 as its batch (microtasks only: the compaction must not start yet).
  for (let i = 0; i < 20; i++) await Promise.resolve()
  // Queued behind it: the compaction's snapshot, taken next, holds it.
  write(3)
  const done = log.durable()
  await until(() => gate.blocked)
  // The compaction writes its temp file meanwhile: once it holds the whole snapshot (then an fsync
  // and it is ready), let the append finish.
  const expected = snapshot()
  const tempHolds = async () => {
    for (const name of await readdir(dir)) {
      if (name.endsWith('.tmp') && (await readFile(join(dir, name), 'utf8').catch(() => '')) === expected)
        return true
    }
    return false
  }
  for (let i = 0; i < 200 && !(await tempHolds()); i++) await new Promise((r) => setTimeout(r, 5))
  await new Promise((r) => setTimeout(r, 50))
  gate.held = false
  gate.release()
  await done
  await log.close()
  expect(log.stats.compactions).toBe(1)
  const loaded = await readStateFile(path)
  const state = loaded!.state as { applied: number[] }
  const replayed = [...state.applied, ...loaded!.records.map((r) => (r as { i: number }).i)]
  expect(replayed).toEqual([1, 2, 3])
})
