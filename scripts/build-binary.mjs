#!/usr/bin/env node
// Writes packages/mock/dist-bin/reseller-mock: the standalone mock as one executable file, a Node
// single executable application (SEA) of the workspace's own Node (the root devDependency `node`),
// for this machine's platform. `pnpm run build:binary` builds the packages first, then runs this.
//
// 1. esbuild bundles packages/mock/src/cli.ts, the npm CLI's own entry, into ONE CommonJS file (a SEA
//    of Node 24 runs a CommonJS main only); the subcommands' dynamic imports are bundled with it.
// 2. The inspector's built script and style (packages/mock/dist/inspector/) and the demo seed
//    prepared at build time (dist/demo-seed.json) become SEA assets, read with `node:sea`'s
//    getAsset: the binary reads nothing beside itself at run time.
// 3. The bundle is an asset too, run by scripts/sea-main.cjs (the SEA's main) with V8's code cache
//    of a start: training runs of that main under the workspace's Node, `trigger --forward-to` then
//    the server's start on the demo seed, write the cache, so it holds every function those run
//    (Node's `useCodeCache` holds only the top level: a start still compiled most of its code).
// 4. `node --experimental-sea-config` writes the blob, and postject injects it into a copy of the
//    Node binary (its symbol table stripped when `strip` exists).
// The same commit, Node and machine give the same bytes (docs/without-node.md): V8 lays out a code
// cache by string hashes, whose seed is random, and a second thread's timing can shift that, so the
// training runs are `--predictable --random-seed=…` (one thread, a fixed seed). V8 refuses a code
// cache made under other flags than its own, but leaves these two out of that check, so the binary
// runs with none (a flag such as `--hash-seed` would also void the code cache of Node's own modules).
// Then it prints the time to the ready line of the binary beside the npm CLI's (docs/without-node.md);
// BUILD_BINARY_NO_TIMING=1 skips that.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, formatMessages } from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const mockDir = join(root, 'packages/mock')
const outDir = join(mockDir, 'dist-bin')
const windows = process.platform === 'win32'
const mac = process.platform === 'darwin'
const binary = join(outDir, windows ? 'reseller-mock.exe' : 'reseller-mock')
const require = createRequire(import.meta.url)

/** The name SEA assets are stored under → the built file. server/inspector/page.ts reads `inspector/<name>`. */
const ASSETS = {
  'inspector/app.js': join(mockDir, 'dist/inspector/app.js'),
  'inspector/app.css': join(mockDir, 'dist/inspector/app.css'),
  // The demo seed prepared at build time: server/seed/prebuilt.ts reads it.
  'demo-seed.json': join(mockDir, 'dist/demo-seed.json'),
}

/**
 * esbuild warnings the build accepts, by file: everything else fails it. server/inspector/page.ts and
 * server/seed/prebuilt.ts keep `import.meta.url` for the npm package's files, behind a `node:sea`
 * branch that the binary takes.
 */
const ACCEPTED_WARNINGS = [
  { id: 'empty-import-meta', file: 'packages/mock/src/server/inspector/page.ts' },
  { id: 'empty-import-meta', file: 'packages/mock/src/server/seed/prebuilt.ts' },
]

const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'

/** The training run's V8 flags: a reproducible code cache, which V8 takes in a run without them. */
const TRAINING_FLAGS = ['--predictable', '--random-seed=1']

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`

/** The workspace's Node binary (the `node` package), not whichever Node runs this script. */
function workspaceNode() {
  const dir = dirname(require.resolve('node/package.json'))
  const path = join(dir, 'bin', windows ? 'node.exe' : 'node')
  if (!existsSync(path))
    throw new Error(`the workspace's Node binary is missing at ${path}: run pnpm install`)
  return path
}

function run(command, args) {
  execFileSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] })
}

function hasCommand(command) {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

async function bundle(outfile) {
  const result = await build({
    entryPoints: [join(mockDir, 'src/cli.ts')],
    tsconfig: join(mockDir, 'tsconfig.build.json'),
    // Module names in the bundle (kept by keepNames) are relative to this: the same from any cwd.
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    outfile,
    // Built-ins stay `require('node:…')`: a SEA's require loads built-in modules only.
    external: ['node:*'],
    minifyWhitespace: true,
    minifySyntax: true,
    // Names kept: an unexpected failure's stack trace still reads.
    keepNames: true,
    legalComments: 'none',
    logLevel: 'silent',
    metafile: true,
  })
  const refused = result.warnings.filter(
    (w) => !ACCEPTED_WARNINGS.some((a) => a.id === w.id && w.location?.file.endsWith(a.file)),
  )
  if (refused.length > 0) {
    const text = await formatMessages(refused, { kind: 'warning' })
    throw new Error(`esbuild warned about the binary's bundle:\n${text.join('\n')}`)
  }
  return Object.keys(result.metafile.inputs).length
}

/** Milliseconds from spawn to the ready line (`listening on http://…`) of one run. */
function readyTime([command, ...args]) {
  const started = performance.now()
  const child = spawn(command, [...args, '--port', '0', '--quiet'], {
    env: {},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let out = ''
    let time
    child.stdout.on('data', (chunk) => {
      out += chunk
      if (time === undefined && out.includes('listening on http://')) {
        time = performance.now() - started
        child.kill('SIGTERM')
      }
    })
    child.on('exit', (code) =>
      code === 0 ? resolve(time) : reject(new Error(`${command} exited with ${code} before it was ready`)),
    )
  })
}

/** Median time to the ready line of each command, their runs interleaved so that load hits both alike. */
async function medianReadyTimes(commands, runs) {
  const times = commands.map(() => [])
  for (let run = 0; run < runs; run++) {
    for (const [i, command] of commands.entries()) times[i].push(await readyTime(command))
  }
  return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)])
}

