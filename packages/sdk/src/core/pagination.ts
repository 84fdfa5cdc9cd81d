import type { PageMeta } from '../schemas/common.js'
import { ApiPromise, awaitedAsPromise } from './api-promise.js'
import { ResellerApiError } from './errors.js'

/** Fetches page `n` of the same list, with the same options. */
export type PageFetcher<T> = (page: number) => PagePromise<T>

/**
 * One page of a paginated list: its items in `data`, the server's `meta`, and the way to the next
 * page. Iterating a page with `for await` yields its items and those of every later page.
 */
export class Page<T> implements AsyncIterable<T> {
  /** Items of this page (20 at most). */
  readonly data: T[]
  /** Pagination details from the server: `total`, `per_page`, `current_page`. */
  readonly meta: PageMeta
  readonly #fetch: PageFetcher<T>

  /** @internal Made by the request layer. */
  constructor(data: T[], meta: PageMeta, fetch: PageFetcher<T>) {
    this.data = data
    this.meta = meta
    this.#fetch = fetch
  }

  /**
   * Whether a later page holds items: `current_page × per_page < total`, and this page is not empty
   * (an empty page ends the list even if `total` says otherwise, so a loop always stops).
   */
  hasNextPage(): boolean {
    const { current_page, per_page, total } = this.meta
    return this.data.length > 0 && current_page * per_page < total
  }

  /**
   * Fetches the next page. Rejects with a {@link ResellerApiError} when {@link Page.hasNextPage}
   * is false: check it first.
   */
  getNextPage(): PagePromise<T> {
    if (!this.hasNextPage()) {
      const error = new ResellerApiError(
        `no page after page ${this.meta.current_page}: check hasNextPage() first`,
      )
      return new PagePromise(Promise.reject(error))
    }
    return this.#fetch(this.meta.current_page + 1)
  }

  /** This page and every later one, each fetched only when the loop asks for it. */
  async *iterPages(): AsyncGenerator<Page<T>, void, undefined> {
    let page: Page<T> = this
    yield page
    while (page.hasNextPage()) {
      page = await page.getNextPage()
      yield page
    }
  }

  /** The items of this page and of every later page, fetching one page at a time. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.iterPages()) yield* page.data
  }
}

/**
 * What a list method returns: awaitable for the first page, and async-iterable over every item of
 * every page (`for await (const ticket of api.tickets.list())`). Pages are fetched lazily, one at a
 * time, so memory stays constant however long the list.
 */
export class PagePromise<T> extends ApiPromise<Page<T>> implements AsyncIterable<T> {
  /** Every item of this page and of all later pages. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    const first = await this
    yield* first
  }
}

awaitedAsPromise(PagePromise)
