import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createStateFileWriter,
  readStateFile,
  STATE_FORMAT,
  STATE_VERSION,
  type StateDocument,
  StateFileError,
} from '../src/server/state-file.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-state-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const doc = (state: unknown): StateDocument => ({
  format: STATE_FORMAT,
  version: STATE_VERSION,
  saved_at: new Date(0).toISOString(),
  state: state as object,
})

describe('state file', () => {
  it('reads a missing file as undefined (start from the seed)', async () => {
    expect(await readStateFile(join(dir, 'nope.json'))).toBeUndefined()
  })

  it('round-trips what the writer saved', async () => {
    const path = join(dir, 'state.json')
    const writer = createStateFileWriter(path, () => doc({ tickets: [1, 2] }))
    await writer.save()
    expect(await readStateFile(path)).toEqual(doc({ tickets: [1, 2] }))
  })

  it.each([
    ['not JSON', '{"format": ', /is not valid JSON/],
    ['empty', '', /is empty/],
    ['an array', '[]', /is not a JSON object/],
    ['another format', '{"format":"x"}', /is not a reseller-mock state file/],
    ['another version', JSON.stringify({ format: STATE_FORMAT, version: 99, state: {} }), /has version 99/],
    [
      'without state',
      JSON.stringify({ format: STATE_FORMAT, version: STATE_VERSION }),
      /"state" must be an object/,
    ],
  ])('refuses a file that is %s, naming the file, and leaves it untouched', async (_, content, problem) => {
    const path = join(dir, 'state.json')
    await writeFile(path, content)
    const error = await readStateFile(path).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StateFileError)
    expect((error as Error).message).toMatch(problem)
    expect((error as Error).message).toContain(path)
    expect(await readFile(path, 'utf8')).toBe(content)
  })

  it('writes atomically: no temp file is left and the target is always a whole document', async () => {
    const path = join(dir, 'state.json')
    let n = 0
    const writer = createStateFileWriter(path, () => doc({ n: ++n, pad: 'x'.repeat(100_000) }))
    await Promise.all(Array.from({ length: 20 }, () => writer.save()))
    expect(await readdir(dir)).toEqual(['state.json'])
    const saved = await readStateFile(path)
    // 20 concurrent saves coalesce: the first runs at once, the rest share one more write.
    expect((saved!.state as { n: number }).n).toBe(2)
  })

  it('serializes writes and every save resolves only once a write that started after it is on disk', async () => {
    const path = join(dir, 'state.json')
    let value = 0
    const writer = createStateFileWriter(path, () => doc({ value }))
    const waits: Promise<void>[] = []
    for (let i = 1; i <= 5; i++) {
      value = i
      const expected = i
      waits.push(
        writer.save().then(async () => {
          const saved = await readStateFile(path)
          expect((saved!.state as { value: number }).value).toBeGreaterThanOrEqual(expected)
        }),
      )
    }
    await Promise.all(waits)
  })

  it('rejects save() when the directory does not exist, and recovers once it does', async () => {
    const path = join(dir, 'missing', 'state.json')
    const writer = createStateFileWriter(path, () => doc({}))
    await expect(writer.save()).rejects.toThrow(/ENOENT/)
    const ok = createStateFileWriter(join(dir, 'state.json'), () => doc({}))
    await expect(ok.save()).resolves.toBeUndefined()
  })
})
