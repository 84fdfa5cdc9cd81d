/**
 * The comparison engine of `reseller-mock compare` and `replay`: one exchange of the upstream
 * against the same exchange of the mock, every difference named by a JSON pointer. What is
 * compared and what is masked is listed in docs/keeping-the-mock-honest.md, "What is compared".
 */
import { ID_FIELDS, type IdMap } from './ids.js'
import { MASKED, maskedFields, TIME_FIELDS } from './masks.js'
import { allowedStrings, childSchemas, type OpenApiLike, responseSchemas } from './openapi-lookup.js'
import { ruleBreaks } from './openapi-rules.js'

export { IdMap } from './ids.js'
export type { OpenApiLike } from './openapi-lookup.js'

/** One request and its answer, as seen on one side. `status` is `null` when nothing answered. */
export interface Exchange {
  method: string
  /** Path below the base URL, with its query: `/api/v1/support/tickets?page=2`. */
  path: string
  status: number | null
  /** Answer headers, names in lower case. */
  headers: Record<string, string>
  /** The parsed JSON body; the raw text when it is not JSON; `null` when empty. */
  body: unknown
}

/**
 * One difference: where (`pointer`, RFC 6901: `/data/0/status`, `''` for the status line,
 * `/headers/link` for a header), what {@link DifferenceKind}, and both sides' values.
 */
export interface Difference {
  pointer: string
  kind: string
  upstream: unknown
  mock: unknown
  /** Kind `rule` only: which side breaks which rule of the document (`upstream: must match pattern /^sb_/`). */
  rule?: string
}

/** The kinds of {@link Difference}. */
export const DIFFERENCE_KINDS = [
  'status',
  'error_code',
  'header',
  'missing',
  'extra',
  'type',
  'enum',
  'timestamp_format',
  'value',
  'pagination',
  'order',
  'length',
  'rule',
] as const
/** What a {@link Difference} is about. */
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number]

/** The outcome of one step: both statuses (upstream, mock) and the differences. */
export interface StepResult {
  name: string
  method: string
  path: string
  status: [number | null, number | null]
  differences: Difference[]
}

/** What {@link compareExchange} needs beyond the two exchanges. */
export interface CompareContext {
  /** Ids mapped between the sides; learned from these answers too. */
  ids: IdMap
  /** The OpenAPI document the mock serves, for enum values. */
  openapi: OpenApiLike
}

/** Headers the SDK relies on: compared by presence, and by value where the value is stable. */
const HEADERS: { name: string; value: boolean }[] = [
  { name: 'x-request-id', value: false },
  { name: 'retry-after', value: false },
  { name: 'deprecation', value: true },
  { name: 'link', value: true },
]

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/

/** `0000-00-00T00:00:00.000000Z` for any timestamp of that format. */
export function timestampFormat(value: string): string {
  return value.replace(/\d/g, '0')
}

/** The JSON type of a value: `null`, `boolean`, `number`, `string`, `array`, `object` (or `undefined`). */
export function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

const escapePointer = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1')
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The key that identifies the items of a list, if they have one. */
function identityKey(items: unknown[]): string | undefined {
  const first = items[0]
  if (!isObject(first)) return undefined
  return ['uuid', 'id', 'delivery_id', 'username', 'name'].find((key) =>
    items.every((item) => isObject(item) && (typeof item[key] === 'string' || typeof item[key] === 'number')),
  )
}

class BodyComparison {
  readonly differences: Difference[] = []
  readonly #ids: IdMap
  readonly #openapi: OpenApiLike

  constructor(context: CompareContext) {
    this.#ids = context.ids
    this.#openapi = context.openapi
  }

  add(pointer: string, kind: DifferenceKind, upstream: unknown, mock: unknown): void {
    this.differences.push({ pointer, kind, upstream, mock })
  }

  value(up: unknown, mock: unknown, pointer: string, schemas: Record<string, unknown>[], key?: string): void {
    const upType = jsonType(up)
    const mockType = jsonType(mock)
    if (upType !== mockType) {
      this.add(pointer, 'type', up, mock)
      return
    }
    if (Array.isArray(up)) {
      this.array(up, mock as unknown[], pointer, schemas)
      return
    }
    if (isObject(up)) {
      this.object(up, mock as Record<string, unknown>, pointer, schemas)
      return
    }
    if (typeof up === 'string') {
      this.text(up, mock as string, pointer, schemas, key)
      return
    }
    if (MASKED.some((m) => m.pointer.test(pointer))) return
    if (up !== mock) this.add(pointer, 'value', up, mock)
  }

