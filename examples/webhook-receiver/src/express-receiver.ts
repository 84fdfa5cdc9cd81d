/** The receiver as an Express 5 app: `createNodeHandler` is an Express middleware. */
import { createNodeHandler } from '@reseller-api/sdk/webhooks'
import express, { type Express } from 'express'
import type { ReceiverOptions } from './options.ts'

export function createExpressReceiver({
  resellerSecret,
  generalSecret,
  onEvent,
  onError,
}: ReceiverOptions): Express {
  const app = express()
  // Webhook routes first, with no body parser in front of them: the signature covers the raw bytes,
  // and the handler reads them from the request stream itself.
  app.post('/webhooks/reseller', createNodeHandler({ secret: resellerSecret, onEvent, onError }))
  app.post('/webhooks/general', createNodeHandler({ secret: generalSecret, onEvent, onError }))
  // The rest of your app parses JSON as usual.
  app.use(express.json())
  app.get('/health', (_req, res) => {
    res.json({ ok: true })
  })
  return app
}
