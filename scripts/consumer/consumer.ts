// Type-level consumer: compiled with `tsc --noEmit` under moduleResolution nodenext and bundler.
// Every `@ts-expect-error` must be needed: if the packages' types resolved to `any`, those lines
// would compile and tsc would fail with "Unused '@ts-expect-error' directive".
import { createMockApi, type MockApi, type SeedInput } from '@reseller-api/mock'
import {
  ApiError,
  type HostingCreated,
  NotFoundError,
  type Page,
  ResellerApi,
  type Ticket,
  type TicketStatus,
  ValidationError,
} from '@reseller-api/sdk'
import { TicketCreateBody, validate } from '@reseller-api/sdk/schemas'
import { constructEvent, signPayload, verifySignature, type WebhookEvent } from '@reseller-api/sdk/webhooks'

/** Compiles only if `value` is assignable to `T`. */
function expectType<T>(_value: T): void {}

const seed: SeedInput = { resellers: [{ id: 1, api_keys: [{ key: 'svc_live_consumer' }] }] }
// @ts-expect-error: a seed needs `resellers`
expectType<SeedInput>({})

const mock: MockApi = createMockApi({ seed })
const api = new ResellerApi({ apiKey: 'svc_live_consumer', baseUrl: mock.baseUrl, fetch: mock.fetch })
expectType<'live' | 'sandbox'>(api.mode)
// @ts-expect-error: mode is a union of two literals
expectType<number>(api.mode)

export async function main(): Promise<void> {
  const page: Page<Ticket> = await api.tickets.list({ page: 1 })
  expectType<number>(page.meta.total)
  expectType<number>(page.meta.per_page)
  expectType<boolean>(page.hasNextPage())
  // @ts-expect-error: meta has no such property
  expectType<number>(page.meta.totl)
  // @ts-expect-error: total is a number
  expectType<string>(page.meta.total)

  for await (const ticket of api.tickets.list()) {
    expectType<string>(ticket.uuid)
    // Open to statuses a newer service adds, the known ones still listed.
    expectType<TicketStatus>(ticket.status)
    expectType<'open' | 'in_progress' | 'resolved' | 'closed' | (string & {})>(ticket.status)
    // @ts-expect-error: a status may be one this SDK version does not know
    expectType<'open' | 'in_progress' | 'resolved' | 'closed'>(ticket.status)
    // @ts-expect-error: status is not a number
    expectType<number>(ticket.status)
    // @ts-expect-error: wire names stay snake_case
    expectType<number>(ticket.messagesCount)
  }

  // @ts-expect-error: get takes the uuid string
  await api.tickets.get(42)
  // @ts-expect-error: department must be one of the known names
  await api.tickets.create({ subject: 's', message: 'm', department: 'marketing' })

  const { data: created, response } = await api.hosting
    .create(501, { domain: 'consumer.example', whm_package: 'starter' })
    .withResponse()
  expectType<number>(response.status)
  expectType<HostingCreated>(created)
  if (created.sandbox) {
    expectType<string>(created.password)
  } else {
    expectType<number>(created.amount_debited)
    // @ts-expect-error: a live answer has no password
    expectType<string>(created.password)
  }

  try {
    await api.whm.accounts.get('nobody')
  } catch (error) {
    if (error instanceof NotFoundError) {
      expectType<number>(error.status)
      expectType<string | undefined>(error.code)
    }
    if (error instanceof ValidationError) {
      expectType<Record<string, string[]>>(error.fields)
    }
    if (error instanceof ApiError) {
      // @ts-expect-error: status is a number
      expectType<string>(error.status)
    }
  }

  const checked = validate(TicketCreateBody, { subject: 's', message: 'm', department: 'sales' })
  if (checked.success) expectType<string>(checked.data.priority)
  else expectType<Record<string, string[]>>(checked.fields)

  const signature: string = await signPayload('{}', 'secret')
  expectType<boolean>(await verifySignature('{}', signature, 'secret'))
  // @ts-expect-error: verifySignature resolves a boolean
  expectType<string>(await verifySignature('{}', null, 'secret'))
  const event: WebhookEvent = await constructEvent('{}', signature, 'secret')
  if (event.event === 'vps.activated') {
    expectType<string>(event.data.ipv4)
    // @ts-expect-error: ipv4 is a string
    expectType<number>(event.data.ipv4)
  }
}
