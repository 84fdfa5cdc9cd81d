/**
 * The deprecated operations (docs/running-the-mock.md, "Deprecated routes"): answered as their
 * successors, with `Deprecation` and `Link` headers. No resource calls them, so their declarations
 * stay out of the client bundle; the mock binds them and the document marks them `deprecated`.
 */
import { endpoint, listEndpoint } from '../core/endpoint.js'
import type { OperationTexts } from '../openapi/spec.js'
import { HostingCreated, LegacyAccountCreateBody } from '../schemas/hosting.js'
import { WhmAccount, WhmPackage, WhmUsage } from '../schemas/whm.js'
import { hosting, provisioning } from './hosting.js'
import { WHM_OFFLINE, whm } from './whm.js'

const access = { scope: 'reseller:hosting' } as const

/** @internal The deprecated operations, each with its successor. */
export const legacy = {
  // The client id travels in the body.
  createAccount: endpoint('POST', '/reseller/accounts', {
    access,
    body: LegacyAccountCreateBody,
    data: HostingCreated,
    status: 201,
    successor: hosting.create,
  }),
  listAccounts: listEndpoint('/reseller/accounts', { access, item: WhmAccount, successor: whm.listAccounts }),
  listPackages: listEndpoint('/reseller/packages', { access, item: WhmPackage, successor: whm.listPackages }),
  usage: endpoint('GET', '/reseller/usage', { access, data: WhmUsage, successor: whm.usage }),
}

/** @internal What the OpenAPI document says about each deprecated operation. */
export const legacyTexts: OperationTexts<typeof legacy> = {
  createAccount: {
    operationId: 'createAccountLegacy',
    summary: 'Create a hosting account (deprecated form with `client_id` in the body)',
    answer: { description: 'As the successor answers' },
    // The client id is in the body: an unknown client is a 404 that no path parameter implies.
    errors: { 404: ['not_found'], ...provisioning },
    example: { body: { client_id: 503, domain: 'legacy-site.example', whm_package: 'starter' } },
    errorExamples: {
      not_found: { body: { client_id: 999, domain: 'legacy-site.example', whm_package: 'starter' } },
      domain_taken: { body: { client_id: 503, domain: 'client-one.example', whm_package: 'starter' } },
      whm_unavailable: {
        ...WHM_OFFLINE,
        body: { client_id: 601, domain: 'legacy-site.example', whm_package: 'basic' },
      },
    },
  },
  listAccounts: {
    operationId: 'listAccountsLegacy',
    summary: 'List the WHM accounts (deprecated path)',
    answer: { description: 'As the successor answers' },
    example: {},
    errorExamples: { whm_unavailable: WHM_OFFLINE },
  },
  listPackages: {
    operationId: 'listPackagesLegacy',
    summary: 'List the WHM packages (deprecated path)',
    answer: { description: 'As the successor answers' },
    example: {},
    errorExamples: { whm_unavailable: WHM_OFFLINE },
  },
  usage: {
    operationId: 'getUsageLegacy',
    summary: 'WHM usage (deprecated path)',
    answer: { description: 'As the successor answers' },
    example: {},
    errorExamples: { whm_unavailable: WHM_OFFLINE },
  },
}
