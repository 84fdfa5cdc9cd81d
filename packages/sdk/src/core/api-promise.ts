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
    // The promise settles with the value itself, so `await` and `then` are the built-in ones.
    super((resolve, reject) => {
      raw.then((result) => resolve(result.data), reject)
    })
    this.#raw = raw
  }

  /** Resolves to the parsed value and the HTTP answer (status, headers). */
  withResponse(): Promise<WithResponse<T>> {
    // A failed call also rejects this promise: it counts as handled once the caller took `#raw`.
    super.then(undefined, ignore)
    return this.#raw
  }
}

function ignore(): void {}

/**
 * @internal Gives `type`'s instances the built-in Promise as their `constructor`. `await` takes a
 * promise as it is only when its `constructor` is the built-in one; any other costs a `then` call
 * and a microtask more per call. An ApiPromise settles with the value itself, so nothing is lost,
 * and `then` and friends make plain promises (`instanceof ApiPromise` still holds).
 */
export function awaitedAsPromise(type: { prototype: object }): void {
  Object.defineProperty(type.prototype, 'constructor', { value: Promise, writable: true, configurable: true })
}

awaitedAsPromise(ApiPromise)
