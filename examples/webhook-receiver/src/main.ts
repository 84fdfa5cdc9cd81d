/**
 * Starts a receiver against a running mock and prints every event it receives.
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
import { ResellerApi } from '@reseller-api/sdk'
import { type Framework, startReceiver } from './start-receiver.ts'

const framework = (process.env.FRAMEWORK ?? 'express') as Framework
if (framework !== 'express' && framework !== 'hono') throw new Error('FRAMEWORK must be express or hono')

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
  onEvent: (event) => {
    console.log(`${event.event} ${JSON.stringify(event.data)}`)
  },
  onError: (error) => console.error(`refused: ${error instanceof Error ? error.message : String(error)}`),
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
