/**
 * The scenarios of `reseller-mock compare`, as data: each step names its request, the scope its
 * key needs, and whether it walks every page of a list. Placeholders in braces are filled from the
 * import (`{ticket}`, `{username}`, `{client}`, `{package}`, `{webhook}`); a step whose
 * placeholder has no value in the account is left out. docs/keeping-the-mock-honest.md,
 * "What each scenario sends", shows this table.
 */

/** Which key a step sends. */
export type StepKey =
  /** A key with the step's scope (the first given key otherwise). */
  | 'account'
  /** A key of the right form that the service does not know (401). */
  | 'unknown'
  /** A given key that lacks the step's scope (403); the step is left out when every key has it. */
  | 'lacking'

/** One step of a scenario, before its placeholders are filled. */
export interface StepTemplate {
  name: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Path below the base URL; `{name}` placeholders come from the import. */
  path: string
  scope?: 'reseller:hosting' | 'reseller:webhooks' | 'support:read' | 'support:write'
  key?: StepKey
  body?: unknown
  /** Walks every page (`?page=1`, `2`…) up to one page past the end. */
  walk?: boolean
  /** One step per value of the placeholder (at most {@link EACH_LIMIT}); one step for the first value otherwise. */
  each?: boolean
}

/** A uuid no service hands out (version 4, all zeros but the required bits). */
export const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000'
/** Detail steps of an `each` step at most: the first ones of the list. */
export const EACH_LIMIT = 100

const hosting = 'reseller:hosting' as const
const hooks = 'reseller:webhooks' as const
const read = 'support:read' as const
const write = 'support:write' as const

/** `read`: GET only. */
export const READ_STEPS: StepTemplate[] = [
  { name: 'whm.usage', method: 'GET', path: '/api/v1/reseller/whm/usage', scope: hosting },
  { name: 'whm.accounts', method: 'GET', path: '/api/v1/reseller/whm/accounts', scope: hosting, walk: true },
  {
    name: 'whm.account',
    method: 'GET',
    path: '/api/v1/reseller/whm/accounts/{username}',
    scope: hosting,
    each: true,
  },
  {
    name: 'whm.account.unknown',
    method: 'GET',
    path: '/api/v1/reseller/whm/accounts/zz_no_such_user',
    scope: hosting,
  },
  { name: 'whm.packages', method: 'GET', path: '/api/v1/reseller/whm/packages', scope: hosting, walk: true },
  { name: 'legacy.usage', method: 'GET', path: '/api/v1/reseller/usage', scope: hosting },
  { name: 'legacy.accounts', method: 'GET', path: '/api/v1/reseller/accounts', scope: hosting },
  { name: 'legacy.packages', method: 'GET', path: '/api/v1/reseller/packages', scope: hosting },
  {
    name: 'whm.accounts.bad-page',
    method: 'GET',
    path: '/api/v1/reseller/whm/accounts?page=0',
    scope: hosting,
  },
  { name: 'tickets', method: 'GET', path: '/api/v1/support/tickets', scope: read, walk: true },
  { name: 'ticket', method: 'GET', path: '/api/v1/support/tickets/{ticket}', scope: read, each: true },
  { name: 'ticket.unknown', method: 'GET', path: `/api/v1/support/tickets/${UNKNOWN_UUID}`, scope: read },
  { name: 'ticket.malformed-uuid', method: 'GET', path: '/api/v1/support/tickets/not-a-uuid', scope: read },
  { name: 'tickets.bad-page', method: 'GET', path: '/api/v1/support/tickets?page=abc', scope: read },
  { name: 'tickets.negative-page', method: 'GET', path: '/api/v1/support/tickets?page=-1', scope: read },
  { name: 'reseller-webhook', method: 'GET', path: '/api/v1/reseller/webhook', scope: hooks },
  {
    name: 'deliveries',
    method: 'GET',
    path: '/api/v1/webhooks/{webhook}/deliveries',
    scope: hooks,
    walk: true,
    each: true,
  },
  {
    name: 'deliveries.unknown',
    method: 'GET',
    path: '/api/v1/webhooks/wh_no_such_webhook/deliveries',
    scope: hooks,
  },
  { name: 'services', method: 'GET', path: '/api/v1/services', walk: true },
  { name: 'services.bad-page', method: 'GET', path: '/api/v1/services?page=0' },
  { name: 'invoices', method: 'GET', path: '/api/v1/invoices', walk: true },
  { name: 'invoices.bad-page', method: 'GET', path: '/api/v1/invoices?page=x' },
  { name: 'auth.unknown-key', method: 'GET', path: '/api/v1/support/tickets', key: 'unknown' },
  {
    name: 'auth.no-hosting-scope',
    method: 'GET',
    path: '/api/v1/reseller/whm/usage',
    scope: hosting,
    key: 'lacking',
  },
  {
    name: 'auth.no-webhooks-scope',
    method: 'GET',
    path: '/api/v1/reseller/webhook',
    scope: hooks,
    key: 'lacking',
  },
  {
    name: 'auth.no-support-scope',
    method: 'GET',
    path: '/api/v1/support/tickets',
    scope: read,
    key: 'lacking',
  },
]

/** A domain for simulated provisioning: reserved for examples, never a real customer's. */
export const SANDBOX_DOMAIN = 'fidelity-check.example'

