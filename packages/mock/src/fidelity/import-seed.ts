/**
 * Turns what `reseller-mock import` read into a seed the mock loads as it is. The upstream's ids,
 * uuids, timestamps and figures are kept; a value the seed cannot hold (an enum value the mock
 * does not know, a timestamp with an offset) is replaced by the nearest one it can and reported
 * through `warn`, so that the import still succeeds and `compare` shows the drift.
 */
import { randomBytes } from 'node:crypto'
import {
  ACCOUNT_STATUSES,
  CpanelUsername,
  DELIVERY_STATUSES,
  DEPARTMENTS,
  Domain,
  GENERAL_EVENTS,
  INVOICE_STATUSES,
  MESSAGE_MAX_LENGTH,
  PackageName,
  PRIORITIES,
  SERVICE_STATUSES,
  SERVICE_TYPES,
  SUBJECT_MAX_LENGTH,
  TICKET_STATUSES,
  Uuid,
} from '@reseller-api/sdk/schemas'
import type { SeedInput } from '../seed/schema.js'
import { scramble, scrambleDomain, scrambleUsername } from './redact.js'

type Loose = Record<string, unknown>
type Reseller = SeedInput['resellers'][number]

/** What the keys could see of the account; `undefined` where no key could read. */
export interface Observed {
  resellerId: number
  whm: { status: 'online' | 'offline' | 'none'; usage?: Loose } | undefined
  packages?: Loose[]
  accounts?: Loose[]
  /** List items merged with their detail (`messages`, `service_id`). */
  tickets?: Loose[]
  services?: Loose[]
  invoices?: Loose[]
  resellerWebhookUrl?: string | null
  webhooks: { id: string; deliveries: Loose[] }[]
}

const record = (value: unknown): Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : {}
/** A count the seed can hold: a non-negative integer, or the digits of one sent as a string. */
const count = (value: unknown, fallback = 0) => {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value
  return Number.isInteger(n) && (n as number) >= 0 ? (n as number) : fallback
}
const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

/** A webhook secret for the seed: the API never shows the real one. */
export function generateSecret(): string {
  return `whsec_${randomBytes(16).toString('hex')}`
}

class SeedBuilder {
  constructor(
    readonly redact: boolean,
    readonly warn: (line: string) => void,
  ) {}

