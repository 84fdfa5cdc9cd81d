// A page or a Worker that imports the mock bundles with no bundler configuration: the browser and
// edge build never meets node:http, and the node build keeps its `node:` specifiers as written.
// Runs against the built package (`pnpm build`), resolved as a consumer resolves it.
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { createMockApi } from '../../src/index.js'

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url))
const dist = fileURLToPath(new URL('../../dist/', import.meta.url))

const page = `
import { createMockApi } from '@reseller-api/mock'
export const mock = createMockApi()
`

/** Bundles the page as a bundler with these settings would, from the repository root. */
async function bundle(options: { platform: 'browser' | 'neutral'; conditions?: string[] }) {
  const result = await build({
    stdin: { contents: page, resolveDir: repoRoot, loader: 'js' },
    bundle: true,
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    platform: options.platform,
    conditions: options.conditions,
    // What wrangler and Vite look at for a package without `exports` (here: every dependency has them).
    mainFields: ['browser', 'module', 'main'],
  })
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) }
}

/** Every Node built-in a bundle pulls in, whichever way it is written. */
const NODE_IMPORT =
  /(?:from\s*|import\s*\(\s*|require\s*\(\s*)["'](?:node:[\w/]+|http|https|net|fs|dns|url)["']/

// esbuild bundles the whole package per test: seconds on a loaded machine, not the default 5.
describe('bundling @reseller-api/mock', { timeout: 30_000 }, () => {
  it('for the browser (esbuild, platform browser): succeeds, no node: or http import', async () => {
    const { code, inputs } = await bundle({ platform: 'browser' })
    expect(inputs.some((input) => input.includes('packages/mock/dist/index.js'))).toBe(true)
    expect(inputs.some((input) => input.includes('packages/mock/dist/node.js'))).toBe(false)
    expect(code).not.toMatch(NODE_IMPORT)
  })

  it('for workerd (the conditions wrangler sets): succeeds, no node: import', async () => {
    const { code } = await bundle({ platform: 'neutral', conditions: ['workerd', 'worker', 'browser'] })
    expect(code).not.toMatch(NODE_IMPORT)
  })

  it('the browser bundle runs: mock.fetch answers, mock.listen says what to use instead', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mock-bundle-'))
    try {
      const file = join(dir, 'page.mjs')
      await writeFile(file, (await bundle({ platform: 'browser' })).code)
      const { mock } = (await import(pathToFileURL(file).href)) as { mock: ReturnType<typeof createMockApi> }
      const answer = await mock.fetch(`${mock.baseUrl}/api/v1/support/tickets`, {
        headers: { authorization: 'Bearer svc_live_acme_full' },
      })
      expect(answer.status).toBe(200)
      await expect(mock.listen()).rejects.toThrow(/needs node:http.*"node" export condition.*setupWorker/s)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('the node entry keeps node: specifiers as written (tsup would strip them by default)', () => {
    const files = ['node.js', 'cli.js', ...readdirJs()]
    const sources = files.map((file) => readFileSync(join(dist, file), 'utf8'))
    const all = sources.join('\n')
    // node:http itself is reached through process.getBuiltinModule (server/http/builtins.ts).
    expect(all).toMatch(/from ["']node:(?:fs|crypto|net|os)["']/)
    expect(all).not.toMatch(/from ["'](?:http|net|fs|fs\/promises|dns\/promises|url|path)["']/)
  })
})

describe('createMockApi from the default entry (browsers, edge runtimes)', () => {
  it('rejects listen() with an error that names the node condition and the alternatives', async () => {
    const mock = createMockApi()
    await expect(mock.listen({ port: 0 })).rejects.toThrow(/mock\.listen\(\) needs node:http/)
  })
})

function readdirJs(): string[] {
  return readFileSync(join(dist, 'node.js'), 'utf8')
    .match(/["']\.\/(chunk-[\w-]+\.js)["']/g)!
    .map((spec) => spec.slice(3, -1))
}
