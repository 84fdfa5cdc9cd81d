/**
 * The document's `webhooks` (OpenAPI 3.1): every event the service POSTs to a receiver, one entry
 * per style and event, built from the SDK's zod event schemas (`src/schemas/events.ts`) as the paths
 * are built from the operation declarations. Each entry is a `post` whose request body is the
 * event, with the three delivery headers, an example body captured from the mock's real deliveries
 * (`packages/sdk/openapi/webhook-examples.json`, `pnpm run openapi:examples`) and the answers a
 * receiver gives. Pure: no I/O.
 */
import type * as z from 'zod/mini'
import { GeneralEvent, ResellerEvent } from '../schemas/events.js'
import { hmacSha256Hex } from '../webhooks/hmac-sync.js'
import type { EventStyle } from '../webhooks/samples.js'
import type { SchemaBook } from './schema-book.js'

type Json = Record<string, unknown>

/** @internal One event of one style, as the document describes it. */
export interface EventSpec {
  /** The entry's key in `webhooks`: `reseller/hosting.created`, `general/domain.registered`. */
  key: string
  style: EventStyle
  event: string
  /** The SDK's zod schema of the whole event (envelope and `data`). */
  schema: z.ZodMiniType
  /** Its component name, e.g. `ResellerHostingCreatedEvent`. */
  component: string
  operationId: string
}

/** @internal An example delivery of one entry: its delivery id and its exact body. */
export interface EventExample {
  delivery: string
  body: string
}

/**
 * @internal The secret the example signatures are made with: a receiver's test can check its own
 * verification against an example's `X-Service-Signature` (docs/openapi.md).
 */
export const EXAMPLE_SECRET = 'whsec_openapi_example'

/** What each event means (the service's list of events), by name; `test` is the general test event. */
const MEANING: Record<string, string> = {
  'hosting.created': 'A hosting account was created.',
  'domain.registered': 'A domain was registered.',
  'vps.provisioning': 'A VPS is being created.',
  'vps.activated': 'A VPS is operational.',
  'email.provisioning': 'A professional mailbox service is being created.',
  'email.activated': 'A professional mailbox service is active.',
  'wallet.debited': "The reseller's wallet was debited.",
  'wallet.credited': "The reseller's wallet was credited.",
  'service.activated': 'A service was activated.',
  'service.suspended': 'A service was suspended.',
  'service.cancelled': 'A service was cancelled.',
  'payment.completed': 'A payment completed.',
  'payment.failed': 'A payment failed.',
  'domain.renewed': 'A domain was renewed.',
  'ticket.created': 'A support ticket was opened.',
  'ticket.replied': 'Staff replied to a support ticket.',
  test: 'The test event, sent by `POST /api/v1/webhooks/{id}/test`.',
}

/** @internal The document's tags for the events, with their texts. */
export const EVENT_TAGS: Record<EventStyle, { name: string; description: string }> = {
  reseller: {
    name: 'reseller events',
    description:
      'Events POSTed to the URL of the reseller webhook (`PUT /api/v1/reseller/webhook`): `sandbox` and `timestamp` (UTC)',
  },
  general: {
    name: 'general events',
    description:
      'Events POSTed to the general webhooks subscribed to them (`POST /api/v1/webhooks`): `created_at` (with an offset); ' +
      'answered within 5 s, else retried after 1 min, 10 min and 1 h',
  },
}

const pascal = (text: string) =>
  text
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')

/** The options of a discriminated union, each an object with a literal `event`. */
function optionsOf(union: z.ZodMiniType): z.ZodMiniObject[] {
  return (union._zod.def as unknown as { options: z.ZodMiniObject[] }).options
}

/** The literal name of an event schema. */
function nameOf(schema: z.ZodMiniObject): string {
  const values = (schema.shape.event as z.ZodMiniType)._zod.values
  const [name] = values ? [...values] : []
  if (typeof name !== 'string') throw new Error('OpenAPI: an event schema without a literal event name')
  return name
}

