/**
 * `@reseller-api/mock`: a stateful reference implementation of the reseller hosting API for tests
 * and local development, as MSW handlers, an in-process `fetch` and a standalone server.
 *
 * ```ts
 * import { createMockApi } from '@reseller-api/mock'
 * const mock = createMockApi({ seed })         // demo seed when omitted
 * const api = new ResellerApi({ apiKey: 'svc_live_acme_full', baseUrl: mock.baseUrl, fetch: mock.fetch })
 * ```
 *
 * @packageDocumentation
 */

export { ControlError as MockControlError, type ControlFailure } from './control/client.js'
export {
  type ConnectedMock,
  type ConnectMockOptions,
  connectMock,
  type MockNamespace,
  type MockNamespaceInfo,
  type MockNamespaceKey,
  type MockNamespaces,
  type NamespaceOptions,
  type RemoteFault,
  type RemoteMock,
} from './control/connect.js'
export type { DeliveryView } from './control/schemas.js'
export type {
  EmitEventInput,
  EmittedEvent,
  GeneralEmitInput,
  MockState,
  MockTickets,
  ResellerEmitInput,
  StaffReplyResult,
} from './controls.js'
export { createMockApi } from './create-mock-api.js'
export { ApiError as MockApiError, isApiError as isMockApiError } from './errors.js'
export type { Fault, MockFaults } from './faults/api.js'
export { defaultFaultCode } from './faults/registry.js'
export { FaultJson, FaultMatch, FaultSpec } from './faults/schema.js'
export type { MockRequests } from './journal/api.js'
export { JournalEntry, JournalFilter, JournalResponse } from './journal/schema.js'
export { DEFAULT_BASE_URL, type MockApi, type MockApiOptions } from './mock-api.js'
export type { MockHandler, MockRequest, MockResponse } from './routing/types.js'
export { demoSeed } from './seed/demo.js'
export { parseSeed, type Seed, SeedError, type SeedInput, type SeedIssue, seedSchema } from './seed/schema.js'
export type { ListenOptions, RunningServer } from './server/http/options.js'
export type { Clock, ClockState } from './state/clock.js'
export type {
  DbFindManyOptions,
  DbOrderBy,
  DbQuery,
  DbRecord,
  DbTable,
  MockDb,
  MockDbRow,
} from './state/db.js'
