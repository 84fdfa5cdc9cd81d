// compare against a second mock behind a proxy that plants divergences: each one is found at the
// right step and JSON pointer; an unchanged upstream gives no difference, run after run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareAccounts } from '../../src/fidelity/compare.js'
import type { StepResult } from '../../src/fidelity/engine.js'
import type { Divergence } from '../helpers/divergence-proxy.js'
import { startUpstream, UPSTREAM_KEYS, type Upstream } from '../helpers/fidelity.js'

let upstream: Upstream
beforeAll(async () => {
  upstream = await startUpstream()
})
afterAll(() => upstream.close())

// biome-ignore lint/suspicious/noExplicitAny: divergences rewrite arbitrary JSON answers
type Json = Record<string, any>
const json = (body: unknown) => body as Json

async function compare(
  divergences: Divergence[],
  options: { scenario?: 'read' | 'sandbox'; keys?: string[] } = {},
) {
  upstream.proxy.divergences.splice(0, Infinity, ...divergences)
  try {
    const { steps } = await compareAccounts({
      upstream: upstream.proxy.url,
      keys: options.keys ?? [UPSTREAM_KEYS.full, UPSTREAM_KEYS.read],
      webhooks: ['wh_42'],
      scenario: options.scenario ?? 'read',
    })
    return steps
  } finally {
    upstream.proxy.divergences.length = 0
  }
}

const differing = (steps: StepResult[]) =>
  steps.flatMap((s) => s.differences.map((d) => ({ step: s.name, pointer: d.pointer, kind: d.kind })))

describe('compare: an unchanged upstream', { timeout: 60_000 }, () => {
  it('gives zero differences over three runs, with every list walked one page past its end', async () => {
    for (let run = 0; run < 3; run++) {
      const steps = await compare([])
      expect(differing(steps)).toEqual([])
      const names = steps.map((s) => s.name)
      expect(names).toEqual(expect.arrayContaining(['tickets.page-1', 'tickets.page-2', 'tickets.page-3']))
      expect(names).not.toContain('tickets.page-4')
      expect(names).toContain('deliveries[wh_42].page-1')
      expect(steps.find((s) => s.name === 'tickets.page-3')?.status).toEqual([200, 200])
      expect(steps.find((s) => s.name === 'auth.unknown-key')?.status).toEqual([401, 401])
      expect(steps.find((s) => s.name === 'auth.no-hosting-scope')?.status).toEqual([403, 403])
      expect(steps.find((s) => s.name === 'tickets.bad-page')?.status).toEqual([422, 422])
      expect(steps.find((s) => s.name === 'ticket.unknown')?.status).toEqual([404, 404])
    }
  })

  it('read sends GET requests only, the sandbox scenario its writes too', async () => {
    upstream.proxy.methods.clear()
    await compare([])
    expect([...upstream.proxy.methods.keys()]).toEqual(['GET'])
    upstream.proxy.methods.clear()
    const steps = await compare([], { scenario: 'sandbox', keys: [UPSTREAM_KEYS.sandbox] })
    expect(differing(steps)).toEqual([])
    expect([...upstream.proxy.methods.keys()].sort()).toEqual(['GET', 'PATCH', 'POST', 'PUT'])
    expect(steps.find((s) => s.name === 'sandbox.provision')?.status).toEqual([201, 201])
    expect(steps.find((s) => s.name === 'sandbox.ticket.create')?.status).toEqual([403, 403])
  })
})

