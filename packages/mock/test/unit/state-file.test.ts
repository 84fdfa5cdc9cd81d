import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createStateLog,
  encodeRecord,
  readStateFile,
  removeStaleTempFiles,
  STATE_FORMAT,
  STATE_VERSION,
  StateFileError,
} from '../../src/server/state-file.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-state-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const header = (state: unknown, seed: unknown = null) =>
  `${JSON.stringify({ format: STATE_FORMAT, version: STATE_VERSION, saved_at: new Date(0).toISOString(), seed, state })}\n`

describe('state file (snapshot + log)', () => {
  it('reads a missing file as undefined (start from the seed)', async () => {
    expect(await readStateFile(join(dir, 'nope.json'))).toBeUndefined()
  })

  it('reads the snapshot, the recorded seed and every record in order', async () => {
    const path = join(dir, 'state.json')
    await writeFile(path, header({ n: 0 }, { resellers: [] }))
    await appendFile(path, Buffer.concat([encodeRecord({ n: 1 }), encodeRecord({ n: 'zwei ü' })]))
    const loaded = await readStateFile(path)
    expect(loaded).toMatchObject({ version: 2, seed: { resellers: [] }, state: { n: 0 } })
    expect(loaded!.records).toEqual([{ n: 1 }, { n: 'zwei ü' }])
    expect(loaded!.dropped).toBeUndefined()
    expect(loaded!.snapshotBytes + loaded!.logBytes).toBe((await stat(path)).size)
  })

  it.each([
    ['cut in the middle of a record', (r: Buffer) => r.subarray(0, r.length - 7)],
    ['cut before its newline', (r: Buffer) => r.subarray(0, r.length - 1)],
    ['damaged (checksum mismatch)', (r: Buffer) => Buffer.from(r.toString().replace('"b"', '"c"'))],
  ])('drops a last record %s, reporting it, never as data', async (_, damage) => {
    const path = join(dir, 'state.json')
    const good = encodeRecord({ a: 1 })
    await writeFile(path, Buffer.concat([Buffer.from(header({})), good, damage(encodeRecord({ b: 2 }))]))
    const loaded = await readStateFile(path)
    expect(loaded!.records).toEqual([{ a: 1 }])
    expect(loaded!.dropped).toMatch(/last record/)
    expect(loaded!.snapshotBytes + loaded!.logBytes).toBe(Buffer.byteLength(header({})) + good.length)
  })

  it('refuses a damaged record before the end, leaving the file untouched', async () => {
    const path = join(dir, 'state.json')
    const bad = Buffer.from(encodeRecord({ a: 1 }).toString().replace('"a"', '"x"'))
    const content = Buffer.concat([Buffer.from(header({})), bad, encodeRecord({ b: 2 })])
    await writeFile(path, content)
    const error = await readStateFile(path).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StateFileError)
    expect((error as Error).message).toMatch(
      /record at byte \d+ is damaged \(checksum mismatch\) and is not the last one/,
    )
    expect(await readFile(path)).toEqual(content)
  })

  it('reads a version 1 file (one JSON document, pretty-printed or not)', async () => {
    const path = join(dir, 'state.json')
    const v1 = { format: STATE_FORMAT, version: 1, saved_at: 'x', state: { t: 1 } }
    await writeFile(path, JSON.stringify(v1, null, 2))
    expect(await readStateFile(path)).toMatchObject({
      version: 1,
      seed: undefined,
      state: { t: 1 },
      records: [],
    })
  })

  it.each([
    ['not JSON', '{"format": ', /is not valid JSON/],
    ['empty', '', /is empty/],
    ['an array', '[]', /is not a JSON object/],
    ['another format', '{"format":"x"}', /is not a reseller-mock state file/],
    // JSON lines of something else: the first line says what the file is, before any "record".
    [
      'JSON lines of another format',
      '{"level":"info"}\n{"level":"warn"}\n{"level":"error"}\n',
      /is not a reseller-mock state file/,
    ],
    [
      'a version 99 file with lines after it',
      `${JSON.stringify({ format: STATE_FORMAT, version: 99, state: {} })}\nmore\nlines\n`,
      /has version 99/,
    ],
    ['another version', JSON.stringify({ format: STATE_FORMAT, version: 99, state: {} }), /has version 99/],
    [
      'without state',
      JSON.stringify({ format: STATE_FORMAT, version: 2, seed: null }),
      /"state" must be an object/,
    ],
    [
      'without seed',
      JSON.stringify({ format: STATE_FORMAT, version: 2, state: {} }),
      /"seed" must be an object or null/,
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
})

describe('state log writer', () => {
  it('writes the file first, then appends; durable() resolves once on disk and is undefined when idle', async () => {
    const path = join(dir, 'state.json')
    const log = createStateLog(path, { snapshot: () => header({ s: 1 }) })
    await log.durable()
    expect(log.durable()).toBeUndefined()
    log.append({ r: 1 })
    const wait = log.durable()
    expect(wait).toBeInstanceOf(Promise)
    await wait
    expect((await readStateFile(path))!.records).toEqual([{ r: 1 }])
    await log.close()
    expect(await readdir(dir)).toEqual(['state.json'])
  })

  it('group commit: records that arrive while an fsync runs share the next one', async () => {
    const path = join(dir, 'state.json')
    const log = createStateLog(path, { snapshot: () => header({}) })
    await log.durable()
    const waits: Promise<void>[] = []
    // 50 writers, each appending and waiting, arriving over several event-loop turns.
    for (let i = 0; i < 50; i++) {
      log.append({ i })
      waits.push(log.durable()!)
      if (i % 10 === 9) await new Promise((r) => setImmediate(r))
    }
    await Promise.all(waits)
    expect(log.stats.records).toBe(50)
    expect(log.stats.syncs).toBeGreaterThan(0)
    expect(log.stats.syncs).toBeLessThanOrEqual(10)
    expect((await readStateFile(path))!.records.map((r) => (r as { i: number }).i)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    )
    await log.close()
  })

  it('compaction: a new snapshot replaces the log and keeps records appended meanwhile', async () => {
    const path = join(dir, 'state.json')
    // The "state" is the list of applied records; the snapshot holds it whole.
    const applied: number[] = []
    const log = createStateLog(path, { snapshot: () => header({ applied }), compactMinBytes: 2000 })
    await log.durable()
    for (let i = 0; i < 300; i++) {
      applied.push(i)
      log.append({ i, pad: 'x'.repeat(40) })
      if (i % 7 === 0) await log.durable()
    }
    await log.durable()
    await log.close()
    expect(log.stats.compactions).toBeGreaterThan(0)
    const loaded = await readStateFile(path)
    const state = loaded!.state as { applied: number[] }
    const replayed = [...state.applied, ...loaded!.records.map((r) => (r as { i: number }).i)]
    // Every record exactly once, in order: snapshot + log = everything appended.
    expect(replayed).toEqual(Array.from({ length: 300 }, (_, i) => i))
    // Folded into a snapshot: fewer records left than were appended.
    expect(loaded!.records.length).toBeLessThan(300)
    expect(await readdir(dir)).toEqual(['state.json'])
  })

  it('replaceAll() rewrites the whole file: the records before it are gone', async () => {
    const path = join(dir, 'state.json')
    let s = 1
    const log = createStateLog(path, { snapshot: () => header({ s }) })
    log.append({ r: 1 })
    await log.durable()
    s = 2
    log.replaceAll()
    await log.durable()
    expect(await readStateFile(path)).toMatchObject({ state: { s: 2 }, records: [] })
    expect(log.stats.rewrites).toBe(2)
    await log.close()
  })

  it('rejects durable() when the directory does not exist, and recovers once it does', async () => {
    const log = createStateLog(join(dir, 'missing', 'state.json'), { snapshot: () => header({}) })
    await expect(log.durable()).rejects.toThrow(/ENOENT/)
    const ok = createStateLog(join(dir, 'state.json'), { snapshot: () => header({}) })
    await expect(ok.durable()).resolves.toBeUndefined()
    await ok.close()
  })
})

describe('state log writer after a failed write', () => {
  // The directory vanishes under a running log, then comes back: the append fails, the state it
  // held is in memory only, and the file must catch up rather than stay behind.
  async function failedAppend() {
    const sub = join(dir, 'sub')
    await mkdir(sub)
    const path = join(sub, 'state.json')
    const applied: number[] = []
    const warnings: string[] = []
    const log = createStateLog(path, {
      snapshot: () => header({ applied }),
      warn: (line) => warnings.push(line),
    })
    await log.durable()
    await rm(sub, { recursive: true })
    applied.push(1)
    log.append({ i: 1 })
    await expect(log.durable()).rejects.toThrow(/ENOENT/)
    await mkdir(sub)
    return { log, path, warnings }
  }

  it('the next durable() (a read) writes the whole state again', async () => {
    const { log, path } = await failedAppend()
    const retry = log.durable()
    expect(retry).toBeInstanceOf(Promise)
    await retry
    expect(await readStateFile(path)).toMatchObject({ state: { applied: [1] }, records: [] })
    expect(log.durable()).toBeUndefined()
    await log.close()
  })

  it('close() writes the whole state again; nothing is written after it', async () => {
    const { log, path, warnings } = await failedAppend()
    await log.close()
    expect(warnings).toEqual([])
    expect(await readStateFile(path)).toMatchObject({ state: { applied: [1] }, records: [] })
    const size = (await stat(path)).size
    log.append({ i: 2 })
    expect(log.durable()).toBeUndefined()
    await new Promise((r) => setTimeout(r, 20))
    expect((await stat(path)).size).toBe(size)
  })

  it('close() reports a write that fails again, and still resolves', async () => {
    const { log, warnings } = await failedAppend()
    await rm(join(dir, 'sub'), { recursive: true })
    await log.close()
    expect(warnings).toEqual([expect.stringMatching(/could not save the state file .*ENOENT/)])
  })
})

describe('stale temp files', () => {
  it('removes temp files of this state file whose process is gone, keeps live ones and others', async () => {
    const path = join(dir, 'st.json')
    const dead = 2 ** 22 + 12345 // above Linux's default pid_max: no such process
    const names = [
      `.st.json.${dead}.0a1b2c3d.tmp`,
      `.st.json.${process.pid}.deadbeef.tmp`,
      `.other.json.${dead}.0a1b2c3d.tmp`,
      'st.json',
    ]
    for (const name of names) await writeFile(join(dir, name), 'x')
    expect(await removeStaleTempFiles(path)).toEqual([names[0]])
    expect((await readdir(dir)).sort()).toEqual(names.slice(1).sort())
  })
})
