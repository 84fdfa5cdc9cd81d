/**
 * Reseller hosting: the declarations of its operations (used by `api.hosting`, the OpenAPI
 * document and the mock's handlers) and, beside them, their texts for the document.
 */
import { endpoint } from '../core/endpoint.js'
import type { OperationTexts } from '../openapi/spec.js'
import { Id } from '../schemas/common.js'
import { CpanelUsername, HostingCreateBody, HostingCreated } from '../schemas/hosting.js'
import { WhmAccount, WhmAccountDeleted } from '../schemas/whm.js'
import { WHM_OFFLINE } from './whm.js'

const access = { scope: 'reseller:hosting' } as const
const wireNames = { clientId: 'client_id', username: 'cpanel_username' }
const account = { params: { clientId: Id, username: CpanelUsername }, wireNames, access }
const base = '/reseller/clients/{clientId}/hosting'

const create = endpoint('POST', base, {
  params: { clientId: Id },
  wireNames,
  access,
  body: HostingCreateBody,
  data: HostingCreated,
  status: 201,
})

/** @internal The hosting operations. */
export const hosting = {
  create,
  suspend: endpoint('POST', `${base}/{username}/suspend`, { ...account, data: WhmAccount }),
  unsuspend: endpoint('POST', `${base}/{username}/unsuspend`, { ...account, data: WhmAccount }),
  delete: endpoint('DELETE', `${base}/{username}`, { ...account, data: WhmAccountDeleted }),
}

/** @internal The business errors of provisioning. */
export const provisioning = { 422: ['quota_exceeded', 'domain_taken', 'insufficient_funds'] }

/** The WHM-offline reseller of the demo seed with its own client (601): the gate answers before the account lookup. */
const offline = {
  whm_unavailable: { ...WHM_OFFLINE, params: { client_id: 601, cpanel_username: 'clienton' } },
}

/** @internal What the OpenAPI document says about each hosting operation. */
export const hostingTexts: OperationTexts<typeof hosting> = {
  create: {
    operationId: 'createHosting',
    summary: 'Create a cPanel hosting account for a client',
    description:
      'Uses one slot of the WHM plan; with `register_domain` the wallet is debited for the domain only. ' +
      'A sandbox key gets the simulated answer and changes nothing.',
    answer: { description: 'The account (live) or its simulation (sandbox)' },
    errors: provisioning,
    example: { params: { client_id: 503 }, body: { domain: 'new-site.example', whm_package: 'starter' } },
    errorExamples: {
      domain_taken: { body: { domain: 'client-one.example', whm_package: 'starter' } },
      whm_unavailable: { ...WHM_OFFLINE, params: { client_id: 601 } },
    },
  },
  suspend: {
    operationId: 'suspendHosting',
    summary: "Suspend a client's hosting account",
    answer: { description: 'The account, suspended' },
    errors: { 422: ['invalid_state'] },
    example: { params: { client_id: 501, cpanel_username: 'clienton' } },
    errorExamples: { invalid_state: { params: { client_id: 502, cpanel_username: 'clienttw' } }, ...offline },
  },
  unsuspend: {
    operationId: 'unsuspendHosting',
    summary: "Unsuspend a client's hosting account",
    answer: { description: 'The account, active again' },
    errors: { 422: ['invalid_state'] },
    example: { params: { client_id: 502, cpanel_username: 'clienttw' } },
    errorExamples: { invalid_state: { params: { client_id: 501, cpanel_username: 'clienton' } }, ...offline },
  },
  delete: {
    operationId: 'deleteHosting',
    summary: "Delete a client's hosting account",
    answer: { description: 'The account is gone; its slot is free' },
    example: { params: { client_id: 501, cpanel_username: 'clienton' } },
    errorExamples: offline,
  },
}