  text(up: string, mock: string, pointer: string, schemas: Record<string, unknown>[], key?: string): void {
    const allowed = allowedStrings(schemas)
    if (allowed && !allowed.has(up)) {
      this.add(pointer, 'enum', up, mock)
      return
    }
    if (allowed && !allowed.has(mock)) {
      this.add(pointer, 'enum', up, mock)
      return
    }
    if (MASKED.some((m) => m.pointer.test(pointer))) return
    if (TIMESTAMP.test(up) || TIMESTAMP.test(mock)) {
      if (timestampFormat(up) !== timestampFormat(mock)) {
        this.add(pointer, 'timestamp_format', up, mock)
        return
      }
      // A time the import did not bring is a time of this run: its format is all that can agree.
      if (key !== undefined && TIME_FIELDS.has(key) && !this.#ids.isKnown(up)) return
    }
    if (key !== undefined && ID_FIELDS.has(key) && this.#ids.id(up) === mock) return
    if (up !== mock) this.add(pointer, 'value', up, mock)
  }

  object(
    up: Record<string, unknown>,
    mock: Record<string, unknown>,
    pointer: string,
    schemas: Record<string, unknown>[],
  ): void {
    const masked = maskedFields(up, mock, this.#ids)
    for (const [key, value] of Object.entries(up)) {
      if (masked.has(key)) continue
      const at = `${pointer}/${escapePointer(key)}`
      if (!(key in mock)) this.add(at, 'missing', value, undefined)
      else this.value(value, mock[key], at, childSchemas(this.#openapi, schemas, key), key)
    }
    for (const [key, value] of Object.entries(mock)) {
      if (!(key in up) && !masked.has(key))
        this.add(`${pointer}/${escapePointer(key)}`, 'extra', undefined, value)
    }
  }

  array(up: unknown[], mock: unknown[], pointer: string, schemas: Record<string, unknown>[]): void {
    const items = childSchemas(this.#openapi, schemas, 0)
    const key = identityKey(up)
    if (key !== undefined && up.length === mock.length && identityKey(mock) === key) {
      const upKeys = up.map((item) => this.#ids.id((item as Record<string, string | number>)[key]!))
      const mockKeys = mock.map((item) => String((item as Record<string, unknown>)[key]))
      const sameSet = [...upKeys].sort().join('\n') === [...mockKeys].sort().join('\n')
      if (sameSet && upKeys.join('\n') !== mockKeys.join('\n')) {
        this.add(pointer, 'order', upKeys, mockKeys)
        // Pair items by identity so that the order is reported once, not as every field of every item.
        const byKey = new Map(mock.map((item, i) => [mockKeys[i]!, item]))
        up.forEach((item, i) => {
          this.value(item, byKey.get(upKeys[i]!), `${pointer}/${i}`, items)
        })
        return
      }
    }
    if (up.length !== mock.length) this.add(pointer, 'length', up.length, mock.length)
    const n = Math.min(up.length, mock.length)
    for (let i = 0; i < n; i++) this.value(up[i], mock[i], `${pointer}/${i}`, items)
  }
}

/** `meta` of a page answer, when both sides have one: compared as pagination, not as plain values. */
function comparePagination(up: unknown, mock: unknown, out: BodyComparison): boolean {
  if (!isObject(up) || !isObject(mock) || !isObject(up.meta) || !isObject(mock.meta)) return false
  if (!Array.isArray(up.data) || !Array.isArray(mock.data)) return false
  for (const field of ['total', 'per_page', 'current_page']) {
    if (up.meta[field] !== mock.meta[field])
      out.add(`/meta/${field}`, 'pagination', up.meta[field], mock.meta[field])
  }
  if (up.data.length !== mock.data.length) out.add('/data', 'pagination', up.data.length, mock.data.length)
  return true
}

/**
 * `<https://host/prefix/api/v1/x>; rel=…` → `</api/v1/x>; rel=…`: the two sides have different
 * hosts, and base URLs with paths of their own (a namespace's `/ns/{id}`).
 */
function withoutOrigin(value: string): string {
  return value.replace(/<[^>]*?(?=\/api\/)/g, '<')
}

function compareHeaders(upstream: Exchange, mock: Exchange, out: BodyComparison): void {
  for (const { name, value } of HEADERS) {
    const up = upstream.headers[name]
    const other = mock.headers[name]
    if ((up === undefined) !== (other === undefined)) out.add(`/headers/${name}`, 'header', up, other)
    else if (value && up !== undefined && withoutOrigin(up) !== withoutOrigin(other!))
      out.add(`/headers/${name}`, 'header', up, other)
  }
}

/** The value at a JSON pointer of `body` (`undefined` where there is none). */
function valueAt(body: unknown, pointer: string): unknown {
  let value = body
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~')
    if (Array.isArray(value)) value = value[Number(key)]
    else if (isObject(value) && Object.hasOwn(value, key)) value = value[key]
    else return undefined
  }
  return value
}

/** Kinds that already say a value breaks the document: a rule break at their pointer is not told twice. */
const RULE_KINDS: ReadonlySet<string> = new Set(['type', 'enum', 'timestamp_format'])

/**
 * The values of either answer that break a rule the document states for them (pattern, format,
 * const, enum, bounds), masked or not: one `rule` difference per pointer, naming side and rule.
 */
function compareRules(
  upstream: Exchange,
  mock: Exchange,
  context: CompareContext,
  out: BodyComparison,
): void {
  const rules = new Map<string, string[]>()
  const note = (side: string, breaks: { pointer: string; rule: string }[]) => {
    for (const { pointer, rule } of breaks)
      rules.set(pointer, [...(rules.get(pointer) ?? []), `${side}: ${rule}`])
  }
  note(
    'upstream',
    ruleBreaks(context.openapi, upstream.method, upstream.path, upstream.status, upstream.body),
  )
  note('mock', ruleBreaks(context.openapi, mock.method, mock.path, mock.status, mock.body))
  for (const [pointer, broken] of rules) {
    if (out.differences.some((d) => d.pointer === pointer && RULE_KINDS.has(d.kind))) continue
    out.differences.push({
      pointer,
      kind: 'rule',
      upstream: valueAt(upstream.body, pointer),
      mock: valueAt(mock.body, pointer),
      rule: broken.join('; '),
    })
  }
}

function errorCode(body: unknown): unknown {
  return isObject(body) && isObject(body.error) ? body.error.code : undefined
}

/**
 * Compares one step: status, `error.code`, the headers the SDK relies on, then the body (shape,
 * JSON types, enum values outside `context.openapi`, timestamp formats, stable values, pagination,
 * list order), then the document's rules on each side's values, masked ones included. Ids that
 * differ and did not come from the import are learned into `context.ids` first, so that later
 * steps map them.
 */
export function compareExchange(
  name: string,
  upstream: Exchange,
  mock: Exchange,
  context: CompareContext,
): StepResult {
  const out = new BodyComparison(context)
  if (upstream.status !== mock.status) out.add('', 'status', upstream.status, mock.status)
  const upCode = errorCode(upstream.body)
  const mockCode = errorCode(mock.body)
  if (upCode !== mockCode) out.add('/error/code', 'error_code', upCode, mockCode)
  compareHeaders(upstream, mock, out)
  context.ids.learn(upstream.body, mock.body)
  if (upCode === mockCode) {
    const schemas = responseSchemas(context.openapi, upstream.method, upstream.path, upstream.status)
    const paged = comparePagination(upstream.body, mock.body, out)
    if (paged) {
      const up = upstream.body as Record<string, unknown>
      const other = mock.body as Record<string, unknown>
      out.value({ ...up, meta: undefined }, { ...other, meta: undefined }, '', schemas)
      const { total: _t, per_page: _p, current_page: _c, ...restUp } = up.meta as Record<string, unknown>
      const {
        total: _t2,
        per_page: _p2,
        current_page: _c2,
        ...restMock
      } = other.meta as Record<string, unknown>
      out.object(restUp, restMock, '/meta', [])
      // An item count difference is reported once, as pagination, not again as a length.
      const index = out.differences.findIndex((d) => d.kind === 'length' && d.pointer === '/data')
      if (index >= 0) out.differences.splice(index, 1)
    } else {
      out.value(upstream.body, mock.body, '', schemas)
    }
  }
  compareRules(upstream, mock, context, out)
  return {
    name,
    method: upstream.method,
    path: upstream.path,
    status: [upstream.status, mock.status],
    differences: out.differences,
  }
}
