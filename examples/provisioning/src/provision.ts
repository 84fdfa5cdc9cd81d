/**
 * The whole job, against any base URL: provision a cPanel account for a client, read the WHM usage,
 * open a support ticket and follow it until it is closed. Support's side (a staff reply, "resolved")
 * is played through the mock's control endpoints, which a real service does not have.
 */
import { InvalidStateError, ResellerApi, type TicketStatus } from '@reseller-api/sdk'

export interface ProvisioningOptions {
  /** The API's base URL: the SDK adds `/api/v1`. */
  baseUrl: string
  /** A live key with the `reseller:hosting`, `support:read` and `support:write` scopes. */
  apiKey: string
  /** The reseller's client who gets the account. */
  clientId: number
  /** The account's primary domain; it is also registered (the wallet pays for it). */
  domain: string
  /** Where each step is reported; default `console.log`. */
  log?: (line: string) => void
}

/** What support does, through the mock's control endpoints (`{baseUrl}/__mock/…`, no key needed). */
export function mockSupportDesk(baseUrl: string) {
  async function control(method: string, path: string, body: unknown): Promise<unknown> {
    const response = await fetch(`${baseUrl}/__mock${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const json = (await response.json()) as { data?: unknown; error?: { message: string } }
    if (!response.ok) throw new Error(`${method} /__mock${path}: ${response.status} ${json.error?.message}`)
    return json.data
  }
  return {
    /** A staff reply: a non-internal one moves an `open` ticket to `in_progress`. */
    reply: (uuid: string, message: string) =>
      control('POST', `/tickets/${uuid}/replies`, { message, internal: false }),
    /** Staff sets any status. */
    setStatus: (uuid: string, status: TicketStatus) => control('PATCH', `/tickets/${uuid}`, { status }),
  }
}

/** Runs every step, printing one line each; rejects on the first unexpected failure. */
export async function provisionAndFollow(options: ProvisioningOptions): Promise<void> {
  const log = options.log ?? console.log
  const api = new ResellerApi({ apiKey: options.apiKey, baseUrl: options.baseUrl })
  const support = mockSupportDesk(options.baseUrl)
  log(`Using ${api.mode} key against ${options.baseUrl}`)

  // 1. Which WHM packages can the account use?
  const packages = await api.whm.packages.list()
  log(`1. WHM packages: ${packages.data.map((p) => p.name).join(', ')}`)
  const whmPackage = (packages.data.find((p) => p.name === 'starter') ?? packages.data[0])?.name
  if (whmPackage === undefined) throw new Error('the reseller has no WHM package')

  // 2. Room left on the WHM plan?
  const before = await api.whm.usage()
  log(`2. WHM usage: ${before.accounts_used}/${before.accounts_limit} accounts`)

  // 3. Provision (never retried automatically: a POST must not run twice).
  const account = await api.hosting.create(options.clientId, {
    domain: options.domain,
    whm_package: whmPackage,
    register_domain: true,
  })
  if (account.sandbox) throw new Error('this example needs a live key: sandbox provisioning creates nothing')
  log(
    `3. Provisioned ${account.domain} for client ${account.client_id}: user ${account.username}, ` +
      `${account.cpanel_url}, domain registered for ${account.amount_debited}`,
  )

  // 4. The account now uses a slot of the plan.
  const after = await api.whm.usage()
  const listed = await api.whm.accounts.get(account.username)
  log(
    `4. WHM usage: ${after.accounts_used}/${after.accounts_limit} accounts; ${listed.username} is ${listed.status}`,
  )

  // 5. Ask support to check the new account's DNS.
  const created = await api.tickets.create({
    subject: `DNS check for ${account.domain}`,
    message: `We just created ${account.username} for ${account.domain}. Could you check its DNS zone?`,
    department: 'technical',
    priority: 'low',
  })
  const uuid = created.ticket_id
  log(`5. Opened ticket ${uuid}: "${created.subject}" (${created.status})`)

  // 6. Support answers (control endpoint); the ticket moves to in_progress.
  await support.reply(uuid, 'The zone is in place; propagation may take up to an hour.')
  let ticket = await api.tickets.get(uuid)
  const last = ticket.messages.at(-1)
  log(`6. Support replied: "${last?.message}" (${ticket.status})`)

  // 7. The client answers.
  await api.tickets.reply(uuid, { message: 'Thanks, the site resolves now.' })
  ticket = await api.tickets.get(uuid)
  log(`7. Replied; ${ticket.messages_count} messages (${ticket.status})`)

  // 8. Support marks the ticket resolved (control endpoint), and we close it.
  await support.setStatus(uuid, 'resolved')
  ticket = await api.tickets.get(uuid)
  log(`8. Support marked it ${ticket.status}`)
  const closed = await api.tickets.close(uuid)
  log(`9. Closed the ticket (${closed.status})`)

  // 10. A closed ticket takes no more messages: the typed error says so.
  try {
    await api.tickets.reply(uuid, { message: 'One more thing…' })
    throw new Error('a reply to a closed ticket was accepted')
  } catch (error) {
    if (!(error instanceof InvalidStateError)) throw error
    log(`10. Replying to it now fails: ${error.name} (${error.status} ${error.code})`)
  }

  // 11. The conversation as the client sees it (staff's internal notes are never listed).
  log('11. The conversation:')
  for (const message of ticket.messages) log(`    [${message.from}] ${message.message}`)
}