/** Runs `node TRAINING_FLAGS sea-main.cjs BUNDLE CACHE_IN CACHE_OUT ARGS…` (see sea-main.cjs) to its end. */
function trainingRun(seaMain, bundlePath, cacheIn, cacheOut, args) {
  const child = spawn(node, [...TRAINING_FLAGS, seaMain, bundlePath, cacheIn, cacheOut, ...args], {
    cwd: dirname(seaMain),
    env: {},
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 60_000,
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  return new Promise((resolve, reject) => {
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`training run ${args[0]} failed (${code ?? signal}): ${stderr}`)),
    )
  })
}

/**
 * The code cache of a start, in an empty environment as a user's: `trigger --forward-to` to a
 * receiver of this process (what the one-shot commands share), then, with that cache, the server's
 * start on the demo seed. The second run's cache holds what both compiled.
 */
async function trainCodeCache(seaMain, bundlePath, cache) {
  const receiver = createServer((request, response) => {
    request.resume()
    request.on('end', () => response.end())
  })
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const to = `http://127.0.0.1:${receiver.address().port}/hook`
  const oneShot = `${cache}.commands`
  try {
    await trainingRun(seaMain, bundlePath, '-', oneShot, [
      'trigger',
      'ticket.created',
      '--forward-to',
      to,
      '--secret',
      'whsec_training',
    ])
  } finally {
    receiver.close()
  }
  await trainingRun(seaMain, bundlePath, oneShot, cache, ['--port', '0', '--quiet'])
}

const node = workspaceNode()
const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
for (const [name, path] of Object.entries(ASSETS)) {
  if (!existsSync(path)) throw new Error(`${name}: ${path} is missing: run pnpm run build first`)
}

const work = mkdtempSync(join(tmpdir(), 'reseller-mock-sea-'))
try {
  // Named as stack traces of an unexpected failure show it: `reseller-mock.cjs:LINE:COLUMN`.
  const main = join(work, 'reseller-mock.cjs')
  const inputs = await bundle(main)
  const seaMain = join(work, 'sea-main.cjs')
  copyFileSync(join(root, 'scripts/sea-main.cjs'), seaMain)
  const cache = join(work, 'reseller-mock.cjs.cache')
  const blob = join(work, 'sea.blob')
  const config = {
    main: 'sea-main.cjs',
    output: 'sea.blob',
    disableExperimentalSEAWarning: true,
    assets: { ...ASSETS, 'reseller-mock.cjs': main, 'reseller-mock.cjs.cache': cache },
  }
  // Before the training runs: they read the other assets from it (sea-main.cjs).
  writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2))
  await trainCodeCache(seaMain, main, cache)
  execFileSync(node, ['--experimental-sea-config', 'sea-config.json'], {
    cwd: work,
    stdio: ['ignore', 'ignore', 'inherit'],
  })

  mkdirSync(outDir, { recursive: true })
  rmSync(binary, { force: true })
  copyFileSync(node, binary)
  chmodSync(binary, 0o755)
  // The symbol table and debug info are 18 of Node's 126 MB; nothing runs on them (addons link
  // against the dynamic symbols, which strip keeps).
  if (!windows && !mac && hasCommand('strip')) run('strip', [binary])
  if (mac) run('codesign', ['--remove-signature', binary])
  const postject = join(dirname(require.resolve('postject/package.json')), 'dist/cli.js')
  const postjectArgs = [postject, binary, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SENTINEL_FUSE]
  if (mac) postjectArgs.push('--macho-segment-name', 'NODE_SEA')
  // postject (LIEF) prints "Can't find string offset for section name '.note…'" for Node's many ELF
  // notes: harmless, and not ours to fix; its other lines and errors still show.
  const injected = spawnSync(node, postjectArgs, { encoding: 'utf8' })
  const noise = /^warning: Can't find string offset for section name/
  process.stderr.write(
    injected.stderr
      .split('\n')
      .filter((line) => line !== '' && !noise.test(line))
      .map((line) => `${line}\n`)
      .join(''),
  )
  if (injected.status !== 0) throw new Error(`postject failed (exit ${injected.status})`)
  if (mac) run('codesign', ['--sign', '-', binary])

  console.log(
    `${relative(root, binary)}: ${mib(statSync(binary).size)}, Node ${nodeVersion} ` +
      `(${process.platform}-${process.arch}), ${inputs} modules bundled (${mib(statSync(main).size)}), ` +
      `code cache of a start ${mib(statSync(cache).size)}, ${Object.keys(ASSETS).length} assets`,
  )
  if (process.env.BUILD_BINARY_NO_TIMING === undefined) {
    const runs = 7
    const [bin, npm] = await medianReadyTimes([[binary], [node, join(mockDir, 'dist/cli.js')]], runs)
    console.log(
      `time to the ready line (median of ${runs}, interleaved, empty environment): ` +
        `binary ${bin.toFixed(0)} ms, npm CLI (node dist/cli.js) ${npm.toFixed(0)} ms`,
    )
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
