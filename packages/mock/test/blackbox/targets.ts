/**
 * The three ways to run the standalone mock that the black-box suite drives alike: the npm CLI
 * (`node dist/cli.js`), the single executable (`dist-bin/reseller-mock`, copied alone into an empty
 * folder and run with an empty environment: no Node on PATH, nothing of the package beside it) and
 * the OCI image (`dist-image/`, unpacked once by `global-setup.ts` and run with runc, or with
 * unshare + chroot where runc cannot run). A test sees processes and HTTP only.
 */
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inject } from 'vitest'
import { CLI, type CliRun, spawnProcess, waitForLine } from '../helpers/cli.js'
import { BINARY, type TargetName } from './artifacts.js'

export { selectedTargets, type TargetName } from './artifacts.js'

/** The image's user: owner of /data in the image, and of the host folders mounted there. */
export const IMAGE_USER = 10001

export interface StartOptions {
  /** Variables for the process, besides what the target always has (the image's own ENV). */
  env?: Record<string, string>
  /** A folder from {@link Target.dataDir}: the image sees it at /data, the others at its own path. */
  dataDir?: string
  /** The image only: its own network namespace instead of the host's (no one can reach it then). */
  ownNetwork?: boolean
}

export interface Target {
  name: TargetName
  /** A new empty folder for state files and seeds, writable by the target's user. */
  dataDir(): string
  /** How the target's process names `file` of a folder from {@link dataDir}. */
  pathIn(dataDir: string, file: string): string
  /** Starts `reseller-mock ARGS…`. */
  spawn(args: string[], options?: StartOptions): Proc
}

/** A started process of a target. */
export interface Proc extends CliRun {
  /** Sends `signal` to the mock's process (`docker kill --signal` for the image). */
  signal(signal: NodeJS.Signals): void
}

/** Every process started, for {@link disposeAll}. */
const started = new Set<Proc & { dispose(): void }>()

/** Ends whatever a test left running (an `afterEach` of every black-box test file). */
export async function disposeAll() {
  const left = [...started]
  started.clear()
  for (const proc of left) proc.dispose()
  await Promise.all(left.map((proc) => proc.exited))
}

/** A child process as a {@link Proc} signalled directly. */
function direct(run: CliRun): Proc {
  const proc = {
    ...run,
    signal: (signal: NodeJS.Signals) => void run.child.kill(signal),
    dispose: () => void run.child.kill('SIGKILL'),
  }
  started.add(proc)
  return proc
}

const tempDirs: string[] = []

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `reseller-mock-blackbox-${prefix}-`))
  tempDirs.push(dir)
  return dir
}

/** Removes the folders this file's tests made (`setup.ts`, after the file's tests). */
export function removeTempDirs() {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  binaryCopy = undefined
}

const npmTarget: Target = {
  name: 'npm',
  dataDir: () => tempDir('data'),
  pathIn: (dataDir, file) => join(dataDir, file),
  spawn(args, options = {}) {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run pnpm run build`)
    return direct(spawnProcess(process.execPath, [CLI, ...args], { env: { ...options.env } }))
  },
}

let binaryCopy: string | undefined

/** The binary alone in an empty folder: it must find nothing of the package beside itself. */
function lonelyBinary(): string {
  if (binaryCopy) return binaryCopy
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run pnpm run build:binary`)
  const dir = tempDir('bin')
  binaryCopy = join(dir, 'reseller-mock')
  copyFileSync(BINARY, binaryCopy)
  chmodSync(binaryCopy, 0o755)
  return binaryCopy
}

const binaryTarget: Target = {
  name: 'binary',
  dataDir: () => tempDir('data'),
  pathIn: (dataDir, file) => join(dataDir, file),
  spawn(args, options = {}) {
    const binary = lonelyBinary()
    // `env -i`: not even PATH, so no Node could be found if the binary looked for one.
    return direct(spawnProcess(binary, args, { env: { ...options.env }, cwd: join(binary, '..') }))
  },
}

/** The runtime configuration umoci wrote for the image (`umoci unpack`): what an engine would run. */
interface RuntimeConfig {
  process: {
    args: string[]
    env: string[]
    cwd: string
    user: { uid: number; gid: number }
    terminal: boolean
  }
  root: { path: string; readonly?: boolean }
  mounts: { destination: string; type: string; source: string; options?: string[] }[]
  linux: { namespaces: { type: string }[] }
}

let containers = 0

/** The image's `NAME=value` list with `env` set over it, as `docker run -e` sets variables. */
function withVariables(list: string[], env: Record<string, string> = {}): string[] {
  const kept = list.filter((entry) => !Object.hasOwn(env, entry.slice(0, entry.indexOf('='))))
  return [...kept, ...Object.entries(env).map(([name, value]) => `${name}=${value}`)]
}

