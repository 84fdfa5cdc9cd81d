/**
 * Starts a receiver against a running mock and prints every event it receives.
 *
 * With RESELLER_WEBHOOK_SECRET and GENERAL_WEBHOOK_SECRET set (the webhooks pointed at it by
 * `reseller-mock listen`, see README.md), it only serves, on PORT (default 3000). Otherwise it
 * registers itself:
 *
 *   reseller-mock --insecure-webhooks                                   (another terminal)
 *   RESELLER_API_URL=http://127.0.0.1:4010 FRAMEWORK=hono node src/main.ts
 *
 * PORT fixes the receiver's port (default: a free one). Each start creates a general webhook; to
 * serve the one an earlier start created instead, give PORT, GENERAL_WEBHOOK_ID and
 * GENERAL_WEBHOOK_SECRET as that start printed them.
 *
 * Then cause events: open a ticket, provision an account (see README.md).
 */
import { createServer, type RequestListener } from 'node:http'
import { getRequestListener } from '@hono/node-server'
import { ResellerApi } from '@reseller-api/sdk'
import { createExpressReceiver } from './express-receiver.ts'
import { createHonoReceiver } from './hono-receiver.ts'
import type { ReceiverOptions } from './options.ts'
import { type Framework, startReceiver } from './start-receiver.ts'

const framework = (process.env.FRAMEWORK ?? 'express') as Framework
if (framework !== 'express' && framework !== 'hono') throw new Error('FRAMEWORK must be express or hono')

const onEvent: ReceiverOptions['onEvent'] = (event) => {
  console.log(`${event.event} ${JSON.stringify(event.data)}`)
}
const onError = (error: unknown) =>
  console.error(`refused: ${error instanceof Error ? error.message : String(error)}`)

const { RESELLER_WEBHOOK_SECRET: resellerSecret, GENERAL_WEBHOOK_SECRET: servedSecret } = process.env
if (resellerSecret && servedSecret) {
  // The webhooks are set already (`reseller-mock listen`): serve them with their secrets.
  const options: ReceiverOptions = { resellerSecret, generalSecret: servedSecret, onEvent, onError }
  const listener: RequestListener =
    framework === 'express'
      ? createExpressReceiver(options)
      : getRequestListener(createHonoReceiver(options).fetch)
  const port = Number(process.env.PORT ?? 3000)
  const server = createServer(listener).listen(port, '127.0.0.1', () =>
    console.log(
      `${framework} receiver on http://127.0.0.1:${port} (/webhooks/reseller, /webhooks/general); Ctrl+C to stop`,
    ),
  )
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => server.close(() => process.exit(0)))
} else {
  const api = new ResellerApi({
    apiKey: process.env.RESELLER_API_KEY ?? 'svc_live_acme_full',
    baseUrl: process.env.RESELLER_API_URL ?? 'http://127.0.0.1:4010',
  })
  const { GENERAL_WEBHOOK_ID: generalId, GENERAL_WEBHOOK_SECRET: generalSecret } = process.env
  const receiver = await startReceiver({
    framework,
    api,
    port: Number(process.env.PORT ?? 0),
    general: generalId && generalSecret ? { id: generalId, secret: generalSecret } : undefined,
    events: ['ticket.created', 'ticket.replied'],
    onEvent,
    onError,
  })
  console.log(
    `${framework} receiver on ${receiver.url} (general webhook ${receiver.generalWebhookId}); Ctrl+C to stop`,
  )
  if (!generalId) {
    console.log(
      `to serve this general webhook again instead of creating another: PORT=${new URL(receiver.url).port} GENERAL_WEBHOOK_ID=${receiver.generalWebhookId} GENERAL_WEBHOOK_SECRET=${receiver.generalSecret}`,
    )
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      receiver.close().then(() => process.exit(0))
    })
  }
}
