/**
 * docs/without-node.md's recipe for the image without a container engine (umoci unpack, jq, runc
 * run), run as the guide prints it, in an empty folder whose `packages/mock/dist-image` is the built
 * layout. Only its first line changes: a free port for 4010, which other runs on this machine may hold.
 * It needs runc (the image target's runner; `global-setup.ts` falls back to chroot where runc cannot
 * run, and the recipe cannot run there either).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, inject, test } from 'vitest'
import { spawnProcess, waitForLine } from '../helpers/cli.js'
import { IMAGE_LAYOUT } from './artifacts.js'
import { IMAGE_USER, selectedTargets } from './targets.js'

const GUIDE = fileURLToPath(new URL('../../../../docs/without-node.md', import.meta.url))
const HEADING = '### Run it without a container engine (umoci and runc)'

/** The first `sh` block under {@link HEADING}. */
function recipe(): string {
  const text = readFileSync(GUIDE, 'utf8')
  const section = text.slice(text.indexOf(HEADING))
  const block = section.match(/```sh\n([\s\S]*?)```/)
  if (!text.includes(HEADING) || !block) throw new Error(`${GUIDE} has no sh block under "${HEADING}"`)
  return block[1]!
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

const image = selectedTargets().includes('image') ? inject('blackboxImage') : undefined
const folders: string[] = []
const containers: string[] = []

afterEach(() => {
  for (const id of containers.splice(0)) spawnSync('runc', ['delete', '--force', id])
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe.runIf(image !== undefined)('image: the guide’s umoci + runc recipe', () => {
  test('serves on the loopback port, keeps its state in the folder, and stops with Ctrl+C, exit 0', async (ctx) => {
    // Said, not silent: without runc the suite runs the image by chroot, and the recipe is unverified.
    if (image?.runner !== 'runc')
      ctx.skip(`runc cannot run containers here (runner: ${image?.runner}): recipe unverified`)
    const port = await freePort()
    const script = recipe().replace(/^port=4010\b/m, `port=${port}`)
    expect(script).toContain(`port=${port}`)
    const dir = mkdtempSync(join(tmpdir(), 'reseller-mock-blackbox-recipe-'))
    folders.push(dir)
    containers.push(`reseller-mock-${port}`)
    mkdirSync(join(dir, 'packages/mock'), { recursive: true })
    symlinkSync(IMAGE_LAYOUT, join(dir, 'packages/mock/dist-image'))
    // A process group of its own, as a terminal's job: Ctrl+C is SIGINT to the whole group.
    const run = spawnProcess('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, detached: true })
    const [, url] = await waitForLine(run, /listening on (http:\/\/\S+)$/, 60_000)
    expect(url).toBe(`http://127.0.0.1:${port}`)

    const answer = await fetch(`${url}/api/v1/support/tickets`, {
      headers: { authorization: 'Bearer svc_live_acme_full' },
    })
    expect(answer.status).toBe(200)
    const state = statSync(join(dir, 'mock-data/state.db'))
    expect(state.uid).toBe(IMAGE_USER)

    await waitForLine(run, /press Ctrl\+C to stop\.$/i)
    process.kill(-run.child.pid!, 'SIGINT')
    expect(await run.exited).toEqual({ code: 0, signal: null })
    expect(run.stdout.join('\n')).toMatch(/reseller-mock stopped \(SIGINT\)/)
  })
})
