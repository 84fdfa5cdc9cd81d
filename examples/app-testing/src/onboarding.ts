/**
 * A small piece of a reseller's application: onboarding a client. It provisions a cPanel account
 * and opens a ticket asking support to issue the SSL certificate, and turns the refusals the
 * application expects into results it can show; anything else is thrown.
 */
import {
  DomainTakenError,
  QuotaExceededError,
  type ResellerApi,
  type Ticket,
  WhmUnavailableError,
} from '@reseller-api/sdk'

export type Onboarding =
  | {
      ok: true
      username: string
      cpanelUrl: string
      /** A sandbox key was used: nothing was created, and no ticket was opened. */
      simulated: boolean
      /** The welcome ticket; `null` in sandbox mode (sandbox keys may only read tickets). */
      ticketId: string | null
    }
  | {
      ok: false
      /** `whm_unavailable`: nothing was created, try again later. */
      reason: 'plan_full' | 'domain_taken' | 'whm_unavailable'
      message: string
    }

/** Subject prefix of the welcome tickets this module opens. */
export const WELCOME_SUBJECT = 'New account'

export async function onboardClient(
  api: ResellerApi,
  clientId: number,
  domain: string,
  whmPackage = 'starter',
): Promise<Onboarding> {
  let account: Awaited<ReturnType<ResellerApi['hosting']['create']>>
  try {
    // A POST is never retried by the SDK: provisioning cannot run twice behind our back.
    account = await api.hosting.create(clientId, { domain, whm_package: whmPackage })
  } catch (error) {
    if (error instanceof QuotaExceededError) return { ok: false, reason: 'plan_full', message: error.message }
    if (error instanceof DomainTakenError)
      return { ok: false, reason: 'domain_taken', message: error.message }
    if (error instanceof WhmUnavailableError) {
      return { ok: false, reason: 'whm_unavailable', message: error.message }
    }
    throw error
  }
  if (account.sandbox) {
    return {
      ok: true,
      username: account.username,
      cpanelUrl: account.cpanel_url,
      simulated: true,
      ticketId: null,
    }
  }
  const ticket = await api.tickets.create({
    subject: `${WELCOME_SUBJECT} ${account.username} (${account.domain})`,
    message: `Please issue an SSL certificate for ${account.domain}.`,
    department: 'technical',
    priority: 'low',
  })
  return {
    ok: true,
    username: account.username,
    cpanelUrl: account.cpanel_url,
    simulated: false,
    ticketId: ticket.ticket_id,
  }
}

/** Welcome tickets support has not answered yet, across every page of the ticket list. */
export async function unansweredWelcomeTickets(api: ResellerApi): Promise<Ticket[]> {
  const waiting: Ticket[] = []
  for await (const ticket of api.tickets.list()) {
    if (ticket.subject.startsWith(WELCOME_SUBJECT) && ticket.status === 'open') waiting.push(ticket)
  }
  return waiting
}