/** @internal Every event of the service, reseller style first, in the schemas' order. */
export function eventSpecs(): EventSpec[] {
  return (
    [
      ['reseller', ResellerEvent],
      ['general', GeneralEvent],
    ] as const
  ).flatMap(([style, union]) =>
    optionsOf(union).map((schema) => {
      const event = nameOf(schema)
      const id = `${pascal(style)}${pascal(event)}`
      return {
        key: `${style}/${event}`,
        style,
        event,
        schema,
        component: `${id}Event`,
        operationId: `receive${id}Event`,
      }
    }),
  )
}

/** @internal The names the events' schemas get in `components.schemas`. */
export function eventNames(specs: readonly EventSpec[]): Record<string, z.ZodMiniType> {
  return Object.fromEntries(specs.map((spec) => [spec.component, spec.schema]))
}

const SIGNATURE_PATTERN = '^sha256=[0-9a-f]{64}$'
const DELIVERY_PATTERN = '^dlv_[0-9a-f]{32}$'

/** One entry: a `post` with the delivery headers, the event as body, and the receiver's answers. */
function entry(spec: EventSpec, schemas: SchemaBook, example: EventExample | undefined): Json {
  const signed = example ? `sha256=${hmacSha256Hex(example.body, EXAMPLE_SECRET)}` : undefined
  const withExample = (value: unknown) => (value !== undefined ? { example: value } : {})
  const where =
    spec.style === 'reseller'
      ? 'Sent to the reseller webhook.'
      : spec.event === 'test'
        ? 'Sent to the general webhook whose test endpoint was called.'
        : `Sent to every general webhook subscribed to \`${spec.event}\`.`
  return {
    post: {
      operationId: spec.operationId,
      summary: `${spec.event} (${spec.style} style)`,
      description:
        `${MEANING[spec.event] ?? ''} ${where} Verify \`X-Service-Signature\` against the raw body before ` +
        'reading it; answer 2xx once the event is handled (or safely queued), 401 when the signature is wrong. ' +
        'A delivery may come more than once: its body, and `X-Service-Delivery`, are the same on every attempt.',
      tags: [EVENT_TAGS[spec.style].name],
      // The signature is the whole authentication of a delivery: no API key is sent.
      security: [],
      parameters: [
        {
          name: 'X-Service-Signature',
          in: 'header',
          required: true,
          description:
            '`sha256=` and the lowercase hex HMAC-SHA256 of the raw body, keyed with the webhook secret ' +
            `(the example is signed with \`${EXAMPLE_SECRET}\` over the example body as sent: compact JSON, ` +
            'no spaces, its keys in this order). Compare in constant time.',
          schema: { type: 'string', pattern: SIGNATURE_PATTERN },
          ...withExample(signed),
        },
        {
          name: 'X-Service-Delivery',
          in: 'header',
          required: true,
          description:
            'The delivery id, the same on every attempt of one delivery (and `dlv_` + 32 hex digits).',
          schema: { type: 'string', pattern: DELIVERY_PATTERN },
          ...withExample(example?.delivery),
        },
        {
          name: 'X-Service-Event',
          in: 'header',
          required: true,
          description: 'The event name, as in the body: route before parsing.',
          schema: { type: 'string', const: spec.event },
          example: spec.event,
        },
      ],
      requestBody: {
        required: true,
        description: 'The event, signed as sent: verify the bytes received, not a re-serialization.',
        content: {
          'application/json': {
            schema: schemas.output(spec.schema),
            ...withExample(example ? (JSON.parse(example.body) as unknown) : undefined),
          },
        },
      },
      responses: {
        '200': { description: 'Received (what the SDK’s adapters answer).' },
        '2XX': { description: 'Any other 2xx status acknowledges the delivery too.' },
        '400': { description: 'The body is not an event: the sender gives up or retries, per its style.' },
        '401': { description: 'The signature is missing or wrong.' },
        '5XX': {
          description: 'The receiver failed: a general delivery is retried after 1 min, 10 min and 1 h.',
        },
      },
    },
  }
}

/** @internal The `webhooks` of the document: one entry per event of `specs`, in their order. */
export function buildWebhooks(
  specs: readonly EventSpec[],
  schemas: SchemaBook,
  examples: Record<string, EventExample>,
): Record<string, Json> {
  const out: Record<string, Json> = {}
  for (const spec of specs) out[spec.key] = entry(spec, schemas, examples[spec.key])
  return out
}
