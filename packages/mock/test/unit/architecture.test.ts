// The structure of both packages, as packages/mock/src/ARCHITECTURE.md ("Layers") states it: the
// rules of .dependency-cruiser.cjs at the repository's root (layers, the SDK's schemas at its bottom,
// no node: module under the default entry, an SDK that imports nothing of the mock, no import cycle,
// type imports included), checked to fail when broken, and small source files.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser'
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
const SOURCES = ['packages/mock/src', 'packages/sdk/src']
const MAX_LINES = 400

/**
 * Files over {@link MAX_LINES} lines that their owners are splitting, with their length today: a
 * listed file may shrink, never grow, and leaves the list once it fits.
 */
const BEING_SPLIT: Record<string, number> = {}

/** One line per broken rule: `rule: from → to` (a cycle: its modules in order). */
function describeViolation(violation: IViolation): string {
  const path = violation.cycle?.map((step) => step.name) ?? violation.via?.map((step) => step.name)
  const chain =
    path && path.length > 0 ? [violation.from, ...path].join(' → ') : `${violation.from} → ${violation.to}`
  return `${violation.rule.name}: ${chain}`
}

/**
 * Runs dependency-cruiser over `sources` (default: both packages' sources) with the repository's
 * rules, from `root` (default: the repository; a scratch tree has no tsconfig to resolve with).
 */
async function cruiseSources(sources: string[] = SOURCES, root = ROOT): Promise<string[]> {
  const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs'))
  const { tsConfig, ...options } = config.options
  const cwd = process.cwd()
  // dependency-cruiser names modules (and matches rule paths) relative to the working directory.
  process.chdir(root)
  try {
    const result = await cruise(
      sources,
      { ...options, ruleSet: { forbidden: config.forbidden }, validate: true },
      undefined,
      root === ROOT ? { tsConfig: extractTSConfig(join(ROOT, tsConfig.fileName)) } : undefined,
    )
    const output = result.output as ICruiseResult
    return output.summary.violations.map(describeViolation)
  } finally {
    process.chdir(cwd)
  }
}

/** The rules broken by `files` (path from the repository's root → text), laid out in a scratch tree. */
async function violationsIn(files: Record<string, string>): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), 'architecture-'))
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, name)), { recursive: true })
      writeFileSync(join(root, name), text)
    }
    return await cruiseSources(SOURCES, root)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|cts|js|mjs)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
}

describe('the architecture of the two packages', () => {
  it('keeps its layers, has no import cycle and keeps the SDK free of the mock', async () => {
    expect(await cruiseSources(), 'dependency rules broken (.dependency-cruiser.cjs)').toEqual([])
  }, 60_000)

  it("has rules that fail when broken: the SDK's schemas under core/, control/ on the running mock", async () => {
    expect(
      await violationsIn({
        'packages/sdk/src/core/endpoint.ts': 'export const API_BASE = "/api/v1"\n',
        'packages/sdk/src/schemas/index.ts': 'export { API_BASE } from "../core/endpoint"\n',
        'packages/mock/src/routing/route.ts': 'export const route = 1\n',
        'packages/mock/src/control/operations.ts': 'export { route } from "../routing/route"\n',
      }),
    ).toEqual([
      'control-declarations-and-client-stand-alone: packages/mock/src/control/operations.ts → packages/mock/src/routing/route.ts',
      'sdk-schemas-are-the-bottom-layer: packages/sdk/src/schemas/index.ts → packages/sdk/src/core/endpoint.ts',
    ])
  }, 60_000)

  it('has no source file over 400 lines', () => {
    const tooLong: string[] = []
    const shrunk: string[] = []
    const seen = new Set<string>()
    for (const file of SOURCES.flatMap((dir) => sourceFiles(join(ROOT, dir)))) {
      const name = relative(ROOT, file)
      const lines = readFileSync(file, 'utf8').match(/\n/g)?.length ?? 0
      const allowed = BEING_SPLIT[name] ?? MAX_LINES
      if (lines > allowed) tooLong.push(`${name}: ${lines} lines (at most ${allowed})`)
      if (name in BEING_SPLIT && lines <= MAX_LINES) shrunk.push(`${name} fits now: take it off BEING_SPLIT`)
      seen.add(name)
    }
    for (const name of Object.keys(BEING_SPLIT)) {
      if (!seen.has(name)) shrunk.push(`${name} is gone: take it off BEING_SPLIT`)
    }
    expect([...tooLong, ...shrunk]).toEqual([])
  })
})
