/** A typed value together with the HTTP answer it came from. */
export interface WithResponse<T> {
  /** The parsed, validated value the method resolves to. */
  readonly data: T
  /**
   * The HTTP answer: `status`, `headers`, `url`. Its body has already been read and validated into
   * `data`, so its body methods are spent.
   */
  readonly response: Response
}

/**
 * What every method returns: a promise of the parsed value that also gives access to the raw
 * answer without losing the type, as `await api.tickets.get(uuid).withResponse()`.
 *
 * The request starts when the method is called, like any promise.
 */
export class ApiPromise<T> extends Promise<T> {
  readonly #raw: Promise<WithResponse<T>>

  /** @internal Made by the request layer from the promise of the value and its answer. */
  constructor(raw: Promise<WithResponse<T>>) {
    // The executor's value is never used: then/catch/finally read `#raw` instead.
    super(settleUnused)
    this.#raw = raw
  }

  /** Promises made by `then` and friends are plain promises, not `ApiPromise`s. */
  static override get [Symbol.species]() {
    return Promise
  }

  /** Resolves to the parsed value and the HTTP answer (status, headers). */
  withResponse(): Promise<WithResponse<T>> {
    return this.#raw
  }

  /** Standard `Promise.prototype.then`, on the parsed value. */
  // biome-ignore lint/suspicious/noThenProperty: an ApiPromise is a promise by design
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    // One step from the answer to the caller's callback (an `await` lands here too).
    const fulfilled =
      typeof onfulfilled === 'function'
        ? (result: WithResponse<T>) => onfulfilled(result.data)
        : (dataOf as (result: WithResponse<T>) => R1)
    return this.#raw.then(fulfilled, onrejected)
  }

  /** Standard `Promise.prototype.catch`. */
  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onrejected)
  }

  /** Standard `Promise.prototype.finally`. */
  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally)
  }
}

function settleUnused(resolve: (value: never) => void): void {
  resolve(undefined as never)
}

function dataOf<T>(result: WithResponse<T>): T {
  return result.data
}
