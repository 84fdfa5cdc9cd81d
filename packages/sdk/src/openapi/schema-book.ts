/**
 * Turns zod schemas into JSON Schema for the document. Answers are converted in one registry pass
 * (`io: 'output'`) in which every named schema is a component, so a `Ticket` inside a page is a
 * `$ref`; request bodies and parameters are converted alone (`io: 'input'`: defaults make fields
 * optional, pipes show their input side) and inlined. Unused components are dropped.
 *
 * Requests stay closed as the server is (a strict body schema refuses unknown fields, and so does
 * the document); answers are open to added fields unless `strict` (the drift test's and Prism's
 * reading: every field the mock answers is one the SDK knows).
 */

import * as z from 'zod/mini'
import { ErrorBody } from '../schemas/common.js'
import { WebhookCreateBody } from '../schemas/webhooks.js'

type Json = Record<string, unknown>

/** `#/components/schemas/{id}`. */
export const REF = (id: string) => `#/components/schemas/${id}`

/**
 * What zod cannot write: rules of refinements and of options it keeps to itself, as JSON Schema
 * keywords, by the schema that enforces them.
 */
const REFINED = new Map<unknown, Json>([[WebhookCreateBody.shape.events, { uniqueItems: true }]])
/** URL schemas restricted to `http:` and `https:` (`z.url({ protocol: /^https?$/ })`); the scheme is case-blind. */
const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://'

/** zod's `override` hook: adds the keywords of {@link REFINED} and the http(s) URL pattern. */
function override(ctx: { zodSchema: unknown; jsonSchema: Json }): void {
  const extra = REFINED.get(ctx.zodSchema)
  if (extra) Object.assign(ctx.jsonSchema, extra)
  const def = (ctx.zodSchema as { _zod?: { def?: { protocol?: RegExp } } })._zod?.def
  if (def?.protocol?.source === '^https?$') ctx.jsonSchema.pattern = HTTP_URL_PATTERN
}

/** Turns zod schemas into the document's JSON Schema; see the file's comment. */
export class SchemaBook {
  private readonly outputs = z.registry<{ id: string }>()
  private readonly names = new Map<z.ZodMiniType, string>()
  private readonly pending = new Map<string, Json>()
  /** Named schemas an operation refers to directly. */
  private readonly referenced = new Set<string>()
  private next = 0

  constructor(
    named: Record<string, unknown>,
    private readonly strict: boolean,
  ) {
    for (const [name, value] of Object.entries(named)) {
      if (isZod(value) && !this.names.has(value) && !this.outputs.has(value)) {
        this.names.set(value, name)
        this.outputs.add(value, { id: name })
      }
    }
    if (!this.outputs.has(ErrorBody)) this.outputs.add(ErrorBody, { id: 'ErrorBody' })
  }

  /** A placeholder filled in by `components()` (the registry is converted once, at the end). */
  private later(schema: z.ZodMiniType): Json {
    const name = this.names.get(schema)
    if (name) {
      this.referenced.add(name)
      return { $ref: REF(name) }
    }
    const id = `__inline${this.next++}`
    this.outputs.add(schema, { id })
    const slot: Json = { $inline: id }
    this.pending.set(id, slot)
    return slot
  }

  envelope(data: z.ZodMiniType): Json {
    return this.later(z.object({ success: z.literal(true), data }))
  }

  page(item: z.ZodMiniType): Json {
    return this.later(
      z.object({
        success: z.literal(true),
        data: z.array(item),
        meta: this.namedSchema('PageMeta'),
      }),
    )
  }

  output(schema: z.ZodMiniType): Json {
    return this.later(schema)
  }

  /** A hand-written answer schema (not zod's), opened like the others. */
  answer(schema: Json): Json {
    return this.strict ? schema : open(schema)
  }

  input(schema: z.ZodMiniType): Json {
    return clean(
      z.toJSONSchema(schema, {
        target: 'draft-2020-12',
        io: 'input',
        unrepresentable: 'any',
        override,
      }) as Json,
    )
  }

  private namedSchema(name: string): z.ZodMiniType {
    for (const [schema, n] of this.names) if (n === name) return schema
    throw new Error(`OpenAPI: no schema named ${name}`)
  }

  /** Converts the registry, fills the inline slots, and returns the components in use. */
  components(): Record<string, Json> {
    const { schemas } = z.toJSONSchema(this.outputs, {
      target: 'draft-2020-12',
      io: 'output',
      unrepresentable: 'any',
      uri: (id) => REF(id),
      override,
    }) as { schemas: Record<string, Json> }
    const answer = (schema: Json) => this.answer(clean(schema))
    for (const [id, slot] of this.pending) {
      delete slot.$inline
      Object.assign(slot, answer(schemas[id]!))
    }
    // Keep the components reachable from the operations (and from each other).
    const used = new Set<string>()
    const visit = (value: unknown) => {
      if (Array.isArray(value)) for (const item of value) visit(item)
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          if (k === '$ref' && typeof v === 'string' && v.startsWith(REF(''))) {
            const name = v.slice(REF('').length)
            if (!used.has(name)) {
              used.add(name)
              visit(schemas[name])
            }
          } else visit(v)
        }
      }
    }
    for (const slot of this.pending.values()) visit(slot)
    for (const name of [...this.referenced, 'ErrorBody']) visit({ $ref: REF(name) })
    const out: Record<string, Json> = {}
    for (const name of [...used].sort()) out[name] = answer(schemas[name]!)
    return out
  }
}

/** A copy of `schema` without `additionalProperties: false` anywhere: open to added fields. */
function open(schema: Json): Json {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk)
    if (!value || typeof value !== 'object') return value
    const out: Json = {}
    for (const [key, item] of Object.entries(value)) {
      if (key === 'additionalProperties' && item === false) continue
      out[key] = walk(item)
    }
    return out
  }
  return walk(schema) as Json
}

/** Whether `value` is a zod schema. */
export function isZod(value: unknown): value is z.ZodMiniType {
  return typeof value === 'object' && value !== null && '_zod' in value
}

/** Drops `$schema` and `$id` (the document is the scope), recursively copies nothing else. */
function clean(schema: Json): Json {
  const { $schema: _schema, $id: _id, ...rest } = schema
  return rest
}
