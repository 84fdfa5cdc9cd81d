/**
 * The seed format (docs/running-the-mock.md, "Seed format"), validated at load with a schema built from the SDK's pieces.
 * Everything but `resellers`, each reseller's `id` and its `api_keys` is optional. A bad seed
 * throws a {@link SeedError} whose message names each failing path and rule, e.g.
 * `resellers[0].api_keys[1].scopes[0]: unknown scope "x"`.
 */
import {
  AccountStatus,
  ApiKey,
  Count,
  CpanelUsername,
  DeliveryStatus,
  Department,
  Domain,
  GeneralEventName,
  HttpUrl,
  Id,
  INVOICE_STATUSES,
  Invoice,
  issueMessages,
  MessageAuthor,
  MessageText,
  PackageName,
  Priority,
  SCOPES,
  Scope,
  SERVICE_STATUSES,
  SERVICE_TYPES,
  Subject,
  TicketStatus,
  TimestampUtc,
  Uuid,
  WebhookUrl,
} from '@reseller-api/sdk/schemas'
import * as z from 'zod/mini'
import { WhmStatus } from '../state/schemas.js'

/** Default price of a domain registration, debited from the wallet (`domain_price`). */
export const DEFAULT_DOMAIN_PRICE = 12.5

/** A non-negative amount, as the SDK's `Invoice.total`. */
const Money = Invoice.shape.total

const SeedPackage = z.strictObject({
  name: PackageName,
  quota: z._default(Count, 0),
  bandwidth: z._default(Count, 0),
  maxsql: z._default(Count, 0),
  maxpop: z._default(Count, 0),
  maxftp: z._default(Count, 0),
  maxsub: z._default(Count, 0),
})

const SeedClient = z.strictObject({
  id: Id,
  name: z.optional(z.string()),
  email: z.optional(z.string()),
})

const SeedApiKey = z.strictObject({
  key: ApiKey,
  scopes: z._default(z.array(Scope), [...SCOPES]),
})

const SeedWhm = z.strictObject({
  status: z._default(WhmStatus, 'online'),
  accounts_limit: z._default(Count, 10),
  disk_limit_mb: z._default(Count, 10240),
  bandwidth_limit_mb: z._default(Count, 102400),
})

const SeedAccount = z.strictObject({
  username: z.optional(CpanelUsername),
  domain: Domain,
  client_id: z.optional(z.nullable(Id)),
  whm_package: PackageName,
  status: z._default(AccountStatus, 'active'),
  disk_used_mb: z.optional(Count),
  bandwidth_used_mb: z.optional(Count),
  /** Kept from an import (`reseller-mock import`); a clock time otherwise. */
  created_at: z.optional(TimestampUtc),
  /** Kept from an import; the creation time for a suspended account otherwise. */
  suspended_at: z.optional(z.nullable(TimestampUtc)),
})

const SeedMessage = z.strictObject({
  /** Kept from an import; numbered in seed order otherwise. */
  id: z.optional(Id),
  message: MessageText,
  internal: z._default(z.boolean(), false),
  from: z._default(MessageAuthor, 'client'),
  created_at: z.optional(TimestampUtc),
})

const SeedTicket = z.strictObject({
  /** Kept from an import; numbered in seed order otherwise. */
  id: z.optional(Id),
  uuid: z.optional(Uuid),
  subject: Subject,
  department: Department,
  priority: z._default(Priority, 'normal'),
  status: z._default(TicketStatus, 'open'),
  service_id: z.optional(z.nullable(Uuid)),
  messages: z.array(SeedMessage).check(z.minLength(1, 'must hold at least the first message')),
  /** Kept from an import; the first message's time otherwise. */
  created_at: z.optional(TimestampUtc),
  /** Kept from an import; the last visible message's time otherwise. */
  updated_at: z.optional(TimestampUtc),
})

const SeedService = z.strictObject({
  id: z.optional(Uuid),
  type: z.enum(SERVICE_TYPES, { error: `must be one of ${SERVICE_TYPES.join(', ')}` }),
  name: z.string(),
  status: z._default(
    z.enum(SERVICE_STATUSES, { error: `must be one of ${SERVICE_STATUSES.join(', ')}` }),
    'active',
  ),
  created_at: z.optional(TimestampUtc),
})

const SeedInvoice = z.strictObject({
  id: z.optional(Id),
  number: z.optional(z.string()),
  status: z._default(
    z.enum(INVOICE_STATUSES, { error: `must be one of ${INVOICE_STATUSES.join(', ')}` }),
    'unpaid',
  ),
  total: Money,
  currency: z._default(Invoice.shape.currency, 'EUR'),
  created_at: z.optional(TimestampUtc),
  due_at: z.optional(z.nullable(TimestampUtc)),
})

const SeedResellerWebhook = z.strictObject({
  url: HttpUrl,
  secret: z.string().check(z.minLength(1, 'must not be empty')),
})

