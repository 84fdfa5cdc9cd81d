/**
 * `mock.listen()` of the `node` entry: the mock's handler over node:http, with the inspector.
 */
import type { ListenImpl } from '../mock-api.js'
import { createInspector } from './inspector.js'
import { listen } from './listen.js'

/** Serves a mock over HTTP with its inspector at `{url}/__mock/`. */
export const serveMock: ListenImpl = (mock, context, options) =>
  listen(mock.handle, options, createInspector(context))
