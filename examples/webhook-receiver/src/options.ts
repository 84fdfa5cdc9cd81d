import type { WebhookEvent } from '@reseller-api/sdk/webhooks'

/** What both receivers need: one secret per webhook, and what to do with each verified event. */
export interface ReceiverOptions {
  /** Secret of the reseller webhook: the one you chose with `api.resellerWebhook.update({ url, secret })`. */
  resellerSecret: string
  /** Secret of the general webhook: returned once, by `api.webhooks.create({ url, events })`. */
  generalSecret: string
  /** Called once per verified, well-formed event; the receiver answers 200 once it resolves, 500 if it throws. */
  onEvent: (event: WebhookEvent) => void | Promise<void>
  /** Told about refused deliveries (401, 400) and about what `onEvent` threw (500). */
  onError?: (error: unknown) => void
}
