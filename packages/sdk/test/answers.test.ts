/**
 * Answers from a service newer than the SDK (docs/errors-and-retries.md, "Answers from a newer
 * service"): unknown enum values and added fields pass through by default, with one warning per
 * field; `strictResponses: true` refuses them; a value of the wrong JSON type always throws.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { type Logger, ResponseValidationError, type TicketStatus } from '../src/index.js'
import { fixtures, ok, page, setup } from './helpers/fake-api.js'

function memoryLogger() {
  const warnings: { message: string; details?: Record<string, unknown> }[] = []
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (message, details) => warnings.push({ message, details }),
    error: () => undefined,
  }
  return { logger, warnings }
}

const meta = { total: 2, per_page: 20, current_page: 1 }

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the call resolved'),
    (error: unknown) => error,
  )
}

describe('by default, an answer from a newer service reads', () => {
  it('an unknown enum value passes through unchanged, in one resource and in a list', async () => {
    const onHold = { ...fixtures.ticketDetail(), status: 'on_hold' }
    const { api } = setup((_r, sent) =>
      sent.path.startsWith('/support/tickets/')
        ? ok(onHold)
        : page([{ ...fixtures.ticket(1), priority: 'critical' }, fixtures.ticket(2)], meta),
    )
    expect((await api.tickets.get(fixtures.uuid)).status).toBe('on_hold')
    const listed = await api.tickets.list()
    expect(listed.data.map((t) => t.priority)).toEqual(['critical', 'normal'])
  })

  it('an added field stays on the object and is readable, at any depth', async () => {
    const detail = fixtures.ticketDetail()
    const grown = {
      ...detail,
      sla_due_at: '2026-01-03T00:00:00Z',
      messages: detail.messages.map((m) => ({ ...m, attachments: [{ name: 'log.txt' }] })),
    }
    const { api } = setup(() => ok(grown))
    const ticket = await api.tickets.get(fixtures.uuid)
    expect((ticket as Record<string, unknown>).sla_due_at).toBe('2026-01-03T00:00:00Z')
    expect((ticket.messages[0] as Record<string, unknown>).attachments).toEqual([{ name: 'log.txt' }])
    expect(ticket.subject).toBe(detail.subject)
  })

  it('a value of the wrong JSON type still throws ResponseValidationError naming the field', async () => {
    const { api } = setup(() => ok({ ...fixtures.ticketDetail(), status: 42, messages_count: '1' }))
    const error = (await rejection(api.tickets.get(fixtures.uuid))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.fields).toEqual({
      'data.status': ['must be one of open, in_progress, resolved, closed'],
      'data.messages_count': ['must be a number'],
    })
  })

  it('a value breaking its format still throws, enum or not', async () => {
    const { api } = setup(() => page([{ ...fixtures.ticket(), uuid: 'not-a-uuid', status: 'on_hold' }], meta))
    const error = (await rejection(api.tickets.list())) as ResponseValidationError
    expect(Object.keys(error.fields)).toEqual(['data.0.uuid'])
  })

  it('logs the first unknown value of each field once per client, at warn', async () => {
    const { logger, warnings } = memoryLogger()
    const items = [1, 2, 3].map((id) => ({
      ...fixtures.ticket(id),
      status: id === 3 ? 'escalated' : 'on_hold',
    }))
    const { api } = setup(() => page(items, { ...meta, total: 3 }), { logger })
    await api.tickets.list()
    await api.tickets.list()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]?.message).toContain('data.[].status')
    expect(warnings[0]?.message).toContain('"on_hold"')
    expect(warnings[0]?.details).toMatchObject({ field: 'data.[].status', value: 'on_hold' })

    const other = memoryLogger()
    const { api: second } = setup(() => page(items, { ...meta, total: 3 }), { logger: other.logger })
    await second.tickets.list()
    expect(other.warnings).toHaveLength(1)
  })

  it('logs an added field once, and nothing for an answer the SDK knows', async () => {
    const { logger, warnings } = memoryLogger()
    let grown = false
    const { api } = setup(() => ok(grown ? { ...fixtures.usage(), inodes_used: 5 } : fixtures.usage()), {
      logger,
    })
    await api.whm.usage()
    expect(warnings).toEqual([])
    grown = true
    await api.whm.usage()
    await api.whm.usage()
    expect(warnings.map((w) => w.message)).toEqual([expect.stringContaining('data.inodes_used')])
  })

  it('types an enum as open: the known values stay listed, and others fit', async () => {
    const { api } = setup(() => ok({ ...fixtures.ticketDetail(), status: 'on_hold' }))
    const { status } = await api.tickets.get(fixtures.uuid)
    expectTypeOf(status).toEqualTypeOf<TicketStatus>()
    expectTypeOf<'open' | 'in_progress' | 'resolved' | 'closed'>().toExtend<TicketStatus>()
    expectTypeOf<TicketStatus>().not.toEqualTypeOf<string>()
    expectTypeOf<TicketStatus>().not.toExtend<'open' | 'in_progress' | 'resolved' | 'closed'>()
    const label = (value: TicketStatus): string => {
      switch (value) {
        case 'open':
        case 'in_progress':
          return 'active'
        case 'resolved':
        case 'closed':
          return 'done'
        default:
          return `other (${value})`
      }
    }
    expect(label(status)).toBe('other (on_hold)')
  })
})

describe('with strictResponses: true', () => {
  it('an unknown enum value throws ResponseValidationError naming the field and the known values', async () => {
    const { api } = setup(() => ok({ ...fixtures.ticketDetail(), status: 'on_hold' }), {
      strictResponses: true,
    })
    const error = (await rejection(api.tickets.get(fixtures.uuid))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.fields).toEqual({ 'data.status': ['must be one of open, in_progress, resolved, closed'] })
  })

  it('an added field throws, at any depth', async () => {
    const detail = fixtures.ticketDetail()
    const { api } = setup(() => ok({ ...detail, messages: [{ ...detail.messages[0], attachments: [] }] }), {
      strictResponses: true,
    })
    const error = (await rejection(api.tickets.get(fixtures.uuid))) as ResponseValidationError
    expect(error.fields).toEqual({ 'data.messages.0.attachments': ['is not a known field'] })
  })

  it('an answer the SDK knows reads as usual', async () => {
    const { api } = setup(() => ok(fixtures.usage()), { strictResponses: true })
    expect(await api.whm.usage()).toEqual(fixtures.usage())
  })

  it('refuses a strictResponses that is not a boolean', () => {
    expect(() => setup(() => ok(null), { strictResponses: 'yes' as unknown as boolean })).toThrow(
      'strictResponses must be a boolean',
    )
  })
})