/** A past delivery of a general webhook, as `GET /webhooks/{id}/deliveries` shows it (kept from an import). */
const SeedDelivery = z.strictObject({
  delivery_id: z.string().check(z.minLength(1, 'must not be empty')),
  event: z.string().check(z.minLength(1, 'must not be empty')),
  status: DeliveryStatus,
  http_status: z._default(z.nullable(z.int()), null),
  duration_ms: z.optional(Count),
  error: z.optional(z.string()),
  retries: z._default(Count, 0),
  attempted_at: z._default(z.nullable(TimestampUtc), null),
  next_attempt_at: z._default(z.nullable(TimestampUtc), null),
})

const SeedWebhook = z.strictObject({
  id: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
  url: WebhookUrl,
  events: z.array(GeneralEventName).check(z.minLength(1, 'must list at least one event')),
  secret: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
  /** Past deliveries, oldest first (the list answers newest first). */
  deliveries: z._default(z.array(SeedDelivery), []),
})

const SeedReseller = z.strictObject({
  id: Id,
  name: z.optional(z.string()),
  wallet_balance: z._default(Money, 0),
  /** Absent: the reseller has no reseller service (`no_reseller_service`). */
  whm: z.optional(SeedWhm),
  packages: z._default(z.array(SeedPackage), []),
  clients: z._default(z.array(SeedClient), []),
  api_keys: z.array(SeedApiKey),
  accounts: z._default(z.array(SeedAccount), []),
  tickets: z._default(z.array(SeedTicket), []),
  services: z._default(z.array(SeedService), []),
  invoices: z._default(z.array(SeedInvoice), []),
  /** The reseller-style webhook, as `PUT /reseller/webhook` would set it. */
  webhook: z.optional(SeedResellerWebhook),
  /** General webhooks, as `POST /webhooks` would create them (the secret is generated when absent). */
  webhooks: z._default(z.array(SeedWebhook), []),
})

/** The seed of a mock. */
export const seedSchema = z.strictObject({
  domain_price: z._default(Money, DEFAULT_DOMAIN_PRICE),
  resellers: z.array(SeedReseller).check(z.minLength(1, 'must list at least one reseller')),
})

/** A seed as written (optional fields may be left out). */
export type SeedInput = z.input<typeof seedSchema>
/** A seed once parsed: defaults applied. */
export type Seed = z.output<typeof seedSchema>

/** One problem of a seed: where (`resellers[0].api_keys[1].scopes[0]`) and what. */
export interface SeedIssue {
  path: string
  message: string
}

/** A seed that cannot be loaded; `message` lists every issue as `path: rule`. */
export class SeedError extends Error {
  override readonly name = 'SeedError'
  constructor(readonly issues: SeedIssue[]) {
    super(`invalid seed: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`)
  }
}

/** `resellers[0].api_keys[1]` from `['resellers', 0, 'api_keys', 1]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out === '' ? String(part) : `.${String(part)}`
  }
  return out === '' ? '(seed)' : out
}

function issuesOf(error: z.core.$ZodError): SeedIssue[] {
  return issueMessages(error.issues).map(({ path, message }) => ({ path: formatPath(path), message }))
}

// Readers of a seed that may not have passed the field rules: a value of the wrong type reads as
// absent, so the cross rules still run on the rest and every problem is reported at once.
type Loose = Record<string, unknown>
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
const record = (value: unknown): Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : {}
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)
const int = (value: unknown): number | undefined => (Number.isInteger(value) ? (value as number) : undefined)

/**
 * Rules across fields: unique ids and keys, references that must exist, quota. Runs on the parsed
 * seed, or on the raw input when field rules failed (values of the wrong type are skipped there).
 */
