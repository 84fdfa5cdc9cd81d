#!/usr/bin/env node
// Checks what docs/without-node.md promises of the binary and the image: a rebuild of the same commit
// on the same machine gives the same bytes and digests, the binary's code cache is accepted (V8
// refuses a cache made under other flags, and the binary then starts slower, with a warning), and the
// image layout is readable by any user (`skopeo inspect` as nobody, when run as root).
//
// Run after `pnpm run build:binary` and `pnpm run build:image` (CI: after them, before the black-box
// suite): it notes what they wrote, builds both again (scripts/build-binary.mjs without its timing,
// scripts/build-image.mjs) and compares. Exit 1 on any difference, naming it.
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const binary = join(root, 'packages/mock/dist-bin/reseller-mock')
const layout = join(root, 'packages/mock/dist-image')
const dockerArchive = join(layout, 'reseller-mock.docker.tar')

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex')

/** What a rebuild must reproduce: the binary's bytes, the image's manifest digest, the archive's bytes. */
function fingerprint() {
  const index = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8'))
  return {
    binary: `sha256:${sha256(binary)}`,
    'image manifests': index.manifests
      .map((m) => `${m.annotations?.['org.opencontainers.image.ref.name']} ${m.digest}`)
      .join(', '),
    'docker archive': `sha256:${sha256(dockerArchive)}`,
  }
}

const problems = []

for (const file of [binary, join(layout, 'index.json'), dockerArchive]) {
  if (!existsSync(file)) {
    console.error(
      `${relative(root, file)} is missing: run pnpm run build:binary and pnpm run build:image first`,
    )
    process.exit(1)
  }
}

// The code cache: V8 warns "Code cache data rejected" on stderr when it refuses it.
const version = spawnSync(binary, ['--version'], { encoding: 'utf8', env: {} })
if (version.status !== 0 || version.stderr !== '')
  problems.push(`the binary's --version wrote to stderr (exit ${version.status}): ${version.stderr.trim()}`)

// Every file of the layout readable by others; and, as root, skopeo reading it as nobody.
for (const entry of readdirSync(layout, { recursive: true, withFileTypes: true })) {
  const path = join(entry.parentPath, entry.name)
  const mode = statSync(path).mode & 0o777
  const wanted = entry.isDirectory() ? 0o005 : 0o004
  if ((mode & wanted) !== wanted)
    problems.push(`${relative(root, path)} is mode ${mode.toString(8)}: other users cannot read it`)
}
if (process.getuid?.() === 0) {
  // The layout as another user finds it, in a folder any user reaches: the checkout itself may sit
  // below a private folder (mktemp -d makes them 0700), which says nothing of the layout's modes.
  // cp -p keeps each file's mode, which is what is checked.
  const shared = mkdtempSync(join(tmpdir(), 'reseller-mock-layout-'))
  chmodSync(shared, 0o755)
  execFileSync('cp', ['-rp', layout, join(shared, 'layout')])
  const inspect = spawnSync(
    'setpriv',
    [
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      'skopeo',
      'inspect',
      `oci:${join(shared, 'layout')}:latest`,
    ],
    { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/tmp' } },
  )
  rmSync(shared, { recursive: true, force: true })
  if (inspect.status !== 0) problems.push(`skopeo inspect as nobody failed: ${inspect.stderr.trim()}`)
}

const first = fingerprint()
const started = performance.now()
const node = process.execPath
execFileSync(node, [join(root, 'scripts/build-binary.mjs')], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, BUILD_BINARY_NO_TIMING: '1' },
})
execFileSync(node, [join(root, 'scripts/build-image.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] })
const rebuildSeconds = (performance.now() - started) / 1000
const second = fingerprint()
for (const [what, value] of Object.entries(first)) {
  console.log(`${what}: ${value}`)
  if (second[what] !== value) problems.push(`${what} differs on a rebuild: ${value}, then ${second[what]}`)
}
console.log(`rebuilt the binary and the image in ${rebuildSeconds.toFixed(1)} s`)

if (problems.length > 0) {
  for (const problem of problems) console.error(`reproducible-check: ${problem}`)
  process.exit(1)
}
console.log(
  'reproducible-check: the rebuild gave the same binary, image and archive; the layout is readable by all',
)
