/** The read-mostly panels: resellers and their keys, accounts and their usage, webhooks and deliveries. */
import { call, type Row } from './api.js'
import { byId, h, replace } from './dom.js'
import { act, noticeBox } from './notices.js'
import { view } from './view.js'
import { badge, code, details, empty, pretty, table, text } from './widgets.js'

const tables = () => view.state?.tables ?? {}

export function drawResellers(): void {
  const keys = tables().apiKeys ?? []
  replace(
    byId('resellers-body'),
    (tables().resellers ?? []).map((r) =>
      h(
        'article',
        { class: 'card' },
        h('h3', null, `#${text(r.id)} ${text(r.name)}`),
        h(
          'p',
          { class: 'muted' },
          `wallet ${text(r.wallet_balance)} · WHM `,
          badge(r.whm_status),
          ` · limits ${text(r.accounts_limit)} accounts, ${text(r.disk_limit_mb)} MB disk, ${text(r.bandwidth_limit_mb)} MB bandwidth`,
        ),
        table(
          ['key', 'mode', 'scopes'],
          keys
            .filter((k) => k.reseller_id === r.id)
            .map((k) => [code(k.key), badge(k.mode), ((k.scopes as string[]) ?? []).join(' ') || 'none']),
        ),
      ),
    ),
  )
}

function usage(used: unknown, limit: unknown) {
  const share = typeof limit === 'number' && limit > 0 ? Math.min(1, Number(used) / limit) : 0
  return h(
    'span',
    { class: 'usage', title: `${text(used)} of ${text(limit)} MB` },
    h('meter', { min: 0, max: 1, value: share, 'aria-label': `${text(used)} of ${text(limit)} MB` }),
    ` ${text(used)} / ${text(limit)} MB`,
  )
}

export function drawAccounts(): void {
  const accounts = tables().accounts ?? []
  const packages = new Map((tables().packages ?? []).map((p) => [`${p.reseller_id}/${p.name}`, p]))
  replace(
    byId('accounts-body'),
    accounts.length === 0
      ? empty('No hosting accounts yet.')
      : table(
          ['username', 'domain', 'reseller', 'package', 'status', 'disk', 'bandwidth'],
          accounts.map((a) => {
            const pkg = packages.get(`${a.reseller_id}/${a.whm_package}`)
            return [
              code(a.username),
              text(a.domain),
              `#${text(a.reseller_id)}`,
              text(a.whm_package),
              badge(a.status),
              usage(a.disk_used_mb, pkg?.quota),
              usage(a.bandwidth_used_mb, pkg?.bandwidth),
            ]
          }),
        ),
  )
}

function configuredHooks(): HTMLElement {
  const resellerHooks = tables().resellerWebhooks ?? []
  const hooks = tables().webhooks ?? []
  if (resellerHooks.length + hooks.length === 0) return empty('No webhook configured.')
  return table(
    ['webhook', 'reseller', 'url', 'events', 'secret'],
    [
      ...resellerHooks.map((w) => [
        badge('reseller style', 'reseller'),
        `#${text(w.reseller_id)}`,
        code(w.url),
        'all reseller events',
        code(w.secret),
      ]),
      ...hooks.map((w) => [
        code(w.id),
        `#${text(w.reseller_id)}`,
        code(w.url),
        ((w.events as string[]) ?? []).join(' '),
        code(w.secret),
      ]),
    ],
  )
}

function deliveryView(d: Row, box: HTMLElement): HTMLElement {
  return details(
    `delivery:${text(d.delivery_id)}`,
    [
      code(d.event),
      ' → ',
      code(d.webhook_id),
      ' ',
      badge(d.status),
      ` attempts ${text(d.attempts)}`,
      d.http_status === null ? '' : ` · HTTP ${text(d.http_status)}`,
      d.next_attempt_at ? ` · next ${text(d.next_attempt_at)}` : '',
    ],
    () => [
      h(
        'dl',
        null,
        h('dt', null, 'delivery id'),
        h('dd', null, code(d.delivery_id)),
        h('dt', null, 'url'),
        h('dd', null, code(d.url)),
        h('dt', null, 'x-service-signature'),
        h('dd', null, code(d.signature)),
        h('dt', null, 'attempts'),
        h('dd', null, `${text(d.attempts)} (retries ${text(d.retries)}), last ${text(d.attempted_at)}`),
        h('dt', null, 'next attempt'),
        h('dd', null, text(d.next_attempt_at)),
        d.error ? [h('dt', null, 'error'), h('dd', null, text(d.error))] : null,
      ),
      h('pre', null, pretty(d.payload)),
      h(
        'button',
        {
          class: 'redeliver',
          onclick: () =>
            void act(box, `Redeliver ${text(d.delivery_id)}`, () =>
              call('POST', `deliveries/${encodeURIComponent(String(d.delivery_id))}/redeliver`),
            ),
        },
        'Redeliver now',
      ),
    ],
  )
}

/** The notice of the webhooks panel: where a redelivery reports. */
export const webhookNotice = () => noticeBox('webhooks-notice')

export function drawWebhooks(): void {
  const rows = view.deliveries ?? [...(tables().deliveries ?? [])].reverse()
  const box = byId('webhooks-notice')
  replace(
    byId('webhooks-body'),
    h('h3', null, 'Configured'),
    configuredHooks(),
    h('h3', null, `Deliveries (${rows.length})`),
    rows.length === 0 ? empty('No delivery yet.') : rows.map((d) => deliveryView(d, box)),
  )
}
