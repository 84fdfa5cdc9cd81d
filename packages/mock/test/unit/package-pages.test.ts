// What a package's tarball shows its users, read from the sources (the packed check in
// scripts/consumer-check.sh repeats it on the real tarballs): the README's relative links point to
// files the package ships (a package page has nothing else: `../../docs/…` is a dead link there),
// the manifest's "imports" (after pnpm's publishConfig overrides) name only shipped files, and the
// SDK README's options table lists every option of the client.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const PACKAGES = ['sdk', 'mock'].map((name) => fileURLToPath(new URL(`../../../${name}`, import.meta.url)))

interface Manifest {
  name: string
  files: string[]
  imports?: Record<string, unknown>
  publishConfig?: Record<string, unknown>
}

/** The manifest as pnpm packs it: publishConfig's fields replace the top-level ones. */
function packedManifest(dir: string): Manifest {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest
  const { publishConfig, ...rest } = manifest
  return { ...rest, ...publishConfig } as Manifest
}

/** Whether `path` (relative to the package) is in the tarball: README, package.json, or under `files`. */
function shipped(manifest: Manifest, path: string): boolean {
  const clean = path.replace(/^\.\//, '')
  if (clean === 'package.json' || /^README(\.md)?$/i.test(clean)) return true
  return manifest.files.some((entry) => clean === entry || clean.startsWith(`${entry.replace(/\/$/, '')}/`))
}

/** Every string target of a nested condition map. */
function targets(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (value && typeof value === 'object') return Object.values(value).flatMap(targets)
  return []
}

describe('what the tarballs show', () => {
  it.each(PACKAGES)('%s: every relative link of README.md points to a file the package ships', (dir) => {
    const manifest = packedManifest(dir)
    const readme = readFileSync(join(dir, 'README.md'), 'utf8')
    const dead: string[] = []
    for (const [, target] of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target!)) continue
      const path = relative(dir, resolve(dir, target!.split('#')[0]!))
      if (path.startsWith('..') || !shipped(manifest, path)) dead.push(target!)
    }
    expect(dead, `${manifest.name}: links to files the tarball does not hold`).toEqual([])
  })

  it.each(PACKAGES)('%s: the packed "imports" map only to shipped files', (dir) => {
    const manifest = packedManifest(dir)
    const unshipped = targets(manifest.imports ?? {}).filter((target) => !shipped(manifest, target))
    expect(unshipped, `${manifest.name}: "imports" targets not in the tarball`).toEqual([])
  })

  it('the SDK README lists every option of ResellerApiOptions', () => {
    const sdk = PACKAGES[0]!
    const file = join(sdk, 'src/client.ts')
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
    const options = source.statements.find(
      (s): s is ts.InterfaceDeclaration =>
        ts.isInterfaceDeclaration(s) && s.name.text === 'ResellerApiOptions',
    )!
    const names = options.members.map((m) => (m.name as ts.Identifier).text)
    expect(names).toContain('strictResponses')
    const readme = readFileSync(join(sdk, 'README.md'), 'utf8')
    const table = readme.slice(readme.indexOf('## Options'))
    const listed = [...table.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1])
    expect(names.filter((name) => !listed.includes(name))).toEqual([])
  })

  it('no guide installs the SDK as a dev dependency, and each install of the mock names msw 3', () => {
    const root = fileURLToPath(new URL('../../../../', import.meta.url))
    const guides = execFileSync('git', ['ls-files', '*.md'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((path) => path !== '' && !/(^|\/)(CHANGELOG\.md|\.changeset\/)/.test(path))
    const wrong: string[] = []
    for (const path of guides) {
      for (const line of readFileSync(join(root, path), 'utf8').split('\n')) {
        if (!/^\s*npm (install|i) /.test(line)) continue
        const dev = /\s(--save-dev|-D)\b/.test(line)
        if (dev && /sdk/.test(line.split('#')[0]!)) wrong.push(`${path}: ${line.trim()}`)
        if (/mock/.test(line.split('#')[0]!) && !/\bmsw@3\b/.test(line)) wrong.push(`${path}: ${line.trim()}`)
      }
    }
    expect(wrong).toEqual([])
  })
})