function crossCheck(seed: unknown): SeedIssue[] {
  const issues: SeedIssue[] = []
  const add = (path: PropertyKey[], message: string) => issues.push({ path: formatPath(path), message })
  // The first path of each key is kept as is and formatted only for a duplicate: a seed of 100,000
  // records would otherwise build 100,000 path strings nobody reads.
  const unique = <K>(seen: Map<K, PropertyKey[]>, key: K | undefined, path: PropertyKey[], what: string) => {
    if (key === undefined) return
    const first = seen.get(key)
    if (first !== undefined)
      add(path, `duplicate ${what} ${JSON.stringify(key)} (first at ${formatPath(first)})`)
    else seen.set(key, path)
  }
  const resellerIds = new Map<number, PropertyKey[]>()
  const keys = new Map<string, PropertyKey[]>()
  const clientIds = new Map<number, PropertyKey[]>()
  const usernames = new Map<string, PropertyKey[]>()
  const domains = new Map<string, PropertyKey[]>()
  const ticketUuids = new Map<string, PropertyKey[]>()
  const serviceIds = new Map<string, PropertyKey[]>()
  const invoiceIds = new Map<number, PropertyKey[]>()
  const webhookIds = new Map<string, PropertyKey[]>()
  const ticketIds = new Map<number, PropertyKey[]>()
  const messageIds = new Map<number, PropertyKey[]>()
  const deliveryIds = new Map<string, PropertyKey[]>()
  list(record(seed).resellers).forEach((item, r) => {
    const reseller = record(item)
    const at = (...rest: PropertyKey[]) => ['resellers', r, ...rest]
    unique(resellerIds, int(reseller.id), at('id'), 'reseller id')
    if (Array.isArray(reseller.api_keys) && reseller.api_keys.length === 0)
      add(at('api_keys'), 'must list at least one key')
    list(reseller.api_keys).forEach((key, k) => {
      unique(keys, text(record(key).key), at('api_keys', k, 'key'), 'API key')
    })
    const packages = new Map<string, PropertyKey[]>()
    list(reseller.packages).forEach((p, i) => {
      unique(packages, text(record(p).name), at('packages', i, 'name'), 'package name')
    })
    const clients = new Set<number>()
    list(reseller.clients).forEach((c, i) => {
      const id = int(record(c).id)
      unique(clientIds, id, at('clients', i, 'id'), 'client id')
      if (id !== undefined) clients.add(id)
    })
    const accounts = list(reseller.accounts)
    // The WHM block with its defaults, when it is valid at all.
    const whm = reseller.whm === undefined ? undefined : SeedWhm.safeParse(reseller.whm).data
    if (accounts.length > 0 && reseller.whm === undefined) {
      add(at('accounts'), 'a reseller without WHM (whm absent or status "none") cannot have accounts')
    } else if (accounts.length > 0 && whm?.status === 'none') {
      add(at('accounts'), 'a reseller without WHM (whm absent or status "none") cannot have accounts')
    } else if (whm && accounts.length > whm.accounts_limit) {
      add(at('accounts'), `lists ${accounts.length} accounts but whm.accounts_limit is ${whm.accounts_limit}`)
    }
    accounts.forEach((item, i) => {
      const a = record(item)
      unique(usernames, text(a.username), at('accounts', i, 'username'), 'username')
      unique(domains, text(a.domain)?.toLowerCase(), at('accounts', i, 'domain'), 'domain')
      const pkg = text(a.whm_package)
      if (pkg !== undefined && !packages.has(pkg))
        add(at('accounts', i, 'whm_package'), `unknown package "${pkg}"`)
      const client = int(a.client_id)
      if (client !== undefined && !clients.has(client)) {
        add(at('accounts', i, 'client_id'), `unknown client ${client} of this reseller`)
      }
    })
    const services = new Set<string>()
    list(reseller.services).forEach((s, i) => {
      const id = text(record(s).id)
      unique(serviceIds, id, at('services', i, 'id'), 'service id')
      if (id !== undefined) services.add(id)
    })
    list(reseller.tickets).forEach((item, i) => {
      const t = record(item)
      unique(ticketUuids, text(t.uuid), at('tickets', i, 'uuid'), 'ticket uuid')
      unique(ticketIds, int(t.id), at('tickets', i, 'id'), 'ticket id')
      list(t.messages).forEach((m, j) => {
        unique(messageIds, int(record(m).id), at('tickets', i, 'messages', j, 'id'), 'message id')
      })
      const service = text(t.service_id)
      if (service !== undefined && !services.has(service)) {
        add(at('tickets', i, 'service_id'), `not the id of a service of this reseller`)
      }
    })
    list(reseller.invoices).forEach((v, i) => {
      unique(invoiceIds, int(record(v).id), at('invoices', i, 'id'), 'invoice id')
    })
    list(reseller.webhooks).forEach((item, i) => {
      const w = record(item)
      unique(webhookIds, text(w.id), at('webhooks', i, 'id'), 'webhook id')
      list(w.deliveries).forEach((d, j) => {
        unique(
          deliveryIds,
          text(record(d).delivery_id),
          at('webhooks', i, 'deliveries', j, 'delivery_id'),
          'delivery id',
        )
      })
      const events = list(w.events)
      if (new Set(events).size !== events.length)
        add(at('webhooks', i, 'events'), 'must not list an event twice')
    })
  })
  return issues
}

/**
 * Validates a seed and applies its defaults; throws {@link SeedError} listing every
 * problem, field rules and cross rules (duplicates, references, quota) together.
 */
export function parseSeed(input: unknown): Seed {
  const result = seedSchema.safeParse(input, { reportInput: true })
  // Field rules and cross rules together: one run lists every problem of the seed.
  const issues = [
    ...(result.success ? [] : issuesOf(result.error)),
    ...crossCheck(result.success ? result.data : input),
  ]
  if (issues.length > 0 || !result.success) throw new SeedError(issues)
  return result.data
}
