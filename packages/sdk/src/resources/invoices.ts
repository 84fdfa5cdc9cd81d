import type { Answer } from '../answers.js'
import { listEndpoint } from '../core/endpoint.js'
import type { PagePromise } from '../core/pagination.js'
import { ApiResource } from '../core/resource.js'
import type { RequestOptions } from '../core/transport.js'
import type { PageParams } from '../schemas/common.js'
import { Invoice } from '../schemas/invoices.js'

const routes = { list: listEndpoint('/invoices', { item: Invoice }) }

/** The caller's invoices (any valid key). Reached as `api.invoices`. */
export class InvoicesResource extends ApiResource {
  /** Lists invoices, 20 per page; `for await` over the result walks every page. */
  list(params?: PageParams, options?: RequestOptions): PagePromise<Answer<Invoice>> {
    return this.transport.list(routes.list, { query: params }, options)
  }
}
