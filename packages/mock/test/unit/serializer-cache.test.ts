// The answer serializer's cache (routing/reply.ts): a record read again is served from it, and a
// sweep through more records than it keeps does not keep them all: the memory of a server that only
// reads stays bounded (bench/memory.bench.mjs, read-only phase).
import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { CACHED_RECORDS, serializerOf } from '../../src/routing/reply.js'

/** A serializer over a schema that counts the records it parses. */
function counted() {
  const parsed: string[] = []
  const schema = z.pipe(
    z.object({ id: z.string() }),
    z.transform((row: { id: string }) => {
      parsed.push(row.id)
      return row
    }),
  )
  return { serializer: serializerOf({}, schema), parsed }
}

const rows = (n: number, tag = 'r') => Array.from({ length: n }, (_, i) => ({ id: `${tag}${i}` }))

describe('the answer serializer cache', () => {
  it('serializes a record once while it is read again and again', () => {
    const { serializer, parsed } = counted()
    const row = { id: 'a' }
    for (let i = 0; i < 5; i++) expect(serializer.json(row)).toBe('{"id":"a"}')
    expect(parsed).toEqual(['a'])
  })

  it('keeps a record read now and then during a sweep of many others', () => {
    const { serializer, parsed } = counted()
    const hot = { id: 'hot' }
    serializer.json(hot)
    for (const row of rows(CACHED_RECORDS * 6)) {
      serializer.json(row)
      // Read again once in every CACHED_RECORDS / 2 other records: always in a kept generation.
      if (Number(row.id.slice(1)) % (CACHED_RECORDS / 2) === 0) serializer.json(hot)
    }
    expect(parsed.filter((id) => id === 'hot')).toEqual(['hot'])
  })

  it('does not keep every record of a sweep: one read long ago is serialized again', () => {
    const { serializer, parsed } = counted()
    const first = { id: 'first' }
    serializer.json(first)
    for (const row of rows(CACHED_RECORDS * 2)) serializer.json(row)
    serializer.json(first)
    expect(parsed.filter((id) => id === 'first')).toEqual(['first', 'first'])
  })
})
