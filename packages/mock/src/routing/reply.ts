/**
 * Success answers: the `{ success, data }` envelope and its pagination (docs/pagination.md, "The HTTP answer"). Every answer passes through the
 * SDK's wire schema (`parse` strips storage-only fields and fails on drift, answered as a 500 that
 * breaks a test). Stored records are serialized once per version and cached, so a page of 20
 * unchanged tickets costs 20 cache hits and one string join, not 20 schema parses.
 */
import { PAGE_SIZE } from '@reseller-api/sdk/schemas'
import type * as z from 'zod/mini'
import { rowVersion } from '../state/table.js'
import type { MockResponse } from './types.js'

/** Turns stored records into wire JSON through a wire schema, cached per record version. */
export interface Serializer {
  /**
   * The wire JSON of `row`, or of `project()` when given: a value derived from `row` (and from
   * records whose every visible change also updates `row`), cached under `row`'s version.
   */
  json(row: object, project?: () => unknown): string
  /** The `{ success: true, data }` answer body of {@link json}, cached with it (and its bytes, once sent). */
  envelope(row: object, project?: () => unknown): EncodedBody
}

/**
 * An answer body that stays the same while its record does: its text, and the UTF-8 bytes a
 * server that writes it fills in once (`server/http-io.ts`), so that a record read again and
 * again is encoded once per version, not once per request.
 */
export interface EncodedBody {
  readonly text: string
  bytes?: Uint8Array
}

/** A JSON answer with a body already serialized. */
export function jsonAnswer(status: number, body: string, headers?: Record<string, string>): MockResponse {
  return {
    status,
    headers: headers
      ? { 'content-type': 'application/json', ...headers }
      : { 'content-type': 'application/json' },
    body,
  }
}

const serializers = new WeakMap<object, Serializer>()

/**
 * Records one serializer keeps, per generation: reading pages and records again is served from the
 * cache, while a client that reads every record of a large table (a read-only sweep) leaves at most
 * two generations cached, not one string per record it ever read.
 */
export const CACHED_RECORDS = 500

/** A record's wire JSON, for one version of it, and the answer body made of it once asked for. */
type Cached = { version: number; json: string; envelope?: EncodedBody }

/**
 * The cached serializer of `owner` (a declaration) through `schema`, a wire schema of the SDK: one
 * cache per owner, so two operations that answer the same record with different projections never
 * share an entry. The cache has two generations: a hit in the older one moves the entry to the
 * newer; a full newer generation becomes the older, and the older one is dropped whole.
 */
export function serializerOf(owner: object, schema: z.ZodMiniType): Serializer {
  let found = serializers.get(owner)
  if (found === undefined) {
    let recent = new WeakMap<object, Cached>()
    let older = new WeakMap<object, Cached>()
    let size = 0
    const remember = (row: object, entry: Cached) => {
      if (size >= CACHED_RECORDS) {
        older = recent
        recent = new WeakMap()
        size = 0
      }
      recent.set(row, entry)
      size++
    }
    const entry = (row: object, project?: () => unknown): Cached => {
      const version = rowVersion(row)
      const hit = recent.get(row)
      if (hit !== undefined && hit.version === version) return hit
      const old = hit === undefined ? older.get(row) : undefined
      if (old !== undefined && old.version === version) {
        remember(row, old)
        return old
      }
      const fresh = { version, json: JSON.stringify(schema.parse(project ? project() : row)) }
      remember(row, fresh)
      return fresh
    }
    found = {
      json: (row, project) => entry(row, project).json,
      envelope(row, project) {
        const cached = entry(row, project)
        cached.envelope ??= { text: `{"success":true,"data":${cached.json}}` }
        return cached.envelope
      },
    }
    serializers.set(owner, found)
  }
  return found
}

/** `{ success: true, data }`, with `data` parsed through its wire schema. */
export function data(schema: z.ZodMiniType, value: unknown, status = 200): MockResponse {
  return jsonAnswer(status, `{"success":true,"data":${JSON.stringify(schema.parse(value))}}`)
}

/** `{ success: true, data }` for a stored record, through a cached serializer. */
export function record(
  serialize: Serializer,
  row: object,
  status = 200,
  project?: () => unknown,
): MockResponse {
  const envelope = serialize.envelope(row, project)
  const answer = jsonAnswer(status, envelope.text)
  answer.encoded = envelope
  return answer
}

/**
 * One page of a list, newest first. `rows` is oldest first (as the store's group indexes keep
 * them); the page is a reversed slice of it, so its cost does not depend on the list's length.
 * A page beyond the end answers empty `data` with correct `meta`.
 */
export function page(serialize: Serializer, rows: readonly object[], pageNumber: number): MockResponse {
  const total = rows.length
  const first = total - 1 - (pageNumber - 1) * PAGE_SIZE
  const last = Math.max(first - PAGE_SIZE + 1, 0)
  let items = ''
  for (let i = first; i >= last; i--) {
    items += i === first ? serialize.json(rows[i]!) : `,${serialize.json(rows[i]!)}`
  }
  return jsonAnswer(
    200,
    `{"success":true,"data":[${items}],"meta":{"total":${total},"per_page":${PAGE_SIZE},"current_page":${pageNumber}}}`,
  )
}
