/**
 * A receiver that registers itself: it opens a port, points the reseller webhook and a new general
 * webhook (or the one given in `general`) at it, and serves them with the secrets the API now knows. Handy in development and in
 * tests, where the receiver's port is only known once it listens.
 *
 * In production the URL is fixed and the secrets come from your configuration: create the webhooks
 * once, store the secrets, and start `createExpressReceiver(...)` / `createHonoReceiver(...)` with them.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import type { GeneralEventName, ResellerApi } from '@reseller-api/sdk'
import { createExpressReceiver } from './express-receiver.ts'
import { createHonoReceiver } from './hono-receiver.ts'
import type { ReceiverOptions } from './options.ts'

export type Framework = 'express' | 'hono'

export interface StartReceiverOptions extends Pick<ReceiverOptions, 'onEvent' | 'onError'> {
  framework: Framework
  /** A client with a live key holding `reseller:webhooks`. */
  api: ResellerApi
  /** General events to subscribe to. */
  events: GeneralEventName[]
  /** Default `127.0.0.1`. */
  host?: string
  /** Default `0`: a free port. */
  port?: number
  /**
   * A general webhook made by an earlier start, to serve again instead of creating one more (the
   * API has no way to delete one). It must point at this receiver's URL: give the same `port`.
   */
  general?: { id: string; secret: string }
}

export interface RunningReceiver {
  /** `http://host:port`; the webhooks are `{url}/webhooks/reseller` and `{url}/webhooks/general`. */
  url: string
  /** Id of the general webhook it serves (for `api.webhooks.deliveries(id)`). */
  generalWebhookId: string
  /** That webhook's secret (to serve it again on a later start: `general`). */
  generalSecret: string
  close(): Promise<void>
}

export async function startReceiver(options: StartReceiverOptions): Promise<RunningReceiver> {
  const { api, framework } = options
  const host = options.host ?? '127.0.0.1'
  // 1. Listen first: the URL (and its port) must exist before the webhooks can point at it.
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = `http://${host}:${port}`

  // 2. Register: we choose the reseller webhook's secret; the API generates the general one.
  const resellerSecret = randomBytes(24).toString('hex')
  await api.resellerWebhook.update({ url: `${url}/webhooks/reseller`, secret: resellerSecret })
  const general =
    options.general ?? (await api.webhooks.create({ url: `${url}/webhooks/general`, events: options.events }))

  // 3. Serve with both secrets.
  const receiverOptions: ReceiverOptions = {
    resellerSecret,
    generalSecret: general.secret,
    onEvent: options.onEvent,
    onError: options.onError,
  }
  const listener: RequestListener =
    framework === 'express'
      ? createExpressReceiver(receiverOptions)
      : getRequestListener(createHonoReceiver(receiverOptions).fetch)
  server.on('request', listener)

  return {
    url,
    generalWebhookId: general.id,
    generalSecret: general.secret,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
