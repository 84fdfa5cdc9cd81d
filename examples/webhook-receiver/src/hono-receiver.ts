/** The receiver as a Hono 4 app: `createFetchHandler` takes the standard `Request` Hono holds. */
import { createFetchHandler } from '@reseller-api/sdk/webhooks'
import { Hono } from 'hono'
import type { ReceiverOptions } from './options.ts'

export function createHonoReceiver({
  resellerSecret,
  generalSecret,
  onEvent,
  onError,
}: ReceiverOptions): Hono {
  const reseller = createFetchHandler({ secret: resellerSecret, onEvent, onError })
  const general = createFetchHandler({ secret: generalSecret, onEvent, onError })
  const app = new Hono()
  // `c.req.raw` is the untouched Request: its body is still the raw bytes the signature covers.
  app.post('/webhooks/reseller', (c) => reseller(c.req.raw))
  app.post('/webhooks/general', (c) => general(c.req.raw))
  app.get('/health', (c) => c.json({ ok: true }))
  return app
}
