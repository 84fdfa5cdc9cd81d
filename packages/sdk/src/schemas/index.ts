/**
 * `@reseller-api/sdk/schemas`: the zod (`zod/mini`) schemas of every resource, request body, event
 * and error envelope of the API, and the helpers that turn their failures into field errors
 * (`validate`, `fieldErrors`). The single source of truth: the client parses answers with them and
 * the mock validates requests, stores records and renders answers with them.
 *
 * ```ts
 * import { TicketCreateBody, validate } from '@reseller-api/sdk/schemas'
 * const result = validate(TicketCreateBody, input) // { success: true, data } or { success: false, fields }
 * ```
 *
 * @packageDocumentation
 */
export * from './common.js'
export * from './event-envelope.js'
export * from './events.js'
export * from './hosting.js'
export * from './invoices.js'
export * from './issues.js'
export * from './reseller-webhook.js'
export * from './services.js'
export * from './tickets.js'
export * from './webhooks.js'
export * from './whm.js'
