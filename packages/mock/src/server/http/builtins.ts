/**
 * node:http and node:https as `require` hands them out. An ESM `import … from 'node:http'` reads
 * every export of the module, and reading its lazy ones (`WebSocket`, `MessageEvent`…) loads
 * Node's whole fetch implementation (undici): 15 ms of CPU before the server's ready line, for
 * nothing it uses (docs/spec-decisions.md). node:https (and TLS with it) loads at the first
 * delivery to an https:// target. Types still come from the modules themselves.
 */
export const http: typeof import('node:http') = process.getBuiltinModule('node:http')

/** node:https, loaded on first use. */
export function https(): typeof import('node:https') {
  return process.getBuiltinModule('node:https')
}
