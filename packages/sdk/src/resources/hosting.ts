import type { Answer } from '../answers.js'
import type { ApiPromise } from '../core/api-promise.js'
import { ApiResource } from '../core/resource.js'
import type { RequestOptions } from '../core/transport.js'
import { hosting as routes } from '../operations/hosting.js'
import type { HostingCreated, HostingCreateParams } from '../schemas/hosting.js'
import type { WhmAccount, WhmAccountDeleted } from '../schemas/whm.js'
import { ensureHosting, type HostingEnsured } from './hosting-ensure.js'

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

  /**
   * Provisions `body.domain` for client `clientId` at most once, even when an answer is lost or the
   * call is made again: the safe way to provision (docs/errors-and-retries.md, "When an answer is
   * lost"). It creates; when no answer came and the request may have applied (`outcome:
   * 'unknown'`), or the domain is taken, it looks the domain up among the WHM accounts:
   *
   * - an account of `clientId`: resolves `{ created: false, account }` (nothing created or debited);
   * - an account of another client (or of another reseller): rejects with {@link DomainTakenError};
   * - none after a lost answer, or an answer that was surely not sent (`outcome: 'not_sent'`): it
   *   creates again, up to 3 sends in all, then rejects with the last {@link ConnectionError}.
   *
   * A success resolves `{ created: true, hosting }`, the create's answer (a sandbox key's simulated
   * one included). Every other error is the create's own ({@link QuotaExceededError},
   * {@link InsufficientFundsError}, {@link ValidationError}, a {@link ServerError}…); calling
   * `ensure` again after any of them is safe.
   */
  async ensure(
    clientId: number,
    body: HostingCreateParams,
    options?: RequestOptions,
  ): Promise<HostingEnsured> {
    return ensureHosting(this.transport, clientId, body, options)
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
