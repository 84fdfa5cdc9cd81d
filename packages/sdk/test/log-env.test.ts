/**
 * `RESELLER_API_LOG=debug|info|warn|error`: logging to the console where `process.env` exists,
 * when the client was given neither `logger` nor `logLevel` (options win); and a browser bundle,
 * where there is no `process`, builds and runs the client as before.
 */
import { fileURLToPath } from 'node:url'
import { runInNewContext } from 'node:vm'
import { build } from 'esbuild'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type * as Sdk from '../src/index.js'
import { fixtures, ok, setup } from './helpers/fake-api.js'

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

function consoleSpies() {
  return {
    debug: vi.spyOn(console, 'debug').mockImplementation(() => undefined),
    info: vi.spyOn(console, 'info').mockImplementation(() => undefined),
    warn: vi.spyOn(console, 'warn').mockImplementation(() => undefined),
    error: vi.spyOn(console, 'error').mockImplementation(() => undefined),
  }
}

/** A GET answered 503 once, then 200: one retry line at `warn`, attempt lines at `debug`. */
function retryOnce() {
  return (_r: Request, _s: unknown, i: number) =>
    i === 0 ? new Response('{}', { status: 503, headers: { 'retry-after': '0' } }) : ok(fixtures.usage())
}

describe('RESELLER_API_LOG', () => {
  it('debug: every attempt and the retry go to the console, the key in none', async () => {
    vi.stubEnv('RESELLER_API_LOG', 'debug')
    const spies = consoleSpies()
    const { api } = setup(retryOnce(), { maxRetries: 1 })
    await api.whm.usage()
    expect(spies.debug.mock.calls.map(([line]) => line)).toEqual([
      expect.stringContaining('→ GET'),
      expect.stringContaining('← 503 GET'),
      expect.stringContaining('→ GET'),
      expect.stringContaining('← 200 GET'),
    ])
    expect(spies.warn).toHaveBeenCalledWith(expect.stringContaining('retrying GET'), expect.any(Object))
    expect(JSON.stringify([spies.debug.mock.calls, spies.warn.mock.calls])).not.toContain('TOPSECRET')
  })

  it('warn (any case, spaces around): the retry only', async () => {
    vi.stubEnv('RESELLER_API_LOG', ' WARN ')
    const spies = consoleSpies()
    const { api } = setup(retryOnce(), { maxRetries: 1 })
    await api.whm.usage()
    expect(spies.debug).not.toHaveBeenCalled()
    expect(spies.warn).toHaveBeenCalledTimes(1)
  })

  it('error: a failing hook is reported, a retry is not', async () => {
    vi.stubEnv('RESELLER_API_LOG', 'error')
    const spies = consoleSpies()
    const { api } = setup(retryOnce(), {
      maxRetries: 1,
      hooks: {
        onRequest: () => {
          throw new Error('boom')
        },
      },
    })
    await api.whm.usage()
    expect(spies.warn).not.toHaveBeenCalled()
    expect(spies.error).toHaveBeenCalledTimes(2)
  })

  it('options win: a logLevel or a logger given means the variable is not read', async () => {
    vi.stubEnv('RESELLER_API_LOG', 'debug')
    const spies = consoleSpies()
    await setup(retryOnce(), { maxRetries: 1, logLevel: 'debug' }).api.whm.usage()
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() }
    await setup(retryOnce(), { maxRetries: 1, logger }).api.whm.usage()
    // No logger with the level: nothing anywhere. The logger's own default level: warn.
    expect(spies.debug).not.toHaveBeenCalled()
    expect(spies.warn).not.toHaveBeenCalled()
    expect(logger.debug).not.toHaveBeenCalled()
    expect(logger.warn).toHaveBeenCalledTimes(1)
    // Given neither, the same variable is obeyed.
    await setup(retryOnce(), { maxRetries: 1 }).api.whm.usage()
    expect(spies.debug).toHaveBeenCalled()
  })

  it('unset, empty or not a level: nothing is logged (a bad value gets one console warning per process)', async () => {
    const spies = consoleSpies()
    for (const value of [undefined, '', 'verbose']) {
      vi.stubEnv('RESELLER_API_LOG', value)
      await setup(retryOnce(), { maxRetries: 1 }).api.whm.usage()
    }
    expect(spies.debug).not.toHaveBeenCalled()
    const lines = spies.warn.mock.calls.map(([line]) => String(line))
    // At most the one warning about the value: an earlier test file in the worker may have used it up.
    expect(
      lines.filter((line) => !line.includes('"verbose" is not one of debug, info, warn, error')),
    ).toEqual([])
    expect(lines.length).toBeLessThanOrEqual(1)
    // The same client setup, with a level, logs: the variable is read.
    vi.stubEnv('RESELLER_API_LOG', 'warn')
    await setup(retryOnce(), { maxRetries: 1 }).api.whm.usage()
    expect(spies.warn.mock.calls.map(([line]) => String(line)).at(-1)).toContain('retrying GET')
  })
})

describe('in a browser or edge bundle', () => {
  it('runs without process, with a process.env that throws, and reads the variable where it exists', async () => {
    const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url))
    const bundle = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'iife',
      globalName: 'sdk',
      logLevel: 'silent',
    })
    const code = bundle.outputFiles[0]!.text
    /** Runs the bundle in a fresh context with `extra` globals; resolves the lines it logged. */
    const run = async (extra: object) => {
      const lines: unknown[] = []
      const log = (line: unknown) => void lines.push(line)
      const sandbox = {
        ...{ Headers, Request, Response, URL, URLSearchParams, TextDecoder, TextEncoder, AbortController },
        ...{
          AbortSignal,
          ReadableStream,
          DOMException,
          Blob,
          FormData,
          setTimeout,
          clearTimeout,
          performance,
        },
        document: {},
        console: { debug: log, info: log, warn: log, error: log },
        ...extra,
      }
      const sdk = runInNewContext(`${code}; sdk`, sandbox) as typeof Sdk
      const api = new sdk.ResellerApi({
        apiKey: 'svc_live_browser_key',
        baseUrl: 'https://api.example.test',
        fetch: async () => ok(fixtures.usage()),
      })
      expect(await api.whm.usage()).toEqual(fixtures.usage())
      return lines
    }
    // A browser: no process at all.
    expect(await run({})).toEqual([])
    // Deno without env access: reading process.env throws.
    const denied = {
      get env(): never {
        throw new Error('NotCapable: requires env access')
      },
    }
    expect(await run({ process: denied })).toEqual([])
    // An edge runtime with a process.env (Workers' nodejs_compat): the variable is read.
    const lines = await run({ process: { env: { RESELLER_API_LOG: 'debug' } } })
    expect(lines).toEqual([expect.stringContaining('→ GET'), expect.stringContaining('← 200 GET')])
  })
})
