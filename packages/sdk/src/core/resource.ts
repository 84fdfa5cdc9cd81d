import type { Transport } from './transport.js'

/**
 * The base of every resource group (`api.tickets`, `api.whm.accounts`, …): each method is one line
 * that hands its endpoint and arguments to the client's transport.
 */
export abstract class ApiResource {
  /** @internal The client's transport: sends, retries, reads answers. */
  protected readonly transport: Transport

  /** @internal Made by {@link ResellerApi}. */
  constructor(transport: Transport) {
    this.transport = transport
  }
}
