import type { Answer } from '../answers.js'
import type { ApiPromise } from '../core/api-promise.js'
import type { PagePromise } from '../core/pagination.js'
import { ApiResource } from '../core/resource.js'
import type { RequestOptions } from '../core/transport.js'
import { tickets as routes } from '../operations/tickets.js'
import type { PageParams } from '../schemas/common.js'
import type {
  Ticket,
  TicketCreated,
  TicketCreateParams,
  TicketDetail,
  TicketMessage,
  TicketReplyBody,
  TicketStatusChange,
} from '../schemas/tickets.js'

/**
 * Support tickets (scopes `support:read` and `support:write`). Sandbox keys may only
 * read ({@link SandboxReadOnlyError}). Reached as `api.tickets`.
 */
export class TicketsResource extends ApiResource {
  /** Lists tickets, newest first, 20 per page; `for await` over the result walks every page. */
  list(params?: PageParams, options?: RequestOptions): PagePromise<Answer<Ticket>> {
    return this.transport.list(routes.list, { query: params }, options)
  }

  /** Opens a ticket with its first message. Never retried automatically. */
  create(body: TicketCreateParams, options?: RequestOptions): ApiPromise<Answer<TicketCreated>> {
    return this.transport.call(routes.create, { body }, options)
  }

  /** Reads a ticket with its messages (internal staff notes excluded), oldest message first. */
  get(uuid: string, options?: RequestOptions): ApiPromise<Answer<TicketDetail>> {
    return this.transport.call(routes.get, { params: { uuid } }, options)
  }

  /**
   * Adds a message to a ticket. Never retried automatically.
   *
   * @throws {@link InvalidStateError} when the ticket is closed.
   */
  reply(uuid: string, body: TicketReplyBody, options?: RequestOptions): ApiPromise<Answer<TicketMessage>> {
    return this.transport.call(routes.reply, { params: { uuid }, body }, options)
  }

  /** Closes a ticket. @throws {@link InvalidStateError} when it is already closed. */
  close(uuid: string, options?: RequestOptions): ApiPromise<Answer<TicketStatusChange>> {
    return this.transport.call(routes.close, { params: { uuid } }, options)
  }

  /** Reopens a closed or resolved ticket. @throws {@link InvalidStateError} when it is open or in progress. */
  reopen(uuid: string, options?: RequestOptions): ApiPromise<Answer<TicketStatusChange>> {
    return this.transport.call(routes.reopen, { params: { uuid } }, options)
  }
}
