/**
 * The runtime the client runs on, read from globals at call time (no `node:` import, so the module
 * loads in browsers and edge runtimes).
 */
import { VERSION } from '../version.js'

/** Name of the runtime and, when known, its version: `node/24.1.0`, `deno/2.1.0`, `bun/1.2.0`. */
export interface RuntimeInfo {
  /** `workerd`, `edge-runtime` (Vercel), `deno`, `bun`, `node`, `browser` or `unknown`. */
  readonly name: string
  /** The runtime's version, when it tells. */
  readonly version: string | undefined
}

interface RuntimeGlobals {
  Deno?: { version?: { deno?: string } }
  process?: { versions?: { node?: string; bun?: string } }
  navigator?: { userAgent?: string }
  document?: unknown
  importScripts?: unknown
  EdgeRuntime?: unknown
}

/**
 * Reads the runtime from globals. Edge runtimes come first: Cloudflare Workers with
 * `nodejs_compat` and Vercel's Edge Runtime define a `process` that claims to be Node.
 */
export function detectRuntime(globals: RuntimeGlobals = globalThis as RuntimeGlobals): RuntimeInfo {
  if (globals.navigator?.userAgent === 'Cloudflare-Workers') return { name: 'workerd', version: undefined }
  if (typeof globals.EdgeRuntime === 'string') return { name: 'edge-runtime', version: undefined }
  if (globals.Deno?.version?.deno) return { name: 'deno', version: globals.Deno.version.deno }
  if (globals.process?.versions?.bun) return { name: 'bun', version: globals.process.versions.bun }
  if (globals.process?.versions?.node) return { name: 'node', version: globals.process.versions.node }
  if (globals.document !== undefined || typeof globals.importScripts === 'function') {
    return { name: 'browser', version: undefined }
  }
  return { name: 'unknown', version: undefined }
}

/**
 * The `User-Agent` the client sends: `reseller-api-sdk/<VERSION> (<runtime>/<version>)`.
 * `undefined` in a browser: browsers own that header (Chrome drops it, Firefox sends it and makes
 * it part of the CORS preflight), so the SDK adds nothing there rather than risk a failed preflight.
 */
export function userAgent(runtime: RuntimeInfo = detectRuntime()): string | undefined {
  if (runtime.name === 'browser') return undefined
  const where = runtime.version ? `${runtime.name}/${runtime.version}` : runtime.name
  return `reseller-api-sdk/${VERSION} (${where})`
}
