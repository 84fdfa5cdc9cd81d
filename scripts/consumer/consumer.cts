// CommonJS-side types under module nodenext: `require()` of the ES-module packages.
import sdk = require('@reseller-api/sdk')
import webhooks = require('@reseller-api/sdk/webhooks')
import mockPackage = require('@reseller-api/mock')

/** Compiles only if `value` is assignable to `T`. */
function expectType<T>(_value: T): void {}

const mock: mockPackage.MockApi = mockPackage.createMockApi()
const api = new sdk.ResellerApi({ apiKey: 'svc_live_acme_full', baseUrl: mock.baseUrl, fetch: mock.fetch })

export async function main(): Promise<number> {
  const page = await api.tickets.list()
  // @ts-expect-error: meta has no such property
  expectType<number>(page.meta.totl)
  expectType<boolean>(await webhooks.verifySignature('{}', 'sha256=00', 'secret'))
  // @ts-expect-error: verifySignature resolves a boolean
  expectType<string>(await webhooks.verifySignature('{}', 'sha256=00', 'secret'))
  return page.meta.total
}
