/**
 * Loads a parsed seed into an empty store, in one transaction. Seed order is creation order: the
 * last ticket, service or invoice of a list is the newest and comes first in its list answers.
 * Timestamps come from the clock (strictly increasing) unless the seed gives `created_at`.
 */
import { keyMode } from '@reseller-api/sdk/schemas'
import { accountUsage, deriveUsername } from '../domain/hosting.js'
import { generateWebhookSecret, nextWebhookId } from '../domain/webhooks.js'
import { type MockRandom, unusedId } from '../state/random.js'
import type { Store } from '../state/store.js'
import { formatMicros, parseMicros } from '../state/timestamps.js'
import type { Seed } from './schema.js'

/** A timestamp given by the seed, normalized to microseconds. */
export function normalizeTimestamp(given: string): string {
  const micros = parseMicros(given)
  return Number.isNaN(micros) ? formatMicros(Date.parse(given) * 1000) : formatMicros(micros)
}

/**
 * {@link formatMicros} for many timestamps a few microseconds apart: the date and time of a
 * second is formatted once, then only the microseconds change.
 */
export function timestampFormatter(): (micros: number) => string {
  let second = Number.NaN
  let prefix = ''
  return (micros) => {
    const s = Math.floor(micros / 1_000_000)
    if (s !== second) {
      second = s
      prefix = formatMicros(s * 1_000_000).slice(0, 19)
    }
    return `${prefix}.${String(micros - s * 1_000_000).padStart(6, '0')}Z`
  }
}

/**
 * Fills in, once, what a seed leaves to chance (ticket uuids, service ids, webhook secrets), in
 * place on a parsed seed, so that applying it again (`reset()`) gives the very same state.
 */
export function resolveSeed(seed: Seed, random: MockRandom): Seed {
  // A drawn uuid never repeats one the seed gives (an imported seed holds another mock's draws).
  const given = new Set(
    seed.resellers.flatMap((r) => [...r.tickets.map((t) => t.uuid), ...r.services.map((s) => s.id)]),
  )
  const uuid = () =>
    unusedId(
      () => random.uuid(),
      (value) => given.has(value),
    )
  for (const r of seed.resellers) {
    for (const t of r.tickets) t.uuid ??= uuid()
    for (const s of r.services) s.id ??= uuid()
    for (const w of r.webhooks) w.secret ??= generateWebhookSecret(random)
  }
  return seed
}

/** A value {@link resolveSeed} fills in; its absence is a programming error, not bad input. */
function resolved<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw new TypeError(`applySeed: ${field} is not set: call resolveSeed first`)
  return value
}

/**
 * Writes `seed` into `store`, a fresh store of its own (`seed/prepared.ts` moves the rows into a
 * mock's store with `store.load`): no transaction, as nobody listens to it and a failure leaves
 * nothing anyone reads. Timestamps the seed does not give are `startMicros`, `startMicros + 1`…
 * in seed order, so that a reset reproduces them exactly. Returns how many such timestamps it made.
 */