/** `docker run -v DATA:/data [--network host] IMAGE ARGS…`, as runc runs it from the unpacked layout. */
function runcSpawn(args: string[], options: StartOptions): Proc {
  const { bundle, config } = inject('blackboxImage')!
  const runtime = structuredClone(config) as RuntimeConfig
  const run = tempDir('runc')
  runtime.root = { path: join(bundle, 'rootfs') }
  runtime.process.terminal = false
  runtime.process.args = [...runtime.process.args, ...args]
  runtime.process.env = withVariables(runtime.process.env, options.env)
  // umoci turns VOLUME /data into a tmpfs owned by root; Docker gives each run a new volume owned
  // by the image's /data owner, or the folder of `-v`: so does this.
  runtime.mounts = runtime.mounts.filter((mount) => mount.destination !== '/data')
  const data = options.dataDir ?? imageTarget.dataDir()
  runtime.mounts.push({ destination: '/data', type: 'bind', source: data, options: ['rbind', 'rw'] })
  if (!options.ownNetwork) {
    runtime.linux.namespaces = runtime.linux.namespaces.filter((namespace) => namespace.type !== 'network')
  }
  writeFileSync(join(run, 'config.json'), JSON.stringify(runtime))
  const id = `reseller-mock-blackbox-${process.pid}-${++containers}`
  // runc exits with the container's exit code; signals go to the container's process, as an engine sends them.
  const runc = spawnProcess('runc', ['run', '--bundle', run, id])
  const runcKill = (signal: NodeJS.Signals) => {
    if (runc.child.exitCode === null) spawnSync('runc', ['kill', id, signal.replace(/^SIG/, '')])
  }
  const proc = {
    ...runc,
    signal: runcKill,
    dispose() {
      runcKill('SIGKILL')
      runc.exited.then(() => spawnSync('runc', ['delete', '--force', id]))
    },
  }
  started.add(proc)
  return proc
}

/** The same without runc: a private mount namespace, /data bound, chroot as the image's user. */
function chrootSpawn(args: string[], options: StartOptions): Proc {
  const { bundle, config } = inject('blackboxImage')!
  const runtime = config as RuntimeConfig
  const rootfs = join(bundle, 'rootfs')
  const env = withVariables(runtime.process.env, options.env)
  // /proc and /dev as an engine provides them (the host's /dev, in this private mount namespace).
  // `env -i` runs before chroot (the image has no env); chroot's working directory is / (not /data).
  const script =
    'mkdir -p "$ROOT/proc" "$ROOT/dev" && mount --rbind /dev "$ROOT/dev" && ' +
    'mount --bind "$DATA" "$ROOT/data" && mount -t proc proc "$ROOT/proc" && exec /usr/bin/env -i "$@"'
  const { uid, gid } = runtime.process.user
  const command = [
    ...env,
    '/usr/sbin/chroot',
    `--userspec=${uid}:${gid}`,
    rootfs,
    ...runtime.process.args,
    ...args,
  ]
  // Without --fork, unshare execs the shell, which execs env, chroot, then the mock: one process, ours.
  return direct(
    spawnProcess(
      'unshare',
      ['--mount', ...(options.ownNetwork ? ['--net'] : []), '--', '/bin/sh', '-c', script, 'sh', ...command],
      {
        env: {
          PATH: '/usr/sbin:/usr/bin:/sbin:/bin',
          ROOT: rootfs,
          DATA: options.dataDir ?? imageTarget.dataDir(),
        },
      },
    ),
  )
}

const imageTarget: Target = {
  name: 'image',
  dataDir() {
    // As Docker fills a new named volume: owned by the image's /data owner.
    const dir = tempDir('data')
    chownSync(dir, IMAGE_USER, IMAGE_USER)
    return dir
  },
  pathIn: (_dataDir, file) => `/data/${file}`,
  spawn(args, options = {}) {
    const image = inject('blackboxImage')
    if (!image) throw new Error('the image target needs global-setup.ts (vitest.blackbox.config.ts)')
    if (image.problem) throw new Error(image.problem)
    return image.runner === 'runc' ? runcSpawn(args, options) : chrootSpawn(args, options)
  },
}

export const TARGETS: Record<TargetName, Target> = {
  npm: npmTarget,
  binary: binaryTarget,
  image: imageTarget,
}

/** A started server: its URL as the host reaches it (a 0.0.0.0 bind is reached on 127.0.0.1). */
export interface Server extends Proc {
  url: string
  port: number
}

/** Resolves with the server's URL once it prints its ready line. */
export async function ready(run: Proc): Promise<Server> {
  const [, host, port] = await waitForLine(run, /listening on http:\/\/(\S+):(\d+)$/, 30_000)
  const reachable = host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host
  return { ...run, url: `http://${reachable}:${port}`, port: Number(port) }
}

/** Starts a server (or `record`) and resolves once its banner is printed, `Press Ctrl+C to stop` last. */
export async function startServer(
  target: Target,
  args: string[],
  options: StartOptions = {},
): Promise<Server> {
  const run = target.spawn(args, options)
  const server = await ready(run)
  await waitForLine(run, /press Ctrl\+C to stop\.$/i, 30_000)
  return server
}

/** Runs `reseller-mock ARGS…` to its end (bounded): exit code and output. */
export async function runToEnd(
  target: Target,
  args: string[],
  options: StartOptions = {},
  timeoutMs = 30_000,
) {
  const run = target.spawn(args, options)
  const timer = setTimeout(() => run.signal('SIGKILL'), timeoutMs)
  const { code } = await run.exited
  clearTimeout(timer)
  return { code, stdout: run.stdout.join('\n'), stderr: run.stderr() }
}

/** Sends `signal` and resolves with the exit code once the process ends. */
export async function stop(run: Proc, signal: NodeJS.Signals = 'SIGTERM') {
  if (run.child.exitCode === null) run.signal(signal)
  return run.exited
}

/** A file in a folder from {@link Target.dataDir}, readable by the image's user too. */
export function writeDataFile(dataDir: string, file: string, text: string) {
  mkdirSync(dataDir, { recursive: true })
  writeFileSync(join(dataDir, file), text)
  chmodSync(join(dataDir, file), 0o644)
}
