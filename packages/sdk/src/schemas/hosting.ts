import * as z from 'zod/mini'
import { Id } from './common.js'
import { PackageName } from './whm.js'

/** A domain name such as `example.com`: letters, digits and hyphens in dot-separated labels. */
export const Domain = z
  .string()
  .check(
    z.maxLength(253, 'must be at most 253 characters'),
    z.regex(
      /^(?!-)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/,
      'must be a domain name such as example.com',
    ),
  )

/** A cPanel username: a lowercase letter, then up to 15 lowercase letters, digits or `_`. */
export const CpanelUsername = z
  .string()
  .check(
    z.regex(
      /^[a-z][a-z0-9_]{0,15}$/,
      'must be a cPanel username (a-z, 0-9, _; starts with a letter; 16 max)',
    ),
  )

/** Body of `POST /reseller/clients/{client_id}/hosting`. */
export const HostingCreateBody = z.strictObject({
  domain: Domain,
  register_domain: z._default(z.boolean(), false),
  whm_package: PackageName,
  send_welcome_email: z._default(z.boolean(), true),
})
/** What `api.hosting.create` takes. */
export type HostingCreateParams = z.input<typeof HostingCreateBody>
/** The provisioning body once defaults are applied. */
export type HostingCreateBody = z.output<typeof HostingCreateBody>

/** Body of the deprecated `POST /reseller/accounts`: the provisioning body plus `client_id`. */
export const LegacyAccountCreateBody = z.extend(HostingCreateBody, { client_id: Id })

/** A provisioned account in live mode. */
export const HostingCreatedLive = z.object({
  sandbox: z.literal(false),
  client_id: Id,
  domain: z.string(),
  username: z.string(),
  cpanel_url: z.url(),
  domain_registered: z.boolean(),
  amount_debited: z.number(),
})
/** A provisioned account in live mode. */
export type HostingCreatedLive = z.infer<typeof HostingCreatedLive>

/** A simulated account in sandbox mode: nothing real was created. */
export const HostingCreatedSandbox = z.object({
  sandbox: z.literal(true),
  client_id: Id,
  domain: z.string(),
  username: z.string().check(z.regex(/^sb_/, 'must start with sb_')),
  password: z.string(),
  whm_package: z.string(),
  domain_registered: z.literal(false),
  cpanel_url: z.url(),
  message: z.string(),
})
/** A simulated account in sandbox mode. */
export type HostingCreatedSandbox = z.infer<typeof HostingCreatedSandbox>

/** The `data` of a provisioning answer: live or sandbox, told apart by `sandbox`. */
export const HostingCreated = z.discriminatedUnion('sandbox', [HostingCreatedLive, HostingCreatedSandbox])
/** The `data` of a provisioning answer. */
export type HostingCreated = z.infer<typeof HostingCreated>
