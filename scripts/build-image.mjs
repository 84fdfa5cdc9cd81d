#!/usr/bin/env node
// Writes packages/mock/dist-image/: an OCI image layout of the standalone mock (tags `latest` and the
// version of packages/mock/package.json), built without a container engine, and beside the layout's
// own files reseller-mock.docker.tar, which `docker load` reads (docs/without-node.md).
//
// The image is `FROM scratch` plus one layer: the single executable of `pnpm run build:binary`, the
// shared libraries `ldd` names for it (copied from this machine's Debian packages, listed in the
// layer's history), /etc/passwd and /etc/group with user and group 10001, /data owned by them and
// /tmp. The layer is a tar written by GNU tar with fixed times, names sorted and numeric owners, so
// one commit and one machine's packages give the same digests; umoci (Debian) makes the layout and
// skopeo (Debian) the docker-archive. Both are installed with apt-get when missing (as root).
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const mockDir = join(root, 'packages/mock')
const binary = join(mockDir, 'dist-bin/reseller-mock')
const layout = join(mockDir, 'dist-image')
const dockerArchive = join(layout, 'reseller-mock.docker.tar')
const { version } = JSON.parse(readFileSync(join(mockDir, 'package.json'), 'utf8'))

/** Where the binary sits in the image, and its entrypoint. */
const ENTRYPOINT = '/usr/local/bin/reseller-mock'
const USER = 10001
/** The contract's defaults, as image environment: arguments of `docker run IMAGE …` add to them. */
const ENV = {
  PATH: '/usr/local/bin',
  RESELLER_MOCK_HOST: '0.0.0.0',
  RESELLER_MOCK_PORT: '4010',
  RESELLER_MOCK_STATE: '/data/state.db',
}

const sh = (command, args, options = {}) =>
  execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options })

function has(command) {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** umoci and skopeo from Debian, installed when missing (CI runs as root on a fresh machine). */
function ensureTools() {
  const missing = ['umoci', 'skopeo'].filter((tool) => !has(tool))
  if (missing.length === 0) return
  if (process.getuid?.() !== 0 || !has('apt-get')) {
    throw new Error(
      `${missing.join(' and ')} missing: install them (Debian: apt-get install ${missing.join(' ')})`,
    )
  }
  console.log(`installing ${missing.join(' ')} (apt-get)`)
  sh('apt-get', ['update', '-qq'], { stdio: 'inherit' })
  sh('apt-get', ['install', '-y', '-qq', ...missing], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  })
}

