/**
 * Once per black-box run, when the image is a target: unpacks `dist-image/` (tag `latest`) with
 * umoci into a runtime bundle (its root file system and the runtime configuration an engine would
 * use), then picks how to run it: runc when a probe container runs, else unshare + chroot
 * (`BLACKBOX_IMAGE_RUNNER=runc|chroot` forces one). Tests read the result with `inject`.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { IMAGE_LAYOUT, selectedTargets } from './artifacts.js'

export interface BlackboxImage {
  /** The unpacked bundle: `rootfs/` and umoci's `config.json`. */
  bundle: string
  /** umoci's runtime configuration (OCI runtime spec) of the image. */
  config: unknown
  runner: 'runc' | 'chroot'
  /** Why the image cannot be run here: its tests fail with it. */
  problem?: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    blackboxImage: BlackboxImage | undefined
  }
}

/** Whether runc runs the image here: `reseller-mock --version` in a container, as the tests will. */
function runcWorks(bundle: string, config: { process: { args: string[]; terminal: boolean } }): boolean {
  const probe = mkdtempSync(join(tmpdir(), 'reseller-mock-blackbox-probe-'))
  try {
    const runtime = structuredClone(config) as typeof config & { root: { path: string } }
    runtime.root = { path: join(bundle, 'rootfs') }
    runtime.process.terminal = false
    runtime.process.args = [...runtime.process.args, '--version']
    writeFileSync(join(probe, 'config.json'), JSON.stringify(runtime))
    const run = spawnSync('runc', ['run', '--bundle', probe, `reseller-mock-probe-${process.pid}`], {
      encoding: 'utf8',
      timeout: 30_000,
    })
    return run.status === 0 && /^\d+\.\d+\.\d+/.test(run.stdout)
  } finally {
    rmSync(probe, { recursive: true, force: true })
  }
}

function prepareImage(): BlackboxImage {
  const bundle = mkdtempSync(join(tmpdir(), 'reseller-mock-blackbox-image-'))
  const failed = (problem: string): BlackboxImage => ({ bundle, config: {}, runner: 'chroot', problem })
  if (!existsSync(join(IMAGE_LAYOUT, 'index.json')))
    return failed(`${IMAGE_LAYOUT} is missing: run pnpm run build:image`)
  if (process.getuid?.() !== 0) return failed('running the image (runc or chroot) needs root')
  rmSync(bundle, { recursive: true })
  const unpack = spawnSync('umoci', ['unpack', '--image', `${IMAGE_LAYOUT}:latest`, bundle], {
    encoding: 'utf8',
  })
  if (unpack.error || unpack.status !== 0)
    return failed(`umoci unpack failed: ${unpack.error?.message ?? unpack.stderr}`)
  const config = JSON.parse(readFileSync(join(bundle, 'config.json'), 'utf8'))
  const forced = process.env.BLACKBOX_IMAGE_RUNNER
  if (forced !== undefined && forced !== 'runc' && forced !== 'chroot')
    return failed(`BLACKBOX_IMAGE_RUNNER must be runc or chroot, got "${forced}"`)
  const runner = forced ?? (runcWorks(bundle, config) ? 'runc' : 'chroot')
  return { bundle, config, runner }
}

export default function setup(project: TestProject) {
  const image = selectedTargets().includes('image') ? prepareImage() : undefined
  if (image && !image.problem) console.log(`black-box: the image runs with ${image.runner} (${image.bundle})`)
  project.provide('blackboxImage', image)
  return () => {
    if (image) rmSync(image.bundle, { recursive: true, force: true })
  }
}
