/**
 * What the server's start loads: neither msw nor @msw/data, whose evaluation was a third of the
 * time to the ready line (docs/spec-decisions.md). The standalone server serves no MSW handlers
 * and no `mock.db`; a resolve hook of the built CLI's process names every package it loads.
 * Nor node:crypto and node:fs/promises, which a start on the demo seed does not use. On the demo
 * seed in memory the ready line comes before the mock is made (the SDK's schemas and the route
 * table load after it), and requests sent at that line wait for the mock. And the npm CLI fills
 * Node's compile cache, which later starts read instead of compiling.
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

  it("prints its ready line before it loads the SDK's schemas, and answers the requests sent at that line", async () => {
    assertBuilt()
    // On stderr, in order: each load of the SDK's modules, and the ready line.
    const hook = `data:text/javascript,${encodeURIComponent(`
      import { registerHooks } from 'node:module'
      registerHooks({
        resolve(specifier, context, next) {
          if (specifier.startsWith('@reseller-api/sdk')) process.stderr.write('loads ' + specifier + '\\n')
          return next(specifier, context)
        },
      })
      const write = process.stdout.write.bind(process.stdout)
      process.stdout.write = (chunk, ...rest) => {
        if (String(chunk).includes('listening on')) process.stderr.write('ready\\n')
        return write(chunk, ...rest)
      }
    `)}`
    const run = spawnProcess(process.execPath, ['--import', hook, CLI, '--port', '0', '--quiet'])
    const [, url] = await waitForLine(run, /listening on (http:\/\/\S+)/)
    // Sent at once: they wait for the mock (made after the line) and see its demo seed.
    const auth = { authorization: 'Bearer svc_live_acme_full' }
    const [tickets, state, page] = await Promise.all([
      fetch(`${url}/api/v1/support/tickets`, { headers: auth }),
      fetch(`${url}/__mock/state`),
      fetch(`${url}/__mock/`),
    ])
    expect(tickets.status).toBe(200)
    expect((await tickets.json()).data.length).toBeGreaterThan(0)
    expect(state.status).toBe(200)
    expect((await state.json()).data.tables.apiKeys).toContainEqual(
      expect.objectContaining({ key: 'svc_live_acme_full' }),
    )
    expect(page.status).toBe(200)
    await waitForLine(run, /press Ctrl\+C to stop\.$/i)
    run.child.kill('SIGTERM')
    expect(await run.exited).toEqual({ code: 0, signal: null })
    const order = run.stderr().split('\n')
    expect(order.indexOf('ready')).toBeGreaterThanOrEqual(0)
    expect(order.findIndex((line) => line.startsWith('loads @reseller-api/sdk'))).toBeGreaterThan(
      order.indexOf('ready'),
    )
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