/** Planted divergences: each with the step and pointer it must be reported at. */
const PLANTED: { what: string; divergence: Divergence; step: string; pointer: string; kind: string }[] = [
  {
    what: 'a field added',
    divergence: {
      path: /^\/api\/v1\/support\/tickets\?page=1$/,
      rewrite: (a) => {
        json(a.body).data[0].escalation_level = 2
      },
    },
    step: 'tickets.page-1',
    pointer: '/data/0/escalation_level',
    kind: 'missing',
  },
  {
    what: 'a field removed',
    divergence: {
      path: /^\/api\/v1\/reseller\/whm\/usage$/,
      rewrite: (a) => {
        delete json(a.body).data.disk_used_mb
      },
    },
    step: 'whm.usage',
    pointer: '/data/disk_used_mb',
    kind: 'extra',
  },
  {
    what: 'a field retyped',
    divergence: {
      path: /^\/api\/v1\/invoices\?page=1$/,
      rewrite: (a) => {
        const first = json(a.body).data[0]
        first.total = String(first.total)
      },
    },
    step: 'invoices.page-1',
    pointer: '/data/0/total',
    kind: 'type',
  },
  {
    what: 'a new enum value',
    divergence: {
      path: /^\/api\/v1\/services\?page=1$/,
      rewrite: (a) => {
        json(a.body).data[1].status = 'pending_renewal'
      },
    },
    step: 'services.page-1',
    pointer: '/data/1/status',
    kind: 'enum',
  },
  {
    what: 'another timestamp format',
    divergence: {
      path: /^\/api\/v1\/reseller\/whm\/accounts\/alpha$/,
      rewrite: (a) => {
        const data = json(a.body).data
        data.created_at = new Date(data.created_at).toISOString().replace('Z', '+00:00')
      },
    },
    step: 'whm.account[alpha]',
    pointer: '/data/created_at',
    kind: 'timestamp_format',
  },
  {
    what: 'another status',
    divergence: {
      path: /^\/api\/v1\/support\/tickets\/00000000-0000-4000-8000-000000000000$/,
      rewrite: (a) => {
        a.status = 400
      },
    },
    step: 'ticket.unknown',
    pointer: '',
    kind: 'status',
  },
  {
    what: 'another error code',
    divergence: {
      path: /^\/api\/v1\/support\/tickets\?page=abc$/,
      rewrite: (a) => {
        json(a.body).error.code = 'invalid_page'
      },
    },
    step: 'tickets.bad-page',
    pointer: '/error/code',
    kind: 'error_code',
  },
  {
    what: 'pagination totals',
    divergence: {
      path: /^\/api\/v1\/support\/tickets\?page=2$/,
      rewrite: (a) => {
        json(a.body).meta.total += 5
      },
    },
    step: 'tickets.page-2',
    pointer: '/meta/total',
    kind: 'pagination',
  },
  {
    what: 'list order',
    divergence: {
      path: /^\/api\/v1\/invoices\?page=2$/,
      rewrite: (a) => {
        json(a.body).data.reverse()
      },
    },
    step: 'invoices.page-2',
    pointer: '/data',
    kind: 'order',
  },
  {
    what: 'a missing header',
    divergence: {
      path: /^\/api\/v1\/reseller\/whm\/packages\?page=1$/,
      rewrite: (a) => {
        delete a.headers['x-request-id']
      },
    },
    step: 'whm.packages.page-1',
    pointer: '/headers/x-request-id',
    kind: 'header',
  },
  {
    what: 'a missing Deprecation header on a deprecated route',
    divergence: {
      path: /^\/api\/v1\/reseller\/usage$/,
      rewrite: (a) => {
        delete a.headers.deprecation
      },
    },
    step: 'legacy.usage',
    pointer: '/headers/deprecation',
    kind: 'header',
  },
  {
    what: 'a stable value changed (a ticket subject)',
    divergence: {
      path: /^\/api\/v1\/support\/tickets\/[0-9a-f-]{36}$/,
      rewrite: (a) => {
        const data = json(a.body).data
        if (data?.id === 23) data.subject = 'Renamed upstream'
      },
    },
    step: 'ticket[',
    pointer: '/data/subject',
    kind: 'value',
  },
  {
    what: 'a delivery record retyped',
    divergence: {
      path: /^\/api\/v1\/webhooks\/wh_42\/deliveries\?page=1$/,
      rewrite: (a) => {
        json(a.body).data[0].retries = '3'
      },
    },
    step: 'deliveries[wh_42].page-1',
    pointer: '/data/0/retries',
    kind: 'type',
  },
]

