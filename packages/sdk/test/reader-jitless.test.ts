/**
 * The answer reader compiles each object's walk where zod compiles its own parsers, and walks it
 * in a loop where zod may not (`jitless`, strict CSPs, Workers): both readings must say the same.
 */
import { afterAll, describe, expect, it, vi } from 'vitest'
import * as z from 'zod/mini'
import { fixtures } from './helpers/fake-api.js'

type ReaderModule = typeof import('../src/core/reader.js')
type Tickets = typeof import('../src/operations/tickets.js')

/** A fresh copy of the reader and the schemas, derived under zod's `jitless` setting as given. */
async function load(jitless: boolean): Promise<{ reader: ReaderModule; tickets: Tickets['tickets'] }> {
  z.config({ jitless })
  vi.resetModules()
  const reader = await import('../src/core/reader.js')
  const { tickets } = await import('../src/operations/tickets.js')
  // Readers are derived at their schema's first reading: now, under this setting.
  reader.readAnswer(tickets.get.envelope, {}, { strict: true, unknown: () => undefined })
  return { reader, tickets }
}

afterAll(() => {
  z.config({ jitless: false })
})

/** What a reading says about `answer`: its outcome, and every unknown the policy was told of. */
function read(mod: Awaited<ReturnType<typeof load>>, answer: unknown, strict: boolean) {
  const unknowns: unknown[] = []
  const policy = { strict, unknown: (...args: unknown[]) => unknowns.push(args) }
  const json = JSON.parse(JSON.stringify(answer))
  const result = mod.reader.readAnswer(mod.tickets.get.envelope, json, policy)
  return {
    success: result.success,
    data: result.success ? result.data : undefined,
    issues: result.success ? [] : result.issues.map(({ code, path }) => ({ code, path })),
    unknowns,
  }
}

describe('the compiled and the interpreted walk', () => {
  const detail = fixtures.ticketDetail()
  const answers = {
    known: { success: true, data: detail },
    grown: {
      success: true,
      data: { ...detail, status: 'on_hold', sla: 1, messages: [{ ...detail.messages[0], extra: true }] },
    },
    wrong: {
      success: true,
      data: { ...detail, uuid: 'not-a-uuid', messages_count: '2', subject: undefined },
    },
  }

  it('read every answer alike, strict or tolerant', async () => {
    const compiled = await load(false)
    const interpreted = await load(true)
    for (const [name, answer] of Object.entries(answers)) {
      for (const strict of [false, true]) {
        expect(read(interpreted, answer, strict), `${name}, strict ${strict}`).toEqual(
          read(compiled, answer, strict),
        )
      }
    }
    expect(read(compiled, answers.known, true).success).toBe(true)
    expect(read(compiled, answers.grown, false).unknowns).toHaveLength(3)
    expect(read(compiled, answers.wrong, false).issues.map((issue) => issue.path.join('.'))).toEqual([
      'data.uuid',
      'data.subject',
      'data.messages_count',
    ])
  })
})
