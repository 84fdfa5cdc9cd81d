/**
 * Services and invoices: the declarations of their operations (used by `api.services` and
 * `api.invoices`, the OpenAPI document and the mock's handlers) and, beside them, their texts.
 */
import { listEndpoint } from '../core/endpoint.js'
import type { OperationTexts } from '../openapi/spec.js'
import { Invoice } from '../schemas/invoices.js'
import { Service } from '../schemas/services.js'

/** @internal The billing operations: any valid key. */
export const billing = {
  services: listEndpoint('/services', { item: Service }),
  invoices: listEndpoint('/invoices', { item: Invoice }),
}

/** @internal What the OpenAPI document says about each billing operation. */
export const billingTexts: OperationTexts<typeof billing> = {
  services: {
    operationId: 'listServices',
    summary: "List the reseller's services, newest first",
    answer: { description: 'One page of services' },
    example: {},
  },
  invoices: {
    operationId: 'listInvoices',
    summary: "List the reseller's invoices, newest first",
    answer: { description: 'One page of invoices' },
    example: { query: { page: 2 } },
  },
}
