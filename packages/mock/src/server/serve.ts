/**
 * `mock.listen()` of the `node` entry: the mock's handler over node:http, with the inspector.
 */
import type { MockApi } from '../mock-api.js'
import { createInspector } from './inspector.js'
import { type ListenOptions, listen, type RunningServer } from './listen.js'

/** Serves `mock` over HTTP with its inspector at `{url}/__mock/`. */
export function serveMock(mock: MockApi, options?: ListenOptions): Promise<RunningServer> {
  return listen(mock.handle, options, createInspector(mock))
}
