import * as z from 'zod/mini'
import { dnsHostName } from './dns.js'

/** An `http://` or `https://` URL whose host DNS can carry (253 characters, labels of 63). */
export const HttpUrl = z
  .url({
    protocol: /^https?$/,
    error: 'must be an http:// or https:// URL',
  })
  .check(dnsHostName)

/** Longest webhook secret. */
export const SECRET_MAX_LENGTH = 255

/** The reseller webhook as read back: the secret itself is never returned. */
export const ResellerWebhook = z.object({
  url: z.nullable(z.string()),
  has_secret: z.boolean(),
})
/** The reseller webhook as read back. */
export type ResellerWebhook = z.infer<typeof ResellerWebhook>

/** Body of `PUT /reseller/webhook`. */
export const ResellerWebhookUpdateBody = z.strictObject({
  url: HttpUrl,
  secret: z
    .string()
    .check(
      z.minLength(1, 'must not be empty'),
      z.maxLength(SECRET_MAX_LENGTH, `must be at most ${SECRET_MAX_LENGTH} characters`),
    ),
})
/** Body of `PUT /reseller/webhook`. */
export type ResellerWebhookUpdateBody = z.infer<typeof ResellerWebhookUpdateBody>

/** Result of `POST /reseller/webhook/test`. `status_code` is null when no HTTP answer came. */
export const ResellerWebhookTestResult = z.object({
  url: z.string(),
  status_code: z.nullable(z.int()),
  delivered: z.boolean(),
  error: z.nullable(z.string()),
})
/** Result of `POST /reseller/webhook/test`. */
export type ResellerWebhookTestResult = z.infer<typeof ResellerWebhookTestResult>
