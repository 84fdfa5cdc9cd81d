import type { Answer } from '../answers.js'
import type { PagePromise } from '../core/pagination.js'
import { ApiResource } from '../core/resource.js'
import type { RequestOptions } from '../core/transport.js'
import { billing } from '../operations/billing.js'
import type { PageParams } from '../schemas/common.js'
import type { Service } from '../schemas/services.js'

/** The caller's services (any valid key). Reached as `api.services`. */
export class ServicesResource extends ApiResource {
  /** Lists services, 20 per page; `for await` over the result walks every page. */
  list(params?: PageParams, options?: RequestOptions): PagePromise<Answer<Service>> {
    return this.transport.list(billing.services, { query: params }, options)
  }
}
