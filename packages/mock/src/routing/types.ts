/**
 * The mock's transport-neutral request and answer. The route table works on these plain values so
 * that the MSW handlers, `mock.fetch` and the standalone `node:http` server share one code path,
 * and the server can answer without building WHATWG `Request`/`Response` objects on its hot path.
 */

/** A request as the mock's routes see it. */
export interface MockRequest {
  /** Upper-case HTTP method. */
  method: string
  /** Path below the mock's base URL, starting with `/`, e.g. `/api/v1/support/tickets`. */
  path: string
  /** Query string parameters. */
  query: URLSearchParams
  /** Case-insensitive header lookup. */
  headers: { get(name: string): string | null }
  /** Raw request body; `''` when there is none. */
  body: string
  /**
   * The query string as it came, with its `?` (`''` for none), for the request journal. When
   * absent the journal writes `query` back out instead.
   */
  search?: string
}

/** An answer of the mock's routes. */
export interface MockResponse {
  status: number
  /** Header names in lower case. */
  headers: Record<string, string>
  /** Serialized body; `''` for none. */
  body: string
  /**
   * `true`: no answer at all (a `drop` fault). `status`, `headers` and `body` mean nothing then;
   * the transport ends the exchange without answering: `mock.fetch` rejects with a `TypeError`,
   * the MSW handlers answer `HttpResponse.error()`, the standalone server destroys the socket.
   */
  noAnswer?: true
  /**
   * Where `body` comes from a cache that also keeps its UTF-8 bytes (a stored record read again):
   * the standalone server writes those instead of encoding `body` for every request. @internal
   */
  encoded?: { readonly text: string; bytes?: Uint8Array }
}

/** Resolves a {@link MockRequest}: the whole mock service as one function. */
export type MockHandler = (request: MockRequest) => Promise<MockResponse>

/**
 * The core's own form of {@link MockHandler}: the answer itself when nothing on the way waits (the
 * usual read), a promise otherwise. The standalone server calls it, so that such an answer is
 * written in the same turn as the request arrived. It does not throw for a route's error (that is
 * an answer); a throw means a bug of the mock. @internal
 */
export type CoreHandler = (request: MockRequest) => MockResponse | Promise<MockResponse>
