import type { Answer } from '../answers.js'
import type { ApiPromise } from '../core/api-promise.js'
import { ApiResource } from '../core/resource.js'
import type { RequestOptions } from '../core/transport.js'
import { hosting as routes } from '../operations/hosting.js'
import type { HostingCreated, HostingCreateParams } from '../schemas/hosting.js'
import type { WhmAccount, WhmAccountDeleted } from '../schemas/whm.js'

/**
 * Reseller hosting: cPanel accounts provisioned for the reseller's clients (scope
 * `reseller:hosting`). Reached as `api.hosting`.
 */
export class HostingResource extends ApiResource {
  /**
   * Creates a cPanel account for client `clientId`, optionally registering the domain
   * (`POST /reseller/clients/{client_id}/hosting`). Never retried automatically. With a sandbox key
   * the answer is simulated (`sandbox: true`) and nothing is created.
   *
   * @throws {@link QuotaExceededError}, {@link DomainTakenError}, {@link InsufficientFundsError},
   * {@link WhmUnavailableError}, {@link ValidationError} (also before sending).
   */
  create(
    clientId: number,
    body: HostingCreateParams,
    options?: RequestOptions,
  ): ApiPromise<Answer<HostingCreated>> {
    return this.transport.call(routes.create, { params: { clientId }, body }, options)
  }

  /** Suspends a client's cPanel account; resolves to the account as it now is. Never retried automatically. */
  suspend(clientId: number, username: string, options?: RequestOptions): ApiPromise<Answer<WhmAccount>> {
    return this.transport.call(routes.suspend, { params: { clientId, username } }, options)
  }

  /** Lifts the suspension of a client's cPanel account; resolves to the account as it now is. Never retried automatically. */
  unsuspend(clientId: number, username: string, options?: RequestOptions): ApiPromise<Answer<WhmAccount>> {
    return this.transport.call(routes.unsuspend, { params: { clientId, username } }, options)
  }

  /** Deletes a client's cPanel account (`DELETE …/hosting/{cpanel_username}`). */
  delete(
    clientId: number,
    username: string,
    options?: RequestOptions,
  ): ApiPromise<Answer<WhmAccountDeleted>> {
    return this.transport.call(routes.delete, { params: { clientId, username } }, options)
  }
}
