import type { Answer } from '../answers.js'
import type { PagePromise } from '../core/pagination.js'
import { ApiResource } from '../core/resource.js'
import type { RequestOptions } from '../core/transport.js'
import { billing } from '../operations/billing.js'
import type { PageParams } from '../schemas/common.js'
import type { Invoice } from '../schemas/invoices.js'

/** The caller's invoices (any valid key). Reached as `api.invoices`. */
export class InvoicesResource extends ApiResource {
  /** Lists invoices, 20 per page; `for await` over the result walks every page. */
  list(params?: PageParams, options?: RequestOptions): PagePromise<Answer<Invoice>> {
    return this.transport.list(billing.invoices, { query: params }, options)
  }
}
