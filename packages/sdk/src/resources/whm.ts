import type { Answer } from '../answers.js'
import type { ApiPromise } from '../core/api-promise.js'
import type { PagePromise } from '../core/pagination.js'
import { ApiResource } from '../core/resource.js'
import type { RequestOptions, Transport } from '../core/transport.js'
import { whm as routes } from '../operations/whm.js'
import type { PageParams } from '../schemas/common.js'
import type {
  WhmAccount,
  WhmAccountDeleted,
  WhmPackage,
  WhmPackageCreateBody,
  WhmPackageDeleted,
  WhmUsage,
} from '../schemas/whm.js'

/** The cPanel accounts on the reseller's WHM. Reached as `api.whm.accounts`. */
export class WhmAccountsResource extends ApiResource {
  /** Lists the accounts, 20 per page; `for await` over the result walks every page. */
  list(params?: PageParams, options?: RequestOptions): PagePromise<Answer<WhmAccount>> {
    return this.transport.list(routes.listAccounts, { query: params }, options)
  }

  /** Reads one account by cPanel username. */
  get(username: string, options?: RequestOptions): ApiPromise<Answer<WhmAccount>> {
    return this.transport.call(routes.getAccount, { params: { username } }, options)
  }

  /** Suspends an account; resolves to the account as it now is. Never retried automatically. */
  suspend(username: string, options?: RequestOptions): ApiPromise<Answer<WhmAccount>> {
    return this.transport.call(routes.suspendAccount, { params: { username } }, options)
  }

  /** Lifts an account's suspension; resolves to the account as it now is. Never retried automatically. */
  unsuspend(username: string, options?: RequestOptions): ApiPromise<Answer<WhmAccount>> {
    return this.transport.call(routes.unsuspendAccount, { params: { username } }, options)
  }

  /** Deletes an account. */
  delete(username: string, options?: RequestOptions): ApiPromise<Answer<WhmAccountDeleted>> {
    return this.transport.call(routes.deleteAccount, { params: { username } }, options)
  }
}

/** The reseller's WHM packages. Reached as `api.whm.packages`. */
export class WhmPackagesResource extends ApiResource {
  /** Lists the packages, 20 per page; `for await` over the result walks every page. */
  list(params?: PageParams, options?: RequestOptions): PagePromise<Answer<WhmPackage>> {
    return this.transport.list(routes.listPackages, { query: params }, options)
  }

  /** Creates a package; every field is required. Never retried automatically. */
  create(body: WhmPackageCreateBody, options?: RequestOptions): ApiPromise<Answer<WhmPackage>> {
    return this.transport.call(routes.createPackage, { body }, options)
  }

  /** Deletes a package by name. */
  delete(name: string, options?: RequestOptions): ApiPromise<Answer<WhmPackageDeleted>> {
    return this.transport.call(routes.deletePackage, { params: { name } }, options)
  }
}

/**
 * Direct access to the reseller's WHM (scope `reseller:hosting`). Needs an active reseller
 * service with WHM access ({@link NoResellerServiceError} otherwise). Reached as `api.whm`.
 */
export class WhmResource extends ApiResource {
  /** cPanel accounts on the WHM. */
  readonly accounts: WhmAccountsResource
  /** WHM packages. */
  readonly packages: WhmPackagesResource

  /** @internal Made by {@link ResellerApi}. */
  constructor(transport: Transport) {
    super(transport)
    this.accounts = new WhmAccountsResource(transport)
    this.packages = new WhmPackagesResource(transport)
  }

  /** Reads the plan's usage: accounts, disk and bandwidth, used and allowed. */
  usage(options?: RequestOptions): ApiPromise<Answer<WhmUsage>> {
    return this.transport.call(routes.usage, {}, options)
  }
}