  /** A timestamp the seed accepts (UTC, `Z`), or `undefined`. */
  time(value: unknown, where: string): string | undefined {
    if (typeof value !== 'string') return undefined
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value)) return value
    const ms = Date.parse(value)
    if (Number.isNaN(ms)) {
      this.warn(`${where}: ${JSON.stringify(value)} is not a timestamp; left to the mock's clock`)
      return undefined
    }
    this.warn(`${where}: ${JSON.stringify(value)} is not UTC with Z; stored as ${new Date(ms).toISOString()}`)
    return new Date(ms).toISOString()
  }

  choice<T extends string>(value: unknown, allowed: readonly T[], fallback: T, where: string): T {
    if (allowed.includes(value as T)) return value as T
    this.warn(
      `${where}: ${JSON.stringify(value)} is not one of ${allowed.join(', ')}; stored as "${fallback}"`,
    )
    return fallback
  }

  personal(value: string): string {
    return this.redact ? scramble(value) : value
  }

  packages(rows: Loose[]): NonNullable<Reseller['packages']> {
    return rows.flatMap((p, i) => {
      if (!PackageName.safeParse(p.name).success) {
        this.warn(`packages[${i}].name: ${JSON.stringify(p.name)} is not a package name; package left out`)
        return []
      }
      const { name, quota, bandwidth, maxsql, maxpop, maxftp, maxsub } = p
      return [
        {
          name: name as string,
          quota: count(quota),
          bandwidth: count(bandwidth),
          maxsql: count(maxsql),
          maxpop: count(maxpop),
          maxftp: count(maxftp),
          maxsub: count(maxsub),
        },
      ]
    })
  }

  accounts(rows: Loose[]): NonNullable<Reseller['accounts']> {
    return rows.flatMap((a, i) => {
      const where = `accounts[${i}]`
      if (!Domain.safeParse(a.domain).success) {
        this.warn(`${where}.domain: ${JSON.stringify(a.domain)} is not a domain; account left out`)
        return []
      }
      const username = CpanelUsername.safeParse(a.username).success ? (a.username as string) : undefined
      return [
        {
          ...(username === undefined
            ? {}
            : { username: this.redact ? scrambleUsername(username) : username }),
          domain: this.redact ? scrambleDomain(a.domain as string) : (a.domain as string),
          client_id: Number.isInteger(a.client_id) ? (a.client_id as number) : null,
          whm_package: String(a.whm_package),
          status: this.choice(a.status, ACCOUNT_STATUSES, 'active', `${where}.status`),
          disk_used_mb: count(a.disk_used_mb),
          bandwidth_used_mb: count(a.bandwidth_used_mb),
          created_at: this.time(a.created_at, `${where}.created_at`),
          suspended_at: a.suspended_at === null ? null : this.time(a.suspended_at, `${where}.suspended_at`),
        },
      ]
    })
  }

  tickets(rows: Loose[], serviceIds: Set<string>): NonNullable<Reseller['tickets']> {
    return rows.flatMap((t, i) => {
      const where = `tickets[${i}]`
      if (!Uuid.safeParse(t.uuid).success) {
        this.warn(`${where}.uuid: ${JSON.stringify(t.uuid)} is not a uuid; ticket left out`)
        return []
      }
      const messages = (Array.isArray(t.messages) ? t.messages : []).map((raw, m) => {
        const message = record(raw)
        const body = (text(message.message) || '(empty)').slice(0, MESSAGE_MAX_LENGTH)
        return {
          ...(Number.isInteger(message.id) ? { id: message.id as number } : {}),
          message: this.personal(body),
          internal: false,
          from: this.choice(
            message.from,
            ['client', 'staff'] as const,
            'client',
            `${where}.messages[${m}].from`,
          ),
          created_at: this.time(message.created_at, `${where}.messages[${m}].created_at`),
        }
      })
      // A ticket shows only its public messages; one without any keeps an internal note, unseen.
      if (messages.length === 0)
        messages.push({
          message: '(no public message)',
          internal: true,
          from: 'staff',
          created_at: undefined,
        })
      const service = text(t.service_id)
      return [
        {
          ...(Number.isInteger(t.id) ? { id: t.id as number } : {}),
          uuid: t.uuid as string,
          subject: this.personal((text(t.subject) || '(no subject)').slice(0, SUBJECT_MAX_LENGTH)),
          department: this.choice(t.department, DEPARTMENTS, 'general', `${where}.department`),
          priority: this.choice(t.priority, PRIORITIES, 'normal', `${where}.priority`),
          status: this.choice(t.status, TICKET_STATUSES, 'open', `${where}.status`),
          service_id: service !== undefined && serviceIds.has(service) ? service : null,
          messages,
          created_at: this.time(t.created_at, `${where}.created_at`),
          updated_at: this.time(t.updated_at, `${where}.updated_at`),
        },
      ]
    })
  }

  services(rows: Loose[]): NonNullable<Reseller['services']> {
    return rows.flatMap((s, i) => {
      const where = `services[${i}]`
      if (!Uuid.safeParse(s.id).success) return []
      return [
        {
          id: s.id as string,
          type: this.choice(s.type, SERVICE_TYPES, 'hosting', `${where}.type`),
          name: this.personal(text(s.name) ?? ''),
          status: this.choice(s.status, SERVICE_STATUSES, 'active', `${where}.status`),
          created_at: this.time(s.created_at, `${where}.created_at`),
        },
      ]
    })
  }

  invoices(rows: Loose[]): NonNullable<Reseller['invoices']> {
    return rows.map((v, i) => {
      const where = `invoices[${i}]`
      const total = typeof v.total === 'number' && v.total >= 0 ? v.total : 0
      const currency = typeof v.currency === 'string' && /^[A-Z]{3}$/.test(v.currency) ? v.currency : 'EUR'
      return {
        ...(Number.isInteger(v.id) && (v.id as number) > 0 ? { id: v.id as number } : {}),
        ...(text(v.number) === undefined ? {} : { number: v.number as string }),
        status: this.choice(v.status, INVOICE_STATUSES, 'unpaid', `${where}.status`),
        total,
        currency,
        created_at: this.time(v.created_at, `${where}.created_at`),
        due_at: v.due_at === null ? null : this.time(v.due_at, `${where}.due_at`),
      }
    })
  }

  webhook(id: string, deliveries: Loose[]): NonNullable<Reseller['webhooks']>[number] {
    const events = [...new Set(deliveries.map((d) => d.event))].filter(
      (e): e is (typeof GENERAL_EVENTS)[number] =>
        GENERAL_EVENTS.includes(e as (typeof GENERAL_EVENTS)[number]),
    )
    return {
      id,
      // The API never shows a general webhook's URL or events: a placeholder that receives nothing.
      url: `https://webhooks.invalid/${encodeURIComponent(id)}`,
      events: events.length > 0 ? events : ['ticket.created'],
      secret: generateSecret(),
      deliveries: deliveries.map((d, i) => {
        const where = `webhooks.${id}.deliveries[${i}]`
        return {
          delivery_id: text(d.delivery_id) || `delivery_${i + 1}`,
          event: text(d.event) || 'test',
          status: this.choice(d.status, DELIVERY_STATUSES, 'failed', `${where}.status`),
          http_status: Number.isInteger(d.http_status) ? (d.http_status as number) : null,
          ...(Number.isInteger(d.duration_ms) ? { duration_ms: count(d.duration_ms) } : {}),
          ...(typeof d.error === 'string' ? { error: d.error } : {}),
          retries: count(d.retries),
          attempted_at:
            d.attempted_at === null ? null : (this.time(d.attempted_at, `${where}.attempted_at`) ?? null),
          next_attempt_at:
            d.next_attempt_at === null
              ? null
              : (this.time(d.next_attempt_at, `${where}.next_attempt_at`) ?? null),
        }
      }),
    }
  }
}