export function applySeed(store: Store, seed: Seed, startMicros: number): number {
  let next = startMicros
  const format = timestampFormatter()
  const now = () => format(next++)
  const stamp = (given: string | null | undefined) => (given == null ? now() : normalizeTimestamp(given))
  // Generated ids skip the ones the seed gives explicitly, wherever they come in the seed.
  const explicitInvoices = new Set(seed.resellers.flatMap((r) => r.invoices.flatMap((v) => v.id ?? [])))
  const explicitWebhooks = new Set(seed.resellers.flatMap((r) => r.webhooks.flatMap((w) => w.id ?? [])))
  const explicitTickets = new Set(seed.resellers.flatMap((r) => r.tickets.flatMap((t) => t.id ?? [])))
  const explicitMessages = new Set(
    seed.resellers.flatMap((r) => r.tickets.flatMap((t) => t.messages.flatMap((m) => m.id ?? []))),
  )
  const fresh = (counter: string, explicit: Set<number>) => {
    let id = store.nextId(counter)
    while (explicit.has(id)) id = store.nextId(counter)
    return id
  }
  store.settings.insert({ key: 'settings', domain_price: seed.domain_price })
  for (const r of seed.resellers) {
    const whm = r.whm ?? {
      status: 'none' as const,
      accounts_limit: 0,
      disk_limit_mb: 0,
      bandwidth_limit_mb: 0,
    }
    store.resellers.insert({
      id: r.id,
      name: r.name ?? `Reseller ${r.id}`,
      wallet_balance: r.wallet_balance,
      whm_status: whm.status,
      accounts_limit: whm.accounts_limit,
      disk_limit_mb: whm.disk_limit_mb,
      bandwidth_limit_mb: whm.bandwidth_limit_mb,
    })
    for (const key of r.api_keys) {
      store.apiKeys.insert({
        key: key.key,
        reseller_id: r.id,
        scopes: [...new Set(key.scopes)],
        // The seed schema checked the key: it has one of the two prefixes.
        mode: keyMode(key.key)!,
      })
    }
    for (const c of r.clients) {
      store.clients.insert({
        id: c.id,
        reseller_id: r.id,
        name: c.name ?? `Client ${c.id}`,
        email: c.email ?? `client${c.id}@example.com`,
      })
    }
    for (const p of r.packages) store.packages.insert({ ...p, reseller_id: r.id, created_at: now() })
    for (const a of r.accounts) {
      const pkg = r.packages.find((p) => p.name === a.whm_package)!
      const usage = accountUsage(pkg)
      const created_at = stamp(a.created_at)
      store.accounts.insert({
        username: a.username ?? deriveUsername(store, a.domain),
        domain: a.domain.toLowerCase(),
        client_id: a.client_id ?? null,
        whm_package: a.whm_package,
        status: a.status,
        disk_used_mb: a.disk_used_mb ?? usage.disk_used_mb,
        bandwidth_used_mb: a.bandwidth_used_mb ?? usage.bandwidth_used_mb,
        created_at,
        suspended_at:
          a.suspended_at !== undefined
            ? a.suspended_at && normalizeTimestamp(a.suspended_at)
            : a.status === 'suspended'
              ? created_at
              : null,
        reseller_id: r.id,
      })
    }
    for (const s of r.services) {
      store.services.insert({
        id: resolved(s.id, 'services[].id'),
        type: s.type,
        name: s.name,
        status: s.status,
        created_at: stamp(s.created_at),
        reseller_id: r.id,
      })
    }
    for (const v of r.invoices) {
      let id = v.id ?? store.nextId('invoice')
      while (v.id === undefined && explicitInvoices.has(id)) id = store.nextId('invoice')
      store.invoices.insert({
        id,
        number: v.number ?? `INV-${String(id).padStart(6, '0')}`,
        status: v.status,
        total: v.total,
        currency: v.currency,
        created_at: stamp(v.created_at),
        due_at: v.due_at == null ? null : stamp(v.due_at),
        reseller_id: r.id,
      })
    }
    for (const t of r.tickets) {
      const created_at = stamp(t.created_at)
      const id = t.id ?? fresh('ticket', explicitTickets)
      // Messages first in memory, so the ticket is stored once with its final count and time.
      let visible = 0
      let updated_at = created_at
      const messages = t.messages.map((m, i) => {
        const at =
          m.created_at !== undefined ? normalizeTimestamp(m.created_at) : i === 0 ? created_at : now()
        if (!m.internal) {
          visible++
          updated_at = at
        }
        return { id: m.id, message: m.message, from: m.from, internal: m.internal, created_at: at }
      })
      store.tickets.insert({
        id,
        uuid: resolved(t.uuid, 'tickets[].uuid'),
        user_id: r.id,
        subject: t.subject,
        department: t.department,
        status: t.status,
        priority: t.priority,
        messages_count: visible,
        created_at,
        updated_at: t.updated_at === undefined ? updated_at : normalizeTimestamp(t.updated_at),
        reseller_id: r.id,
        service_id: t.service_id ?? null,
      })
      for (const { id: given, ...m } of messages)
        store.messages.insert({ id: given ?? fresh('message', explicitMessages), ticket_id: id, ...m })
    }
    if (r.webhook) {
      store.resellerWebhooks.insert({
        reseller_id: r.id,
        url: r.webhook.url,
        secret: r.webhook.secret,
        updated_at: now(),
      })
    }
    for (const w of r.webhooks) {
      const webhookId = w.id ?? nextWebhookId(store, explicitWebhooks)
      store.webhooks.insert({
        id: webhookId,
        reseller_id: r.id,
        url: w.url,
        events: w.events,
        secret: resolved(w.secret, 'webhooks[].secret'),
        created_at: now(),
      })
      for (const d of w.deliveries) insertDelivery(store, r.id, webhookId, d, stamp)
    }
  }
  // Ids given by the seed are never handed out again.
  raiseCounter(store, 'ticket', explicitTickets)
  raiseCounter(store, 'message', explicitMessages)
  raiseCounter(store, 'invoice', explicitInvoices)
  store.observeTimestamp(next)
  return next - startMicros
}

/** Draws ids from `counter` until it is past every id of `explicit`. */
function raiseCounter(store: Store, counter: string, explicit: Set<number>): void {
  let max = 0
  for (const id of explicit) if (id > max) max = id
  for (let id = 0; id < max; ) id = store.nextId(counter)
}

/** A past delivery of a seeded webhook; its payload is a plain envelope of its event. */
function insertDelivery(
  store: Store,
  resellerId: number,
  webhookId: string,
  d: Seed['resellers'][number]['webhooks'][number]['deliveries'][number],
  stamp: (given: string | null | undefined) => string,
): void {
  const attempted_at = d.attempted_at === null ? null : normalizeTimestamp(d.attempted_at)
  store.deliveries.insert({
    delivery_id: d.delivery_id,
    event: d.event,
    status: d.status,
    http_status: d.http_status,
    ...(d.duration_ms === undefined ? {} : { duration_ms: d.duration_ms }),
    ...(d.error === undefined ? {} : { error: d.error }),
    retries: d.retries,
    attempted_at,
    next_attempt_at: d.next_attempt_at === null ? null : normalizeTimestamp(d.next_attempt_at),
    webhook_id: webhookId,
    reseller_id: resellerId,
    event_id: null,
    payload: JSON.stringify({ event: d.event, delivery_id: d.delivery_id, data: {} }),
    attempts: d.retries + (attempted_at === null ? 0 : 1),
    created_at: stamp(attempted_at),
  })
}
