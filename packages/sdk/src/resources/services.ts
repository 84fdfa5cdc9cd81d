import type { Answer } from '../answers.js'
import { listEndpoint } from '../core/endpoint.js'
import type { PagePromise } from '../core/pagination.js'
import { ApiResource } from '../core/resource.js'
import type { RequestOptions } from '../core/transport.js'
import type { PageParams } from '../schemas/common.js'
import { Service } from '../schemas/services.js'

const routes = { list: listEndpoint('/services', { item: Service }) }

/** The caller's services (any valid key). Reached as `api.services`. */
export class ServicesResource extends ApiResource {
  /** Lists services, 20 per page; `for await` over the result walks every page. */
  list(params?: PageParams, options?: RequestOptions): PagePromise<Answer<Service>> {
    return this.transport.list(routes.list, { query: params }, options)
  }
}
