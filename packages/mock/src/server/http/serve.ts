/**
 * `mock.listen()` of the `node` entry: the mock's handler over node:http, with the inspector.
 */
import type { ListenImpl } from '../../mock-api.js'
import { createInspector } from '../inspector/extension.js'
import { isLoopbackBind } from './guard.js'
import { listen } from './listen.js'

/**
 * Serves a mock over HTTP with its inspector at `{url}/__mock/`. Bound to a non-loopback address,
 * the mock's reseller webhooks follow the general target policy from then on.
 */
export const serveMock: ListenImpl = (answer, context, options) => {
  if (!isLoopbackBind(options?.host ?? '127.0.0.1')) context.markServedOnNetwork()
  return listen(answer, options, createInspector(context, options?.log))
}
