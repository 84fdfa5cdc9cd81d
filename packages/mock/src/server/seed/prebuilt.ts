/**
 * The demo seed prepared at build time. Parsing the demo seed and validating its rows
 * (`prepareSeed`, seed/prepared.ts) was the standalone server's largest share of its own start;
 * the build (scripts/demo-seed-prepared.mjs) writes its result to `dist/demo-seed.json`, which the
 * binary carries as a SEA asset, and the server's start takes it instead. Without the file (a
 * build that skipped it), or when it was made from another demo seed than this one, nothing
 * changes: the seed is prepared at start as before.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { demoSeed } from '../../seed/demo.js'
import { adoptPreparedSeed, type PreparedSeed } from '../../seed/prepared.js'

/** The SEA asset's name and the file's, in `dist/`. */
export const PREBUILT_DEMO_SEED = 'demo-seed.json'

/** What the build writes. */
interface Prebuilt {
  /** `JSON.stringify(demoSeed)` of the sources it was built from. */
  readonly input: string
  readonly randomSeed: string | number
  readonly prepared: PreparedSeed
}

/** The file's text: the single executable's asset, else the package's `dist/` (beside the bundled CLI, or from the sources). */
function readPrebuilt(): string | undefined {
  const sea = process.getBuiltinModule('node:sea')
  if (sea?.isSea()) {
    try {
      return sea.getAsset(PREBUILT_DEMO_SEED, 'utf8')
    } catch {
      return undefined
    }
  }
  // Empty in a CommonJS bundle (the binary's, whose assets come first).
  const base = import.meta.url as string | undefined
  if (base === undefined) return undefined
  for (const candidate of [`./${PREBUILT_DEMO_SEED}`, `../../../dist/${PREBUILT_DEMO_SEED}`]) {
    const url = new URL(candidate, base)
    if (url.protocol === 'file:' && existsSync(url)) return readFileSync(fileURLToPath(url), 'utf8')
  }
  return undefined
}

/** Makes the prepared demo seed of the build the one `prepareSeed(demoSeed, randomSeed)` returns. */
export function usePrebuiltDemoSeed(): void {
  const text = readPrebuilt()
  if (text === undefined) return
  const prebuilt = JSON.parse(text) as Prebuilt
  // Built from other sources (a stale dist/): preparing at start stays right.
  const json = JSON.stringify(demoSeed)
  if (prebuilt.input !== json) return
  adoptPreparedSeed(demoSeed, prebuilt.randomSeed, prebuilt.prepared, json)
}