/** The shared libraries the binary loads, the program interpreter included: absolute paths as ldd prints them. */
function sharedLibraries(file) {
  return sh('ldd', [file])
    .split('\n')
    .map((line) => line.match(/(?:=>\s*)?(\/\S+)\s+\(0x/)?.[1])
    .filter((path) => path !== undefined)
}

/** `libc6 2.36-9+deb12u14`: the Debian package that installed `path`, or `path` when dpkg does not know it. */
function debianPackage(path) {
  for (const candidate of [path, realpathSync(path)]) {
    try {
      const name = sh('dpkg-query', ['--search', candidate], { stdio: ['ignore', 'pipe', 'ignore'] })
        .split(':')[0]
        .trim()
      // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's format syntax, not JavaScript's
      const installed = sh('dpkg-query', ['--show', '--showformat', '${Version}', name]).trim()
      return `${name} ${installed}`
    } catch {}
  }
  return path
}

/** Seconds since 1970 for every time in the image: SOURCE_DATE_EPOCH, else the last commit's time. */
function sourceDateEpoch() {
  if (process.env.SOURCE_DATE_EPOCH) return Number(process.env.SOURCE_DATE_EPOCH)
  try {
    return Number(
      sh('git', ['-C', root, 'log', '-1', '--format=%ct'], { stdio: ['ignore', 'pipe', 'ignore'] }),
    )
  } catch {
    return 0
  }
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`

if (!existsSync(binary))
  throw new Error(`${relative(root, binary)} is missing: run pnpm run build:binary first`)
if (process.platform !== 'linux') throw new Error('the image holds a Linux binary: build it on Linux')
ensureTools()

const epoch = sourceDateEpoch()
const created = new Date(epoch * 1000).toISOString().replace(/\.\d+Z$/, 'Z')
const work = mkdtempSync(join(tmpdir(), 'reseller-mock-image-'))
try {
  // The image's file tree.
  const rootfs = join(work, 'rootfs')
  const put = (path, mode) => chmodSync(join(rootfs, path), mode)
  mkdirSync(join(rootfs, dirname(ENTRYPOINT)), { recursive: true })
  copyFileSync(binary, join(rootfs, ENTRYPOINT))
  put(ENTRYPOINT, 0o755)
  const libraries = sharedLibraries(binary)
  if (libraries.length === 0) throw new Error(`ldd found no shared library for ${binary}`)
  const packages = new Set()
  for (const library of libraries) {
    mkdirSync(join(rootfs, dirname(library)), { recursive: true })
    copyFileSync(realpathSync(library), join(rootfs, library))
    put(library, 0o755)
    packages.add(debianPackage(library))
  }
  mkdirSync(join(rootfs, 'etc'))
  writeFileSync(
    join(rootfs, 'etc/passwd'),
    `root:x:0:0:root:/root:/sbin/nologin\nreseller-mock:x:${USER}:${USER}:reseller-mock:/data:/sbin/nologin\n`,
  )
  writeFileSync(join(rootfs, 'etc/group'), `root:x:0:\nreseller-mock:x:${USER}:\n`)
  // glibc's name service: /etc/hosts first, then DNS (what a container network's names need).
  writeFileSync(join(rootfs, 'etc/nsswitch.conf'), 'hosts: files dns\n')
  for (const file of ['etc/passwd', 'etc/group', 'etc/nsswitch.conf']) put(file, 0o644)
  mkdirSync(join(rootfs, 'tmp'))
  mkdirSync(join(rootfs, 'data'))
  // Directories as 0755 whatever the umask (the digests depend on modes), but /tmp.
  for (const entry of readdirSync(rootfs, { recursive: true, withFileTypes: true })) {
    if (entry.isDirectory()) chmodSync(join(entry.parentPath, entry.name), 0o755)
  }
  put('tmp', 0o1777)

  // The layer: root owns everything but /data, appended with its own owner (no chown needed).
  const layer = join(work, 'layer.tar')
  const tarFlags = [
    '--format=posix',
    '--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime',
    '--sort=name',
    `--mtime=@${epoch}`,
    '--numeric-owner',
  ]
  const tops = ['etc', 'lib', 'lib64', 'tmp', 'usr'].filter((top) => existsSync(join(rootfs, top)))
  sh('tar', ['--create', `--file=${layer}`, ...tarFlags, '--owner=0', '--group=0', '-C', rootfs, ...tops])
  sh('tar', [
    '--append',
    `--file=${layer}`,
    ...tarFlags,
    `--owner=${USER}`,
    `--group=${USER}`,
    '-C',
    rootfs,
    'data',
  ])

  rmSync(layout, { recursive: true, force: true })
  const image = `${layout}:latest`
  sh('umoci', ['init', '--layout', layout])
  sh('umoci', ['new', '--image', image])
  sh('umoci', [
    'raw',
    'add-layer',
    '--image',
    image,
    '--history.created',
    created,
    '--history.created_by',
    'scripts/build-image.mjs',
    '--history.comment',
    `reseller-mock ${version} (a Node single executable) with ${[...packages].sort().join(', ')}`,
    layer,
  ])
  const labels = {
    'org.opencontainers.image.title': 'reseller-mock',
    'org.opencontainers.image.description': 'Stateful reference mock of the reseller hosting API',
    'org.opencontainers.image.version': version,
    'org.opencontainers.image.licenses': 'MIT',
  }
  sh('umoci', [
    'config',
    '--image',
    image,
    '--no-history',
    '--created',
    created,
    '--author',
    'reseller-api',
    '--config.user',
    `${USER}:${USER}`,
    '--config.entrypoint',
    ENTRYPOINT,
    ...Object.entries(ENV).flatMap(([name, value]) => ['--config.env', `${name}=${value}`]),
    '--config.exposedports',
    '4010/tcp',
    '--config.volume',
    '/data',
    '--config.workingdir',
    '/data',
    '--config.stopsignal',
    'SIGTERM',
    ...Object.entries(labels).flatMap(([name, value]) => ['--config.label', `${name}=${value}`]),
  ])
  sh('umoci', ['tag', '--image', image, version])
  sh('umoci', ['gc', '--layout', layout])
  // umoci writes index.json and the blobs 0600: readable by all, as any published image's files
  // (`skopeo inspect` or `docker load` by another user of the machine).
  for (const entry of readdirSync(layout, { recursive: true, withFileTypes: true })) {
    chmodSync(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644)
  }

  // What a registry pull transfers: the manifest, the config and the gzip layer.
  const index = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8'))
  const blob = (digest) => join(layout, 'blobs', ...digest.split(':'))
  const manifestRef = index.manifests[0]
  const manifest = JSON.parse(readFileSync(blob(manifestRef.digest), 'utf8'))
  const compressed =
    manifestRef.size + manifest.config.size + manifest.layers.reduce((sum, layer) => sum + layer.size, 0)

  sh('skopeo', [
    '--insecure-policy',
    'copy',
    '--quiet',
    '--additional-tag',
    'reseller-mock:latest',
    `oci:${layout}:latest`,
    `docker-archive:${dockerArchive}:reseller-mock:${version}`,
  ])
  chmodSync(dockerArchive, 0o644)

  console.log(
    `${relative(root, layout)}: OCI image layout, tags latest and ${version}, manifest ${manifestRef.digest}`,
  )
  console.log(
    `  ${ENTRYPOINT} (user ${USER}), ${libraries.length} shared libraries from ${[...packages].sort().join(', ')}`,
  )
  console.log(
    `  compressed size ${mib(compressed)} (${manifest.layers.length} layer), uncompressed ${mib(statSync(layer).size)}`,
  )
  console.log(`${relative(root, dockerArchive)}: ${mib(statSync(dockerArchive).size)}, for docker load`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