/**
 * Rows in creation order, oldest first. Records with integer ids (tickets, invoices) are sorted by
 * id: ids grow with creation, so a list that the service orders otherwise than newest first shows
 * up in `compare` as a difference of order instead of being copied into the seed. Other records
 * keep the order the list showed, reversed (lists answer newest first).
 */
export function creationOrder<T extends Loose>(rows: T[] | undefined): T[] {
  const oldestFirst = [...(rows ?? [])].reverse()
  if (!oldestFirst.every((row) => Number.isInteger(row.id))) return oldestFirst
  return oldestFirst.sort((a, b) => (a.id as number) - (b.id as number))
}

/**
 * The seed of one reseller from what was read, lists in creation order ({@link creationOrder}: a
 * seed is in creation order, the API lists newest first). `keys` are the new keys, already made.
 */
export function buildSeed(
  observed: Observed,
  keys: { key: string; scopes: string[] }[],
  options: { redact: boolean; warn: (line: string) => void },
): SeedInput {
  const build = new SeedBuilder(options.redact, options.warn)
  const oldestFirst = <T>(rows: T[] | undefined) => [...(rows ?? [])].reverse()
  const packages = build.packages(oldestFirst(observed.packages))
  const accounts = build.accounts(oldestFirst(observed.accounts))
  // An account on a package the list did not show still loads, on a package of that name.
  for (const a of accounts) {
    if (!packages.some((p) => p.name === a.whm_package) && PackageName.safeParse(a.whm_package).success)
      packages.push({ name: a.whm_package })
  }
  const services = build.services(oldestFirst(observed.services))
  const serviceIds = new Set(services.map((s) => s.id as string))
  const clientIds = [...new Set(accounts.flatMap((a) => (a.client_id == null ? [] : [a.client_id])))]
  const usage = record(observed.whm?.usage)
  const reseller: Reseller = {
    id: observed.resellerId,
    api_keys: keys.map(({ key, scopes }) => ({ key, scopes: scopes as never })),
    packages,
    clients: clientIds.map((id) => ({ id })),
    accounts: accounts.filter((a) => packages.some((p) => p.name === a.whm_package)),
    tickets: build.tickets(creationOrder(observed.tickets), serviceIds),
    services,
    invoices: build.invoices(creationOrder(observed.invoices)),
    webhooks: observed.webhooks.map((w) => build.webhook(w.id, oldestFirst(w.deliveries))),
  }
  if (observed.whm && observed.whm.status !== 'none') {
    reseller.whm = {
      status: observed.whm.status,
      accounts_limit: Math.max(count(usage.accounts_limit, 10), accounts.length),
      disk_limit_mb: count(usage.disk_limit_mb, 10240),
      bandwidth_limit_mb: count(usage.bandwidth_limit_mb, 102400),
    }
  }
  if (typeof observed.resellerWebhookUrl === 'string')
    reseller.webhook = { url: observed.resellerWebhookUrl, secret: generateSecret() }
  return { resellers: [reseller] }
}
