/**
 * What the server's start loads: neither msw nor @msw/data, whose evaluation was a third of the
 * time to the ready line (docs/spec-decisions.md). The standalone server serves no MSW handlers
 * and no `mock.db`; a resolve hook of the built CLI's process names every package it loads.
 * Nor node:crypto and node:fs/promises, which a start on the demo seed does not use. And the npm
 * CLI fills Node's compile cache, which later starts read instead of compiling.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { assertBuilt, CLI, spawnProcess, waitForLine } from '../helpers/cli.js'

/** Prints `loads PACKAGE` on stderr for each import or require of msw's or @msw/data's packages. */
const HOOK = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module'
registerHooks({
  resolve(specifier, context, next) {
    if (/^(msw|@msw\\/data)(\\/|$)/.test(specifier)) process.stderr.write('loads ' + specifier + '\\n')
    return next(specifier, context)
  },
})
`)}`

describe('reseller-mock (the server) at start', () => {
  it('loads neither msw nor @msw/data before its ready line', async () => {
    assertBuilt()
    const run = spawnProcess(process.execPath, ['--import', HOOK, CLI, '--port', '0', '--quiet'])
    await waitForLine(run, /press Ctrl\+C to stop\.$/i)
    run.child.kill('SIGTERM')
    expect(await run.exited).toEqual({ code: 0, signal: null })
    expect(run.stderr()).not.toMatch(/^loads /m)
  })

  it('loads neither node:crypto nor node:fs/promises before its ready line', async () => {
    assertBuilt()
    // At the ready line: which of the two the process has loaded, on stderr.
    const hook = `data:text/javascript,${encodeURIComponent(`
      const write = process.stdout.write.bind(process.stdout)
      process.stdout.write = (chunk, ...rest) => {
        if (String(chunk).includes('Press Ctrl+C')) {
          const loaded = ['NativeModule crypto', 'NativeModule fs/promises'].filter((m) => process.moduleLoadList.includes(m))
          process.stderr.write('loaded: ' + loaded.join(', ') + '.\\n')
        }
        return write(chunk, ...rest)
      }
    `)}`
    const run = spawnProcess(process.execPath, ['--import', hook, CLI, '--port', '0', '--quiet'])
    await waitForLine(run, /press Ctrl\+C to stop\.$/i)
    run.child.kill('SIGTERM')
    expect(await run.exited).toEqual({ code: 0, signal: null })
    expect(run.stderr()).toMatch(/^loaded: \.$/m)
  })

  it("fills Node's compile cache, in its default directory (under the temporary directory)", async () => {
    assertBuilt()
    const dir = mkdtempSync(join(tmpdir(), 'reseller-mock-compile-cache-'))
    try {
      const { NODE_COMPILE_CACHE: _, NODE_DISABLE_COMPILE_CACHE: __, ...env } = process.env
      const run = spawnProcess(process.execPath, [CLI, '--port', '0', '--quiet'], {
        env: { ...env, TMPDIR: dir },
      })
      await waitForLine(run, /press Ctrl\+C to stop\.$/i)
      run.child.kill('SIGTERM')
      expect(await run.exited).toEqual({ code: 0, signal: null })
      // Node writes one file per module compiled, under a folder per Node version.
      const files = readdirSync(join(dir, 'node-compile-cache'), { recursive: true })
      expect(files.length).toBeGreaterThan(10)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('the hook does see them where they are loaded (createMockApi of the node entry)', async () => {
    const run = spawnProcess(process.execPath, [
      '--import',
      HOOK,
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(new URL('../../dist/node.js', import.meta.url).href)})`,
    ])
    expect(await run.exited).toEqual({ code: 0, signal: null })
    expect(run.stderr()).toMatch(/^loads msw$/m)
  })
})
