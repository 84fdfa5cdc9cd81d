/**
 * Direct WHM access: the declarations of its operations (used by `api.whm`, the OpenAPI document
 * and the mock's handlers), its deprecated paths, and, beside them, their texts for the document.
 */
import { endpoint, listEndpoint } from '../core/endpoint.js'
import type { OperationTexts } from '../openapi/spec.js'
import { CpanelUsername } from '../schemas/hosting.js'
import {
  PackageName,
  WhmAccount,
  WhmAccountDeleted,
  WhmPackage,
  WhmPackageCreateBody,
  WhmPackageDeleted,
  WhmUsage,
} from '../schemas/whm.js'

const access = { scope: 'reseller:hosting' } as const
const account = { params: { username: CpanelUsername }, access }

/**
 * @internal The key of the demo seed's reseller whose WHM is offline ("Beta Web"): the error
 * examples of `whm_unavailable` send it. The WHM gate answers before any lookup.
 */
export const WHM_OFFLINE = { key: 'svc_live_beta_full' } as const
const offline = { whm_unavailable: WHM_OFFLINE }

const usage = endpoint('GET', '/reseller/whm/usage', { access, data: WhmUsage })
const listAccounts = listEndpoint('/reseller/whm/accounts', { access, item: WhmAccount })
const listPackages = listEndpoint('/reseller/whm/packages', { access, item: WhmPackage })

/** @internal The WHM operations. */
export const whm = {
  usage,
  listAccounts,
  getAccount: endpoint('GET', '/reseller/whm/accounts/{username}', { ...account, data: WhmAccount }),
  suspendAccount: endpoint('POST', '/reseller/whm/accounts/{username}/suspend', {
    ...account,
    data: WhmAccount,
  }),
  unsuspendAccount: endpoint('POST', '/reseller/whm/accounts/{username}/unsuspend', {
    ...account,
    data: WhmAccount,
  }),
  deleteAccount: endpoint('DELETE', '/reseller/whm/accounts/{username}', {
    ...account,
    data: WhmAccountDeleted,
  }),
  listPackages,
  createPackage: endpoint('POST', '/reseller/whm/packages', {
    access,
    body: WhmPackageCreateBody,
    data: WhmPackage,
    status: 201,
  }),
  deletePackage: endpoint('DELETE', '/reseller/whm/packages/{name}', {
    params: { name: PackageName },
    access,
    data: WhmPackageDeleted,
  }),
}

/** @internal What the OpenAPI document says about each WHM operation. */
export const whmTexts: OperationTexts<typeof whm> = {
  usage: {
    operationId: 'getWhmUsage',
    summary: 'WHM usage and limits of the reseller plan',
    answer: { description: 'Usage and limits' },
    example: {},
    errorExamples: offline,
  },
  listAccounts: {
    operationId: 'listWhmAccounts',
    summary: 'List the WHM accounts, newest first',
    answer: { description: 'One page of accounts' },
    example: {},
    errorExamples: offline,
  },
  getAccount: {
    operationId: 'getWhmAccount',
    summary: 'One WHM account',
    answer: { description: 'The account' },
    example: { params: { username: 'clienton' } },
    errorExamples: offline,
  },
  suspendAccount: {
    operationId: 'suspendWhmAccount',
    summary: 'Suspend a WHM account',
    answer: { description: 'The account, suspended' },
    errors: { 422: ['invalid_state'] },
    example: { params: { username: 'clienton' } },
    // `clienttw` is suspended in the demo seed.
    errorExamples: { invalid_state: { params: { username: 'clienttw' } }, ...offline },
  },
  unsuspendAccount: {
    operationId: 'unsuspendWhmAccount',
    summary: 'Unsuspend a WHM account',
    answer: { description: 'The account, active again' },
    errors: { 422: ['invalid_state'] },
    example: { params: { username: 'clienttw' } },
    errorExamples: { invalid_state: { params: { username: 'clienton' } }, ...offline },
  },
  deleteAccount: {
    operationId: 'deleteWhmAccount',
    summary: 'Delete a WHM account',
    answer: { description: 'The account is gone' },
    example: { params: { username: 'clienton' } },
    errorExamples: offline,
  },
  listPackages: {
    operationId: 'listWhmPackages',
    summary: 'List the WHM packages, newest first',
    answer: { description: 'One page of packages' },
    example: {},
    errorExamples: offline,
  },
  createPackage: {
    operationId: 'createWhmPackage',
    summary: 'Create a WHM package',
    answer: { description: 'The package' },
    example: {
      body: {
        name: 'premium',
        quota: 10240,
        bandwidth: 102400,
        maxsql: 20,
        maxpop: 100,
        maxftp: 10,
        maxsub: 20,
      },
    },
    errorExamples: offline,
  },
  deletePackage: {
    operationId: 'deleteWhmPackage',
    summary: 'Delete a WHM package no account uses',
    answer: { description: 'The package is gone' },
    errors: { 422: ['invalid_state'] },
    example: { params: { name: 'unlimited' } },
    // `clienton` is on `starter`.
    errorExamples: { invalid_state: { params: { name: 'starter' } }, ...offline },
  },
}
