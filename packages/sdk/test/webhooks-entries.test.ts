// The built webhooks entries (dist/, which the root `pnpm test` builds first): what they load, what
// their declarations reference, and how package.json exposes them.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const WEB_ENTRY = join(dist, 'webhooks/index.js')
const NODE_ENTRY = join(dist, 'webhooks/node.js')

beforeAll(() => {
  if (!existsSync(WEB_ENTRY) || !existsSync(NODE_ENTRY)) {
    throw new Error('dist/webhooks is missing: build first (`pnpm --filter @reseller-api/sdk run build`)')
  }
})

// Runs in a fresh Node: records every module the import resolves, through the in-thread module
// hooks (module.registerHooks, Node ≥ 22.15), then prints them as JSON.
const RECORD_IMPORTS = `
import { registerHooks } from 'node:module'
const loaded = []
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context)
    loaded.push({ specifier, url: result.url })
    return result
  },
})
const target = process.env.IMPORT_TARGET
await import(target)
process.stdout.write(JSON.stringify(loaded))
`

function modulesLoadedBy(target: string): { specifier: string; url: string }[] {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', RECORD_IMPORTS], {
    cwd: root,
    env: { ...process.env, IMPORT_TARGET: target },
    encoding: 'utf8',
  })
  if (run.status !== 0) throw new Error(`import of ${target} failed:\n${run.stderr}`)
  return JSON.parse(run.stdout)
}

const isKy = (m: { specifier: string; url: string }) =>
  m.specifier === 'ky' ||
  m.specifier.startsWith('ky/') ||
  /\/node_modules\/(\.pnpm\/ky@[^/]+\/node_modules\/)?ky\//.test(m.url)

describe('importing the built webhooks entry', () => {
  it('detects ky when something does load it: ky itself, and the main entry (controls for the checks below)', () => {
    expect(modulesLoadedBy('ky').some(isKy)).toBe(true)
    expect(modulesLoadedBy(pathToFileURL(join(dist, 'index.js')).href).some(isKy)).toBe(true)
  })

  it.each([
    ['default (web) entry', WEB_ENTRY],
    ['node entry', NODE_ENTRY],
  ])('%s loads no ky, only its own chunks and zod', (_name, entry) => {
    const loaded = modulesLoadedBy(pathToFileURL(entry).href)
    expect(loaded.filter(isKy)).toEqual([])
    const outside = loaded
      .map((m) => m.url)
      .filter((url) => !url.startsWith(pathToFileURL(dist).href) && !url.startsWith('node:'))
    for (const url of outside)
      expect(url).toMatch(/\/node_modules\/(\.pnpm\/zod@[^/]+\/node_modules\/)?zod\//)
  })

  it('the default entry imports no node: built-in; the node entry only node:buffer and node:process (node:crypto at first use)', () => {
    const builtins = (entry: string) =>
      modulesLoadedBy(pathToFileURL(entry).href)
        .map((m) => m.url)
        .filter((url) => url.startsWith('node:'))
    expect(builtins(WEB_ENTRY)).toEqual([])
    expect(new Set(builtins(NODE_ENTRY))).toEqual(new Set(['node:buffer', 'node:process']))
  })

  it('the package name resolves to the node entry in Node', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "process.stdout.write(import.meta.resolve('@reseller-api/sdk/webhooks'))",
      ],
      { cwd: root, encoding: 'utf8' },
    )
    expect(run.stdout).toBe(pathToFileURL(NODE_ENTRY).href)
  })

  it('both entries export the same names', async () => {
    const [webModule, nodeModule] = await Promise.all([import(WEB_ENTRY), import(NODE_ENTRY)])
    expect(Object.keys(nodeModule).sort()).toEqual(Object.keys(webModule).sort())
    expect(Object.keys(webModule).sort()).toEqual([
      'DEFAULT_MAX_BODY_BYTES',
      'DELIVERY_ID_HEADER',
      'EVENT_HEADER',
      'SIGNATURE_HEADER',
      'WebCryptoUnavailableError',
      'WebhookPayloadError',
      'WebhookUnknownEventError',
      'WebhookVerificationError',
      'constructEvent',
      'createFetchHandler',
      'createNodeHandler',
      'generateTestDelivery',
      'isWebhookPayloadError',
      'isWebhookUnknownEventError',
      'isWebhookVerificationError',
      'sampleEventData',
      'signPayload',
      'verifySignature',
    ])
  })
})

describe('the webhooks type declarations', () => {
  /** The module specifiers a declaration file imports, comments (and their examples) left out. */
  function importsOf(file: string): string[] {
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
    return [...code.matchAll(/(?:from|import)\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!)
  }

  /** Every declaration file reachable from `file` through relative imports, `file` included. */
  function declarationGraph(file: string, seen = new Set<string>()): Set<string> {
    if (seen.has(file)) return seen
    seen.add(file)
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('.'))
        declarationGraph(resolve(dirname(file), specifier.replace(/\.js$/, '.d.ts')), seen)
    }
    return seen
  }

  it('reference neither node: modules, @types/express nor ky: users need no extra type packages', () => {
    const files = [...declarationGraph(join(dist, 'webhooks/index.d.ts'))]
    expect(files.length).toBeGreaterThan(1)
    for (const file of files) {
      expect(
        importsOf(file).filter((s) => !s.startsWith('.') && s !== 'zod/mini'),
        file,
      ).toEqual([])
      expect(readFileSync(file, 'utf8')).not.toMatch(/reference types=/)
    }
  })
})

describe('package.json exports', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

  it('picks the webhooks implementation by condition: types first, node, default last', () => {
    const entry = pkg.exports['./webhooks']
    expect(Object.keys(entry)).toEqual(['types', 'node', 'default'])
    expect(entry).toEqual({
      types: './dist/webhooks/index.d.ts',
      node: './dist/webhooks/node.js',
      default: './dist/webhooks/index.js',
    })
    for (const target of Object.values(entry) as string[])
      expect(existsSync(join(root, target)), target).toBe(true)
  })

  it('binds `#crypto` by the same conditions, to source files that the builds resolve away', () => {
    expect(pkg.imports['#crypto']).toEqual({
      node: './src/webhooks/crypto-node.ts',
      default: './src/webhooks/crypto-web.ts',
    })
    expect(pkg.files).not.toContain('src')
    for (const entry of [WEB_ENTRY, NODE_ENTRY]) expect(readFileSync(entry, 'utf8')).not.toMatch(/['"]#/)
  })

  it('every entry offers types and default (so require() of the ESM build matches too)', () => {
    for (const [key, entry] of Object.entries(pkg.exports)) {
      if (typeof entry === 'string') continue
      expect(Object.keys(entry as object), key).toContain('types')
      expect(Object.keys(entry as object)[0], key).toBe('types')
      expect(Object.keys(entry as object).at(-1), key).toBe('default')
    }
  })

  it('the built entries use no top-level await (require() of them must work)', () => {
    const run = spawnSync(
      process.execPath,
      [
        '-e',
        `const w = require(${JSON.stringify(WEB_ENTRY)}); const n = require(${JSON.stringify(NODE_ENTRY)});
         if (typeof w.verifySignature !== 'function' || typeof n.verifySignature !== 'function') process.exit(1)`,
      ],
      { cwd: root, encoding: 'utf8' },
    )
    expect(run.stderr).not.toMatch(/ERR_REQUIRE_ASYNC_MODULE/)
    expect(run.status).toBe(0)
  })
})