/** `sandbox`: `read`, then writes a sandbox key makes without effect, then writes it must be refused. */
export const SANDBOX_STEPS: StepTemplate[] = [
  ...READ_STEPS,
  {
    name: 'sandbox.provision',
    method: 'POST',
    path: '/api/v1/reseller/clients/{client}/hosting',
    scope: hosting,
    body: { domain: SANDBOX_DOMAIN, whm_package: '{package}' },
  },
  {
    name: 'sandbox.provision.legacy',
    method: 'POST',
    path: '/api/v1/reseller/accounts',
    scope: hosting,
    body: { client_id: '{client}', domain: SANDBOX_DOMAIN, whm_package: '{package}' },
  },
  {
    name: 'sandbox.suspend',
    method: 'POST',
    path: '/api/v1/reseller/whm/accounts/{username}/suspend',
    scope: hosting,
  },
  {
    name: 'sandbox.ticket.create',
    method: 'POST',
    path: '/api/v1/support/tickets',
    scope: write,
    body: { subject: 'Fidelity check', message: 'Sent by reseller-mock compare.', department: 'general' },
  },
  {
    name: 'sandbox.ticket.reply',
    method: 'POST',
    path: '/api/v1/support/tickets/{ticket}/messages',
    scope: write,
    body: { message: 'Sent by reseller-mock compare.' },
  },
  {
    name: 'sandbox.ticket.close',
    method: 'PATCH',
    path: '/api/v1/support/tickets/{ticket}/close',
    scope: write,
  },
  {
    name: 'sandbox.ticket.reopen',
    method: 'PATCH',
    path: '/api/v1/support/tickets/{ticket}/reopen',
    scope: write,
  },
  {
    name: 'sandbox.reseller-webhook.update',
    method: 'PUT',
    path: '/api/v1/reseller/webhook',
    scope: hooks,
    body: { url: 'https://fidelity-check.example/hook', secret: 'fidelity-check-secret' },
  },
  {
    name: 'sandbox.webhook.create',
    method: 'POST',
    path: '/api/v1/webhooks',
    scope: hooks,
    body: { url: 'https://fidelity-check.example/hook', events: ['ticket.created'] },
  },
  {
    name: 'sandbox.webhook.test',
    method: 'POST',
    path: '/api/v1/webhooks/{webhook}/test',
    scope: hooks,
    body: { event: 'test' },
  },
  // The reads again: a write answered "without effect" must have left the account as it was.
  {
    name: 'after.whm.accounts',
    method: 'GET',
    path: '/api/v1/reseller/whm/accounts',
    scope: hosting,
    walk: true,
  },
  { name: 'after.tickets', method: 'GET', path: '/api/v1/support/tickets', scope: read },
]

/** The scenarios by name. */
export const SCENARIOS = { read: READ_STEPS, sandbox: SANDBOX_STEPS } as const
/** A scenario name. */
export type ScenarioName = keyof typeof SCENARIOS

/** Values of the placeholders, from the import (newest first, as the lists answer). */
export type Placeholders = Partial<Record<'ticket' | 'username' | 'client' | 'package' | 'webhook', string[]>>

/** A step ready to send, once its page is known for a walk. */
export interface PlannedStep extends Omit<StepTemplate, 'each'> {
  body?: unknown
}

const PLACEHOLDER = /\{(\w+)\}/g

function fill(text: string, values: Record<string, string>): string | undefined {
  let missing = false
  const out = text.replace(PLACEHOLDER, (_, name: string) => {
    const value = values[name]
    if (value === undefined) missing = true
    return value ?? ''
  })
  return missing ? undefined : out
}

function fillBody(body: unknown, values: Record<string, string>): unknown {
  if (body === undefined) return undefined
  const text = fill(JSON.stringify(body), values)
  if (text === undefined) return undefined
  // A client id is a number in a body: `"{client}"` alone becomes the number.
  return JSON.parse(text.replace(/"client_id":"(\d+)"/, '"client_id":$1'))
}

/** The steps of a scenario with placeholders filled; steps whose values are missing are left out. */
export function planSteps(templates: readonly StepTemplate[], values: Placeholders): PlannedStep[] {
  const steps: PlannedStep[] = []
  for (const { each, ...template } of templates) {
    const names = [
      ...template.path.matchAll(PLACEHOLDER),
      ...JSON.stringify(template.body ?? '').matchAll(PLACEHOLDER),
    ].map((m) => m[1] as keyof Placeholders)
    const varying = each ? names[0] : undefined
    const choices = varying === undefined ? [undefined] : (values[varying] ?? []).slice(0, EACH_LIMIT)
    for (const choice of choices) {
      const filled: Record<string, string> = {}
      for (const name of names) {
        const value = name === varying ? choice : values[name]?.[0]
        if (value !== undefined) filled[name] = value
      }
      const path = fill(template.path, filled)
      if (path === undefined) continue
      const body = fillBody(template.body, filled)
      if (template.body !== undefined && body === undefined) continue
      const name = choice === undefined || !each ? template.name : `${template.name}[${choice}]`
      steps.push({ ...template, name, path, ...(body === undefined ? {} : { body }) })
    }
  }
  return steps
}
