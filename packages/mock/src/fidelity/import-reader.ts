/**
 * Reads an account through the SDK for `reseller-mock import`: GET only (any other method is
 * refused before it leaves), every page, a bounded number of requests in flight. An answer the
 * SDK refuses as malformed is still read, from its raw JSON: the import of a service that drifted
 * from the schemas must succeed, so that `compare` can then report the drift.
 */
import { ConnectionError, ResellerApi, ResellerApiError, ResponseValidationError } from '@reseller-api/sdk'

/** A read that the service refused: its status and error code. */
export interface Refusal {
  refused: true
  status: number
  code: string | undefined
}

/** A read answered: the `data` (and `meta` of a page) as the service sent them. */
export interface Answer<T = unknown> {
  refused: false
  data: T
  meta?: { total?: unknown; per_page?: unknown; current_page?: unknown }
}

/** A service that cannot be reached at all (exit 2 of `import`). */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError'
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Runs `task` over `items` with at most `limit` running at once; results in the order of `items`. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
  return results
}

/** One key's view of the service. */
export class AccountReader {
  readonly api: ResellerApi
  /** Raw text of each answer by URL: what a malformed answer is read from. */
  readonly #raw = new Map<string, string>()

  constructor(baseUrl: string, key: string, fetchImpl: typeof fetch | undefined) {
    const base = fetchImpl ?? globalThis.fetch
    this.api = new ResellerApi({
      apiKey: key,
      baseUrl,
      maxRetries: 2,
      // What the schemas do not know cannot become a seed: refuse it here, naming the field.
      strictResponses: true,
      fetch: async (request, init) => {
        if (request.method !== 'GET')
          throw new TypeError(`import sends only GET requests, not ${request.method}`)
        const response = await base(request, init)
        const text = await response.text()
        if (response.ok) this.#raw.set(request.url, text)
        return new Response(text, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        })
      },
    })
  }

  /** The value of one call, or the refusal. Throws {@link UnreachableError} when nothing answers. */
  async read<T>(call: Promise<T>): Promise<Answer<T> | Refusal> {
    try {
      return { refused: false, data: await call }
    } catch (error) {
      return this.#failure<T>(error)
    }
  }

  /** One page of a list: its items and `meta` as sent. */
  async page<T>(call: Promise<{ data: T[]; meta: Answer['meta'] }>): Promise<Answer<T[]> | Refusal> {
    try {
      const page = await call
      return { refused: false, data: page.data, meta: page.meta }
    } catch (error) {
      return this.#failure<T[]>(error)
    }
  }

  /**
   * Every item of a list, newest first as the service lists them: page 1, then the pages `meta`
   * announces (`limit` at a time), then on one by one while pages are full (a `meta.total` that
   * says less than there is loses nothing). A refusal of page 1 is returned as such.
   */
  async all<T>(
    list: (page: number) => Promise<{ data: T[]; meta: Answer['meta'] }>,
    limit: number,
    progress?: (done: number, last: number) => void,
  ): Promise<Answer<T[]> | Refusal> {
    const first = await this.page(list(1))
    if (first.refused) return first
    const perPage = Number(first.meta?.per_page) || first.data.length || 20
    const total = Number(first.meta?.total) || 0
    const last = Math.max(1, Math.ceil(total / perPage))
    const pages = Array.from({ length: last - 1 }, (_, i) => i + 2)
    let done = 1
    progress?.(done, last)
    const rest = await mapLimit(pages, limit, async (n) => {
      const answer = await this.page(list(n))
      progress?.(++done, last)
      return answer.refused ? [] : answer.data
    })
    const items = [...first.data, ...rest.flat()]
    let n = last
    let tail = rest.at(-1) ?? first.data
    while (tail.length >= perPage && tail.length > 0) {
      const answer = await this.page(list(++n))
      tail = answer.refused ? [] : answer.data
      items.push(...tail)
    }
    return { refused: false, data: items, meta: first.meta }
  }

  async #failure<T>(error: unknown): Promise<Answer<T> | Refusal> {
    const name = error instanceof Error ? error.name : ''
    if (error instanceof ResponseValidationError || name === 'ResponseValidationError') {
      const url = (error as ResponseValidationError).url
      const text = this.#raw.get(url)
      this.#raw.delete(url)
      let body: unknown
      try {
        body = text === undefined ? undefined : JSON.parse(text)
      } catch {
        body = undefined
      }
      if (isObject(body) && 'data' in body)
        return { refused: false, data: body.data as T, meta: isObject(body.meta) ? body.meta : undefined }
    }
    if (error instanceof ConnectionError) throw new UnreachableError(error.message)
    const status = (error as { status?: unknown }).status
    if (error instanceof ResellerApiError && typeof status === 'number' && status >= 400)
      return { refused: true, status, code: (error as { code?: string }).code }
    if (error instanceof ResellerApiError) throw new UnreachableError(error.message)
    throw error
  }
}
