import type { WebhookEvent } from '../schemas/events.js'

/** The name of any webhook event, reseller or general style. */
export type WebhookEventName = WebhookEvent['event']

/**
 * The event type(s) with the given name, e.g. `WebhookEventOf<'vps.activated'>`. A name both styles
 * use (`domain.registered`) gives both shapes.
 */
export type WebhookEventOf<Name extends WebhookEventName> = Extract<WebhookEvent, { event: Name }>
