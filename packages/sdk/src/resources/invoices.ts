import { listEndpoint } from '../core/endpoint.js'
import type { PagePromise } from '../core/pagination.js'
import type { RequestOptions, Transport } from '../core/transport.js'
import type { PageParams } from '../schemas/common.js'
import { Invoice } from '../schemas/invoices.js'

const routes = { list: listEndpoint('/invoices', { item: Invoice }) }

/** The caller's invoices (spec §4.6; any valid key). Reached as `api.invoices`. */
export class InvoicesResource {
  readonly #transport: Transport

  /** @internal Made by {@link ResellerApi}. */
  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Lists invoices, 20 per page; `for await` over the result walks every page. */
  list(params?: PageParams, options?: RequestOptions): PagePromise<Invoice> {
    return this.#transport.list(routes.list, { query: params }, options)
  }
}