describe('compare: planted divergences', { timeout: 60_000 }, () => {
  it.each(PLANTED)('$what: found at $step $pointer ($kind)', async ({ divergence, step, pointer, kind }) => {
    const found = differing(await compare([divergence]))
    expect(found.length).toBeGreaterThan(0)
    // The planted one, and nothing else: every difference is that one, at that step.
    for (const d of found) expect(d.step.startsWith(step)).toBe(true)
    expect(found).toContainEqual({ step: expect.stringContaining(step), pointer, kind })
    expect(found).toHaveLength(1)
  })

  it('a sandbox rule: a sandbox key allowed to create a ticket is a status difference of that step', async () => {
    const divergence: Divergence = {
      method: 'POST',
      path: /^\/api\/v1\/support\/tickets$/,
      keyPrefix: 'svc_test_',
      rewrite: (a) => {
        a.status = 201
        a.body = {
          success: true,
          data: {
            ticket_id: '44444444-4444-4444-8444-444444444444',
            subject: 'Fidelity check',
            department: 'general',
            priority: 'normal',
            status: 'open',
          },
        }
      },
    }
    const steps = await compare([divergence], { scenario: 'sandbox', keys: [UPSTREAM_KEYS.sandbox] })
    const found = differing(steps)
    expect(found).toContainEqual({ step: 'sandbox.ticket.create', pointer: '', kind: 'status' })
    expect(found.every((d) => d.step === 'sandbox.ticket.create')).toBe(true)
  })

  it('a documented rule broken in a masked value: a simulated username without the sb_ prefix is a rule difference', async () => {
    // Both provisioning routes answer `sandbox_…` where the document says `^sb_`. The username is
    // an id made during the run (masked, then mapped), yet its rule holds on both sides.
    const divergence: Divergence = {
      method: 'POST',
      path: /^\/api\/v1\/reseller\/(clients\/\d+\/hosting|accounts)$/,
      keyPrefix: 'svc_test_',
      rewrite: (a) => {
        const data = json(a.body).data
        data.username = data.username.replace(/^sb_/, 'sandbox_')
      },
    }
    const steps = await compare([divergence], { scenario: 'sandbox', keys: [UPSTREAM_KEYS.sandbox] })
    const found = steps.flatMap((s) => s.differences.map((d) => ({ step: s.name, ...d })))
    expect(found).toEqual(
      ['sandbox.provision', 'sandbox.provision.legacy'].map((step) => ({
        step,
        pointer: '/data/username',
        kind: 'rule',
        upstream: expect.stringMatching(/^sandbox_/),
        mock: expect.stringMatching(/^sb_/),
        rule: expect.stringMatching(/^upstream: .*\^sb_/),
      })),
    )
  })

  it('a rule broken in a value compared as it is: its value difference, and the rule beside it', async () => {
    const divergence: Divergence = {
      path: /^\/api\/v1\/invoices\?page=1$/,
      rewrite: (a) => {
        json(a.body).data[0].currency = 'euro'
      },
    }
    const found = differing(await compare([divergence]))
    // A stable value: another value, and a broken rule (`^[A-Z]{3}$`) of the upstream's.
    expect(found).toEqual([
      { step: 'invoices.page-1', pointer: '/data/0/currency', kind: 'value' },
      { step: 'invoices.page-1', pointer: '/data/0/currency', kind: 'rule' },
    ])
  })

  it('a live key is refused for the sandbox scenario before any request', async () => {
    upstream.proxy.methods.clear()
    await expect(
      compareAccounts({ upstream: upstream.proxy.url, keys: [UPSTREAM_KEYS.full], scenario: 'sandbox' }),
    ).rejects.toThrow(/sandbox keys/)
    expect(upstream.proxy.methods.size).toBe(0)
  })
})
